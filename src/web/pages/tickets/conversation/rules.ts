/** The message input's rules (spec 1, sections 4, 5 and 9), kept apart from the components so tests read them. */
import { FORWARD_MAX } from '../../../../shared/schemas/messages'

/** The input shows at most this many rows; longer text scrolls inside it. */
export const INPUT_MAX_ROWS = 5
/** Recordings smaller than this are discarded without a word (a slip of the finger). */
export const AUDIO_MIN_BYTES = 10_000
/** The emoji picker's line. */
export const EMOJIS_PER_LINE = 16
/** Quick-answer labels cut the message here, then '...'. */
export const QUICK_ANSWER_CUT = 35
/** Browser storage key of the sign option (boolean, default true). */
export const SIGN_OPTION_KEY = 'signOption'

/** The text to send: trimmed; null when nothing is left (an empty or whitespace-only send is ignored). */
export function normalizeBody(text: string): string | null {
  const body = text.trim()
  return body ? body : null
}

/** The sign option: the agent's name in bold, then a newline, before the text (new messages only). */
export function signBody(body: string, agentName: string): string {
  const name = agentName.trim()
  return name ? `*${name}:*\n${body}` : body
}

/** Rows the input shows for a text: one per line, at least 1 and at most INPUT_MAX_ROWS. */
export function inputRows(text: string): number {
  return Math.min(INPUT_MAX_ROWS, Math.max(1, text.split('\n').length))
}

/** What a key press in the input does: Enter sends, Shift+Enter (or Enter while composing) writes a newline. */
export function keyAction(e: {
  key: string
  shiftKey: boolean
  isComposing?: boolean
  nativeEvent?: { isComposing?: boolean }
}): 'send' | 'newline' | null {
  if (e.key !== 'Enter') return null
  if (e.shiftKey || e.isComposing || e.nativeEvent?.isComposing) return 'newline'
  return 'send'
}

/** Whether a finished recording is worth sending. */
export function keepRecording(bytes: number): boolean {
  return bytes >= AUDIO_MIN_BYTES
}

export type ForwardToggle = { selected: number[]; error: 'tooMany' | null }

/** Selects or unselects a message for forwarding; a fifth one is refused with 'tooMany'. */
export function toggleForward(selected: number[], messageId: number, max = FORWARD_MAX): ForwardToggle {
  if (selected.includes(messageId))
    return { selected: selected.filter((id) => id !== messageId), error: null }
  if (selected.length >= max) return { selected, error: 'tooMany' }
  return { selected: [...selected, messageId], error: null }
}

/** A quick message as the input offers it; one with media attaches its file (`mediaUrl`, signed) to the send. */
export type QuickAnswer = {
  id: number
  shortcode: string
  message: string
  mediaUrl?: string | null
  mediaName?: string | null
  mediaMime?: string | null
}

/** The suggestion the arrow keys move to: wraps around at both ends. */
export function moveSuggestion(index: number, by: 1 | -1, count: number): number {
  if (count <= 0) return 0
  return (((index + by) % count) + count) % count
}

/**
 * The quick answers that match what is typed: only when the input starts with '/', by shortcode, ignoring case;
 * each labelled '/shortcode - message' with the message cut at 35 characters plus '...'.
 */
export function quickAnswerSuggestions(
  answers: QuickAnswer[],
  input: string,
): { answer: QuickAnswer; label: string }[] {
  if (!input.startsWith('/') || answers.length === 0) return []
  const term = input.slice(1).toLowerCase()
  return answers
    .filter((a) => a.shortcode.toLowerCase().includes(term))
    .map((answer) => {
      const text =
        answer.message.length > QUICK_ANSWER_CUT
          ? `${answer.message.slice(0, QUICK_ANSWER_CUT)}...`
          : answer.message
      return { answer, label: `/${answer.shortcode} - ${text}` }
    })
}

/** The sign option as stored (default true). */
export function readSignOption(): boolean {
  try {
    const v = localStorage.getItem(SIGN_OPTION_KEY)
    return v == null ? true : v !== 'false'
  } catch {
    return true
  }
}

export function writeSignOption(on: boolean): void {
  try {
    localStorage.setItem(SIGN_OPTION_KEY, String(on))
  } catch {
    // storage unavailable: the choice lasts for this page only
  }
}

/** Whether a message can be edited from here: our own text, not deleted, not a note of another kind. */
export function canEdit(m: {
  fromMe: boolean
  isDeleted: boolean
  mediaType: string
  sendState: string | null
}): boolean {
  return m.fromMe && !m.isDeleted && m.mediaType === 'chat' && m.sendState !== 'failed'
}
