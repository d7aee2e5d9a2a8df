/**
 * Other areas' part in a change a person makes to a ticket (PUT /tickets/:id), without tickets importing them:
 * the chatbot lets go of the ticket and, on a close with NPS on, asks for the rating instead of the farewell
 * (chatbot/transitions.ts). The listeners are handed to the tickets routes where the app is put together
 * (app.ts), as the inbound path hands stored messages to its `onStored` listeners.
 */

import type { Database } from 'bun:sqlite'
import type { Ctx } from '../../context'
import type { TicketRow } from '../../db/schema'
import type { TicketEventType } from '../../db/schema/tickets'

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
