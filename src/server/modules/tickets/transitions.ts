/**
 * Other areas' part in a change a person makes to a ticket (PUT /tickets/:id), without tickets importing them:
 * the chatbot lets go of the ticket and, on a close with NPS on, asks for the rating instead of the farewell
 * (chatbot/transitions.ts); the change's notice to the customer (greeting, farewell, transfer) is written and
 * sent as an outbound message (messages/notices.ts). Both are handed to the tickets routes where the app is put
 * together (app.ts), as the inbound path hands stored messages to its `onStored` listeners.
 */

import type { Database } from 'bun:sqlite'
import type { Ctx, Deps } from '../../context'
import type { TicketRow } from '../../db/schema'
import type { TicketEventType } from '../../db/schema/tickets'
import type { EventBuffer } from '../../realtime/hub'

export type TicketTransition = {
  /** The ticket as it was before the change. */
  ticket: TicketRow
  type: TicketEventType
  /** The acting user. */
  userId: number
}

/** A listener's part in one change: decided before it, applied inside its transaction. */
export type TicketTransitionStep = {
  /** What the customer is told instead of the farewell (not for groups). */
  notice: string | null
  /** Runs inside the change's transaction, after the ticket row and its notice are written. */
  apply(tx: Database, now: number): void
}

export type TicketTransitionListener = (ctx: Ctx, transition: TicketTransition) => TicketTransitionStep | null

/** The ticket a notice goes on, as it is after the change. */
export type NoticeTicket = {
  id: number
  companyId: number
  contactId: number
  whatsappId: number | null
  status: string
}

/** How a change's notice reaches the customer. */
export type TicketNotices = {
  /** Writes the notice inside the change's transaction (published after commit); the new messages' ids. */
  write(ctx: Ctx, tx: Database, events: EventBuffer, ticket: NoticeTicket, body: string): number[]
  /** After commit: hands the written notices to the sender. */
  afterCommit(deps: Deps, ids: number[]): void
}
