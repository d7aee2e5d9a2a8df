/**
 * The chatbot's part in a change a person makes to a ticket (tickets/transitions.ts): the bot lets go of the
 * ticket, and a close with NPS on sends the rating question instead of the farewell and waits for the answer
 * (ratings.ts).
 */
import type { TicketTransitionListener } from '../tickets/transitions'
import { endSession } from './context'
import { ratingPlan, startRating } from './ratings'

export const chatbotTicketTransition: TicketTransitionListener = (ctx, { ticket, type, userId }) => {
  const rating = type === 'closed' ? ratingPlan(ctx.sqlite, ticket) : null
  return {
    notice: rating?.text ?? null,
    apply(tx, now) {
      endSession(ctx.sqlite, ticket.id, now)
      if (rating) startRating(ctx, tx, ticket, ticket.userId ?? userId, rating, now)
    },
  }
}
