import { type KeyboardEvent, useEffect, useMemo, useState } from 'react'
import { useLiveList } from '../../../state/liveList'
import { usableQuickMessagesList } from '../../quick-messages/quickMessagesList'
import { moveSuggestion, type QuickAnswer, quickAnswerSuggestions } from './rules'

export type QuickAnswerSuggestion = ReturnType<typeof quickAnswerSuggestions>[number]

/**
 * Quick answers for '/' suggestions: the active quick messages this user may use (GET /quick-messages/list),
 * live. Loaded only once `enabled` (the user typed '/'), so a conversation opened without them fetches nothing.
 */
export function useQuickAnswers(enabled = true): QuickAnswer[] {
  const list = useLiveList(usableQuickMessagesList, undefined, { enabled })
  return list.items
}

/** A quick message's media as a file to send: fetched through its signed link. */
export async function quickAnswerFile(answer: QuickAnswer): Promise<File | null> {
  if (!answer.mediaUrl) return null
  const res = await fetch(answer.mediaUrl)
  if (!res.ok) throw new Error(`media ${res.status}`)
  const blob = await res.blob()
  const type = answer.mediaMime || blob.type || 'application/octet-stream'
  return new File([blob], answer.mediaName || 'arquivo', { type })
}

/**
 * The '/' suggestions for the text being typed: the quick answers load once the user first types '/' (and only
 * while `allowed`), and are offered while the text is '/' and a shortcode; Escape hides them for that text.
 */
export function useQuickAnswerSuggestions(text: string, allowed: boolean) {
  const [wantQuick, setWantQuick] = useState(false)
  if (!wantQuick && text.startsWith('/')) setWantQuick(true)
  const quickAnswers = useQuickAnswers(wantQuick && allowed)
  const [dismissedAt, setDismissedAt] = useState<string | null>(null)
  const [activeSuggestion, setActiveSuggestion] = useState(0)
  const suggestions = useMemo(
    () => (dismissedAt === text ? [] : quickAnswerSuggestions(quickAnswers, text)),
    [quickAnswers, text, dismissedAt],
  )
  const suggestionCount = suggestions.length
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text or list starts at the first suggestion
  useEffect(() => setActiveSuggestion(0), [text, suggestionCount])
  const current =
    suggestionCount > 0 ? suggestions[Math.min(activeSuggestion, suggestionCount - 1)] : undefined

  /** The suggestions' keys (arrows move, Enter or Tab choose, Escape hides); true when the key was theirs. */
  const onKeyDown = (
    e: KeyboardEvent<HTMLTextAreaElement>,
    choose: (answer: QuickAnswer) => void,
  ): boolean => {
    if (suggestionCount === 0) return false
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault()
      setActiveSuggestion((i) => moveSuggestion(i, e.key === 'ArrowDown' ? 1 : -1, suggestionCount))
      return true
    }
    if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
      if (current) {
        e.preventDefault()
        choose(current.answer)
        return true
      }
    }
    if (e.key === 'Escape') {
      e.preventDefault()
      setDismissedAt(text)
      return true
    }
    return false
  }

  return {
    suggestions,
    active: activeSuggestion,
    setActive: setActiveSuggestion,
    current,
    /** A chosen answer's text is not offered again until it changes. */
    dismiss: setDismissedAt,
    onKeyDown,
  }
}
