import { Lock, SendHorizontal } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Spinner } from '../../../components/ui/Spinner'
import { cn } from '../../../lib/cn'

/** The send button: a spinner while sending; amber with a lock when it saves a private note. */
export function SendButton({
  note,
  sending,
  disabled,
  onSend,
}: {
  note: boolean
  sending: boolean
  disabled: boolean
  onSend: () => void
}) {
  const { t } = useTranslation()
  const label = note ? t('conversation.input.sendNote') : t('conversation.input.send')
  return (
    <button
      type="button"
      onClick={onSend}
      disabled={disabled}
      className={cn(
        'relative flex size-10 shrink-0 items-center justify-center rounded-full disabled:opacity-50 max-sm:size-11',
        note
          ? 'bg-[var(--note-fg)] text-[var(--note)] hover:brightness-110'
          : 'bg-primary text-on-primary hover:bg-primary-hover',
      )}
      aria-label={label}
      title={label}
    >
      {sending ? <Spinner /> : <SendHorizontal className="size-5" aria-hidden />}
      {note && !sending && (
        <span
          aria-hidden
          className="-top-0.5 -right-0.5 absolute flex size-4 items-center justify-center rounded-full bg-[var(--note)] text-[var(--note-fg)] ring-1 ring-[var(--note-border)]"
        >
          <Lock className="size-2.5" />
        </span>
      )}
    </button>
  )
}
