import { X } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'

/** A strip above the input saying which mode it is in (editing, replying, a private note), with a way out. */
export function ModeBanner({
  icon,
  title,
  onClose,
  closeLabel,
  note = false,
  testId = 'input-mode',
  children,
}: {
  icon: ReactNode
  title: string
  onClose: () => void
  closeLabel?: string
  /** The private-note mode: amber, as the notes it writes. */
  note?: boolean
  testId?: string
  children?: ReactNode
}) {
  const { t } = useTranslation()
  const label = closeLabel ?? t('common.cancel')
  return (
    <div
      className={cn(
        'flex items-start gap-2 border-t px-3 py-2',
        note
          ? 'border-[var(--note-border)] bg-[var(--note)] text-[var(--note-fg)]'
          : 'border-border bg-surface',
      )}
      data-testid={testId}
    >
      <span className={cn('mt-1 [&>svg]:size-4', note ? 'text-[var(--note-fg)]' : 'text-muted')}>{icon}</span>
      <div className="min-w-0 flex-1">
        <div className={cn('font-medium text-[13px]', note ? 'font-semibold' : 'text-muted')}>{title}</div>
        {children}
      </div>
      <button
        type="button"
        onClick={onClose}
        aria-label={label}
        title={label}
        className={cn(
          'flex size-8 shrink-0 items-center justify-center rounded-full max-sm:size-11',
          note
            ? 'text-[var(--note-fg)] hover:bg-black/5 dark:hover:bg-white/10'
            : 'text-muted hover:bg-surface-2 hover:text-fg',
        )}
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  )
}
