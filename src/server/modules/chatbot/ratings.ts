/**
 * NPS: when a ticket closes (not a group) with the userRating setting 'enabled' and its connection has a rating
 * message and an NPS time (expiresTicketNPS minutes, the spec's "NPS needs a time and a rating message"), the
 * customer receives the rating question instead of the farewell, and the ticket's bot session becomes 'nps'
 * (who to rate: the attendant who had the ticket; until when: now + expiresTicketNPS).
 *
 * While it waits, the customer's next message lands on the closed ticket (tickets/inbound.ts asks
 * `awaitingRating`, tickets/awaiting-rating.ts) instead of opening a new one; the machine records a 0-10 answer in `user_ratings` and sends
 * the complation message, re-asks other answers up to maxUseBotQueuesNPS questions, then lets go. The timers
 * (timers.ts) end a question nobody answered after expiresTicketNPS minutes; afterwards a message opens a new
 * ticket as usual.
 */
import type { Database } from 'bun:sqlite'
import type { Deps } from '../../context'
import { stmt } from '../../db/statements'
import { saveSession } from './context'
import { forgetFinished } from './finished'
import { INITIAL_STATE, RATING_HINT } from './machine'

export type RatingPlan = { text: string; minutes: number }

/** The rating question a close sends, or null when NPS is off for this company, connection or ticket. */
export function ratingPlan(
  sqlite: Database,
  ticket: { companyId: number; whatsappId: number | null; isGroup: boolean },
): RatingPlan | null {
  if (ticket.isGroup || ticket.whatsappId == null) return null
  const setting = stmt<{ value: string }, [number]>(
    sqlite,
    "SELECT value FROM settings WHERE company_id = ? AND key = 'userRating'",
  ).get(ticket.companyId)
  if (setting?.value !== 'enabled') return null
  const row = stmt<{ text: string; minutes: number }, [number, number]>(
    sqlite,
    'SELECT rating_message AS text, expires_ticket_nps AS minutes FROM whatsapps WHERE id = ? AND company_id = ?',
  ).get(ticket.whatsappId, ticket.companyId)
  if (!row?.text.trim() || row.minutes <= 0) return null
  return { text: `${row.text.trim()}\n\n${RATING_HINT}`, minutes: row.minutes }
}

/**
 * Starts waiting for the rating of a ticket being closed (inside the close's transaction): the session becomes
 * 'nps', one question asked, for `userId`, until now + the plan's minutes.
 */
export function startRating(
  deps: Pick<Deps, 'sqlite'>,
  _tx: Database,
  ticket: { id: number; companyId: number; contactId: number; whatsappId: number | null },
  userId: number | null,
  plan: RatingPlan,
  now: number,
) {
  // the answer is a message stored after this question: nothing stored before (what the customer wrote while the
  // ticket was open, or a message still queued for the bot) is taken for it, live or by the boot catch-up
  const newest =
    stmt<{ id: number }, []>(deps.sqlite, 'SELECT coalesce(max(id), 0) AS id FROM messages').get()?.id ?? 0
  saveSession(
    deps.sqlite,
    ticket,
    {
      ...INITIAL_STATE,
      node: 'nps',
      attempts: 1,
      windowStart: now,
      lastPromptAt: now,
      lastMessageId: newest,
      userId,
      expiresAt: now + plan.minutes * 60_000,
    },
    now,
  )
  forgetFinished(deps, ticket.id)
}
