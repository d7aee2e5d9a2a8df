import { Paperclip } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'
import type { QuickAnswer } from './rules'
import type { QuickAnswerSuggestion } from './useQuickAnswers'

/** The listbox's id, which the input names in aria-controls. */
export const quickAnswersId = (ticketId: number) => `quick-answers-${ticketId}`
/** An option's id, which the input names in aria-activedescendant. */
export const quickAnswerId = (ticketId: number, answerId: number) => `quick-answer-${ticketId}-${answerId}`

/** The '/' suggestions above the input; choosing one keeps the input's focus. */
export function QuickAnswerList({
  ticketId,
  suggestions,
  active,
  onChoose,
  onHover,
}: {
  ticketId: number
  suggestions: QuickAnswerSuggestion[]
  active: number
  onChoose: (answer: QuickAnswer) => void
  onHover: (index: number) => void
}) {
  const { t } = useTranslation()
  return (
    <div
      id={quickAnswersId(ticketId)}
      role="listbox"
      className="absolute right-3 bottom-full left-3 z-10 mb-1 max-h-60 overflow-y-auto rounded-lg border border-border bg-surface p-1 shadow-pop"
      aria-label={t('conversation.input.quickAnswers')}
    >
      {suggestions.map((s, i) => (
        <div
          key={s.answer.id}
          id={quickAnswerId(ticketId, s.answer.id)}
          role="option"
          aria-selected={i === active}
          tabIndex={-1}
          // mousedown, not click: the input keeps its focus.
          onMouseDown={(e) => {
            e.preventDefault()
            onChoose(s.answer)
          }}
          onMouseEnter={() => onHover(i)}
          className={cn(
            'flex cursor-pointer items-center gap-2 rounded-md px-2.5 py-2 text-left text-sm max-sm:min-h-11',
            i === active ? 'bg-surface-2 text-fg' : 'text-fg hover:bg-surface-2',
          )}
        >
          <span className="min-w-0 flex-1 truncate">{s.label}</span>
          {s.answer.mediaName && (
            <Paperclip className="size-3.5 shrink-0 text-muted" aria-label={s.answer.mediaName} />
          )}
        </div>
      ))}
    </div>
  )
}
