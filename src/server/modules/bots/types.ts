/**
 * External bots: what answers a customer when a queue or a connection has an AI prompt (`prompts/`) or a queue
 * integration (`queue-integrations/`: webhook, n8n, Typebot, Dialogflow) instead of the chatbot's menu.
 *
 * The dispatcher (`bots/dispatch.ts`) hands each committed customer message of a pending ticket without a user
 * to the bot its queue (else its connection) names, writes the replies as outbound messages and applies the
 * action. A bot never throws at the customer: a failure or a timeout is logged and answered with
 * `{ fallback: true }`, after which the ticket waits for an attendant in its queue.
 */
import type { Deps } from '../../context'

/** One customer message handed to a bot. */
export type BotTurn = {
  companyId: number
  ticketId: number
  /** The customer's message (already committed). */
  messageId: number
  text: string
  whatsappId: number
  queueId: number | null
  contactId: number
  /** The id of the prompt or integration that answers (its row in its own area). */
  botId: number
}

export type BotAnswer = {
  /** Texts to send the customer, in order (each becomes an outbound message). */
  replies: { body: string; delayMs?: number }[]
  /**
   * What happens to the ticket afterwards: `handoff` stops the bot for this ticket (an attendant takes over,
   * the ticket stays pending in its queue), `close` closes it, `transfer` moves it to `queueId`.
   */
  action?: 'handoff' | 'close' | 'transfer'
  queueId?: number
  /** The bot failed (timeout, error, bad answer): nothing reached the customer; the ticket waits for a person. */
  fallback?: boolean
}

export interface ExternalBot {
  /** The kind of bot: 'prompt', or an integration's type. */
  readonly kind: string
  answer(deps: Deps, turn: BotTurn, signal: AbortSignal): Promise<BotAnswer>
}
