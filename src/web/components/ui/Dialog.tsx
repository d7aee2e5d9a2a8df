import { DialogBackdrop, DialogPanel, DialogTitle, Dialog as HDialog } from '@headlessui/react'
import { X } from 'lucide-react'
import type { FormEvent, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn'

export type DialogProps = {
  open: boolean
  onClose: () => void
  title: ReactNode
  description?: ReactNode
  children?: ReactNode
  /** Buttons at the bottom (right-aligned; sticky on phones). */
  footer?: ReactNode
  /** When given, the body is a <form>: Enter in a field submits it. */
  onSubmit?: () => void
  size?: 'sm' | 'md' | 'lg'
  /** Extra content between the title and the body (tabs). */
  header?: ReactNode
  className?: string
  role?: 'dialog' | 'alertdialog'
  /** Keep one height whatever the content (tabs of different lengths): the body scrolls instead. */
  fixedHeight?: boolean
}

const widths = { sm: 'sm:max-w-md', md: 'sm:max-w-xl', lg: 'sm:max-w-3xl' }

/**
 * A modal dialog. Escape and the close button close it; below 600 px it becomes a full-screen sheet.
 */
export function Dialog({
  open,
  onClose,
  title,
  description,
  children,
  footer,
  onSubmit,
  size = 'md',
  header,
  className,
  role = 'dialog',
  fixedHeight = false,
}: DialogProps) {
  const { t } = useTranslation()
  const submit = (e: FormEvent) => {
    e.preventDefault()
    e.stopPropagation()
    onSubmit?.()
  }
  const body = (
    <>
      <div className="flex items-start justify-between gap-3 px-5 pt-4 pb-3 max-sm:border-border max-sm:border-b max-sm:py-2">
        <div className="min-w-0 py-1">
          <DialogTitle className="font-semibold text-[17px] text-fg leading-snug">{title}</DialogTitle>
          {description && <p className="mt-1 text-muted text-sm">{description}</p>}
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('common.close')}
          title={t('common.close')}
          className="-mr-2 inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg max-sm:size-11"
        >
          <X className="size-5" />
        </button>
      </div>
      {header}
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4">{children}</div>
      {footer && (
        <div className="flex items-center justify-end gap-2 border-border border-t bg-surface px-5 py-3 max-sm:sticky max-sm:bottom-0 max-sm:pb-[max(12px,env(safe-area-inset-bottom))] [&>*]:max-sm:flex-1">
          {footer}
        </div>
      )}
    </>
  )
  return (
    <HDialog open={open} onClose={onClose} className="relative z-50" role={role}>
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-black/45 transition-opacity duration-200 ease-out data-closed:opacity-0"
      />
      <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-4">
        <DialogPanel
          transition
          className={cn(
            'flex w-full flex-col overflow-hidden bg-surface text-fg shadow-pop',
            'h-dvh sm:max-h-[min(90dvh,880px)] sm:rounded-xl sm:border sm:border-border',
            fixedHeight ? 'sm:h-[min(90dvh,720px)]' : 'sm:h-auto',
            'transition duration-200 ease-out data-closed:opacity-0 data-closed:translate-y-3 sm:data-closed:scale-[0.98] sm:data-closed:translate-y-0',
            widths[size],
            className,
          )}
        >
          {onSubmit ? (
            <form onSubmit={submit} noValidate className="flex min-h-0 flex-1 flex-col">
              {body}
            </form>
          ) : (
            body
          )}
        </DialogPanel>
      </div>
    </HDialog>
  )
}
