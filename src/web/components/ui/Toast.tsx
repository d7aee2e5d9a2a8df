import { useSignals } from '@preact/signals-react/runtime'
import { AlertTriangle, CheckCircle2, Info, X, XCircle } from 'lucide-react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn'
import { dismissToast, type ToastItem, type ToastKind, toasts } from '../../state/toast'

const icons: Record<ToastKind, typeof Info> = {
  success: CheckCircle2,
  error: XCircle,
  warning: AlertTriangle,
  info: Info,
}

const accents: Record<ToastKind, string> = {
  success: 'text-success',
  error: 'text-danger',
  warning: 'text-warning',
  info: 'text-link',
}

function ToastView({ item }: { item: ToastItem }) {
  const { t } = useTranslation()
  useEffect(() => {
    const id = setTimeout(() => dismissToast(item.id), item.duration)
    return () => clearTimeout(id)
  }, [item.id, item.duration])
  const Icon = icons[item.kind]
  return (
    <div
      role={item.kind === 'error' ? 'alert' : 'status'}
      data-kind={item.kind}
      className={cn(
        'pointer-events-auto flex w-full items-start gap-3 rounded-lg border border-border bg-surface px-3.5 py-3 text-fg shadow-pop',
        'motion-safe:animate-[toast-in_180ms_ease-out]',
      )}
    >
      <Icon className={cn('mt-px size-5 shrink-0', accents[item.kind])} aria-hidden />
      <p className="min-w-0 flex-1 text-sm leading-snug">{item.message}</p>
      <button
        type="button"
        onClick={() => dismissToast(item.id)}
        className="-m-1 inline-flex shrink-0 items-center justify-center rounded p-1 text-muted hover:text-fg max-sm:-my-3 max-sm:-mr-3 max-sm:size-11"
        aria-label={t('common.close')}
        title={t('common.close')}
      >
        <X className="size-4" />
      </button>
    </div>
  )
}

/**
 * Renders the toast queue: top right under the top bar (full width on phones), so a toast never hides the
 * menu button, the theme toggle or the account menu.
 */
export function Toaster() {
  useSignals()
  return (
    <div
      aria-live="polite"
      data-testid="toasts"
      className="pointer-events-none fixed top-[calc(var(--topbar-height)+env(safe-area-inset-top)+0.5rem)] right-3 left-3 z-[100] flex flex-col items-end gap-2 sm:left-auto sm:w-96"
    >
      {toasts.value.map((item) => (
        <ToastView key={item.id} item={item} />
      ))}
    </div>
  )
}
