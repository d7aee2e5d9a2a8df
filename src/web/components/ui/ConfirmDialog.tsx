import { DialogBackdrop, DialogPanel, DialogTitle, Dialog as HDialog } from '@headlessui/react'
import { AlertTriangle } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn'
import { Button } from './Button'

export type ConfirmDialogProps = {
  open: boolean
  onClose: () => void
  /** May return a promise: the confirm button shows a spinner until it settles, then the dialog closes. */
  onConfirm: () => unknown
  title?: string
  message?: string
  confirmLabel?: string
  /** 'danger' (default): a destructive action, red. 'warning': a disruptive one (restart, new token), amber. */
  tone?: 'danger' | 'warning'
  /** Replaces the warning triangle. */
  icon?: ReactNode
}

const TONES = {
  danger: { icon: 'bg-danger-soft text-on-danger-soft', button: 'danger' },
  warning: { icon: 'bg-warning-soft text-on-warning-soft', button: 'primary' },
} as const

/** The spec's delete confirmation: 'Exclusão de Registro' / 'Deseja realmente excluir esse registro?'. */
export function ConfirmDialog({
  open,
  onClose,
  onConfirm,
  title,
  message,
  confirmLabel,
  tone = 'danger',
  icon,
}: ConfirmDialogProps) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const confirm = async () => {
    setBusy(true)
    try {
      await onConfirm()
      onClose()
    } catch {
      // the caller reports the error; keep the dialog open so the user can retry or cancel
    } finally {
      setBusy(false)
    }
  }
  return (
    <HDialog open={open} onClose={() => !busy && onClose()} className="relative z-[60]" role="alertdialog">
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-black/45 transition-opacity duration-150 data-closed:opacity-0"
      />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel
          transition
          className="w-full max-w-sm rounded-xl border border-border bg-surface p-5 text-fg shadow-pop transition duration-150 ease-out data-closed:scale-95 data-closed:opacity-0"
        >
          <div className="flex gap-3">
            <span
              className={cn(
                'flex size-10 shrink-0 items-center justify-center rounded-full [&>svg]:size-5',
                TONES[tone].icon,
              )}
              aria-hidden
            >
              {icon ?? <AlertTriangle />}
            </span>
            <div className="min-w-0 pt-0.5">
              <DialogTitle className="font-semibold text-base">
                {title ?? t('confirm.deleteTitle')}
              </DialogTitle>
              <p className="mt-1.5 text-muted text-sm">{message ?? t('confirm.deleteText')}</p>
            </div>
          </div>
          <div className="mt-5 flex justify-end gap-2 max-sm:[&>*]:flex-1">
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button variant={TONES[tone].button} onClick={confirm} loading={busy} autoFocus>
              {confirmLabel ?? t('common.delete')}
            </Button>
          </div>
        </DialogPanel>
      </div>
    </HDialog>
  )
}
