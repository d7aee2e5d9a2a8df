/**
 * The prompt bot (kind 'prompt'): answers a customer of a queue or connection that names an AI prompt, through
 * the prompt's OpenAI-compatible chat-completions endpoint (ai-client.ts). The dispatcher (bots/dispatch.ts)
 * hands it each customer message of a ticket waiting without an attendant and sends what it answers.
 *
 * The model reads the prompt as its system message, then the ticket's last `maxMessages` messages in order
 * (the customer's as `user`, ours as `assistant`; private notes, deleted messages and media without text left
 * out; a transcribed voice note counts as its text). When the customer asks for a person (HANDOFF_WORDS in
 * shared/prompts.ts, whole words, any case or accents) it says HANDOFF_REPLY and hands the ticket to the
 * attendants without asking the model. A failure, a refusal, a bad answer or no answer within 30 s is a
 * `fallback`: the customer sees nothing of it and the ticket waits for a person.
 */
import { asksForPerson, HANDOFF_REPLY } from '../../../shared/prompts'
import type { Deps } from '../../context'
import { stmt } from '../../db/statements'
import type { BotAnswer, BotTurn, ExternalBot } from '../bots/types'
import { AI_TIMEOUT_MS, AiRequestError, type ChatMessage, chatCompletion, endpointOf } from './ai-client'
import { promptConfig } from './service'

type HistoryRow = { fromMe: number; body: string; transcription: string | null }

/**
 * The ticket's last `limit` messages up to `uptoId` that carry text, oldest first, as chat messages. In the order
 * they were written here (id): WhatsApp stamps a customer's message in whole seconds, so a reply written in the
 * same second could otherwise sort after the message that followed it.
 */
export function historyOf(
  deps: Pick<Deps, 'sqlite'>,
  ticketId: number,
  uptoId: number,
  limit: number,
): ChatMessage[] {
  const rows = stmt<HistoryRow, [number, number, number]>(
    deps.sqlite,
    `SELECT from_me AS fromMe, body, transcription FROM messages
      WHERE ticket_id = ? AND id <= ? AND is_private = 0 AND is_deleted = 0
        AND (trim(body) <> '' OR trim(coalesce(transcription, '')) <> '')
      ORDER BY id DESC LIMIT ?`,
  ).all(ticketId, uptoId, limit)
  return rows.reverse().map((r) => ({
    role: r.fromMe ? 'assistant' : 'user',
    content: r.body.trim() || (r.transcription ?? '').trim(),
  }))
}

export type PromptBotOptions = {
  /** How long the endpoint may take (tests shorten it); the dispatcher's signal may stop it sooner. */
  timeoutMs?: number
}

/** A prompt bot; `promptBot` is the one the dispatcher uses. */
export function makePromptBot(options: PromptBotOptions = {}): ExternalBot {
  return {
    kind: 'prompt',
    async answer(deps: Deps, turn: BotTurn, signal: AbortSignal): Promise<BotAnswer> {
      const prompt = promptConfig(deps, turn.companyId, turn.botId)
      if (!prompt) {
        deps.log.warn('prompt bot: the prompt is gone', { ticketId: turn.ticketId, promptId: turn.botId })
        return { replies: [], fallback: true }
      }
      if (asksForPerson(turn.text)) return { replies: [{ body: HANDOFF_REPLY }], action: 'handoff' }
      const messages: ChatMessage[] = [
        { role: 'system', content: prompt.prompt },
        ...historyOf(deps, turn.ticketId, turn.messageId, prompt.maxMessages),
      ]
      try {
        const reply = await chatCompletion(
          deps,
          endpointOf(deps.env, prompt),
          { messages, maxTokens: prompt.maxTokens, temperature: prompt.temperature },
          { signal, timeoutMs: options.timeoutMs ?? AI_TIMEOUT_MS },
        )
        if (!reply) {
          deps.log.warn('prompt bot: the model answered nothing', {
            ticketId: turn.ticketId,
            promptId: prompt.id,
          })
          return { replies: [], fallback: true }
        }
        return { replies: [{ body: reply }] }
      } catch (err) {
        deps.log.warn('prompt bot: no answer from the AI endpoint', {
          ticketId: turn.ticketId,
          promptId: prompt.id,
          error: err instanceof AiRequestError ? err.detail : ((err as Error)?.message ?? String(err)),
        })
        return { replies: [], fallback: true }
      }
    },
  }
}

export const promptBot: ExternalBot = makePromptBot()
