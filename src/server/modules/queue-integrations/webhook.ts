/**
 * Webhook and n8n: each customer message is `POST`ed to the integration's URL as JSON
 * `{ event: "message", company, connection, ticket, contact, message }`. The answer may carry
 * `{ replies: [{ body }], action?: "close" | "transfer", queueId? }`: the replies are sent in order, then the
 * action applies. An empty answer (or one without replies) says nothing. A refusal (not 2xx), an answer that is
 * not JSON or not that shape throws: the dispatcher falls back to the queue and the customer sees nothing.
 */
import type { Deps } from '../../context'
import { stmt } from '../../db/statements'
import { answerError, guardedFetch } from '../../net/guarded-fetch'
import type { BotAnswer, BotTurn, ExternalBot } from '../bots/types'
import { integrationConfig } from './config'

export type WebhookPayload = {
  event: 'message'
  company: { id: number; name: string }
  connection: { id: number; name: string }
  ticket: { id: number; status: string; queueId: number | null; createdAt: string }
  contact: { id: number; name: string; number: string | null }
  message: { id: number; body: string; fromMe: false; mediaType: string | null; createdAt: string }
}

const MAX_REPLIES = 20
const MAX_REPLY_LENGTH = 4096

export function webhookPayload(deps: Pick<Deps, 'sqlite'>, turn: BotTurn): WebhookPayload {
  const { sqlite } = deps
  const company = stmt<{ id: number; name: string }, [number]>(
    sqlite,
    'SELECT id, name FROM companies WHERE id = ?',
  ).get(turn.companyId)
  const connection = stmt<{ id: number; name: string }, [number]>(
    sqlite,
    'SELECT id, name FROM whatsapps WHERE id = ?',
  ).get(turn.whatsappId)
  const ticket = stmt<{ id: number; status: string; queueId: number | null; createdAt: number }, [number]>(
    sqlite,
    'SELECT id, status, queue_id AS queueId, created_at AS createdAt FROM tickets WHERE id = ?',
  ).get(turn.ticketId)
  const contact = stmt<{ id: number; name: string; number: string | null }, [number]>(
    sqlite,
    'SELECT id, name, number FROM contacts WHERE id = ?',
  ).get(turn.contactId)
  const message = stmt<{ id: number; mediaType: string | null; createdAt: number }, [number]>(
    sqlite,
    'SELECT id, media_type AS mediaType, created_at AS createdAt FROM messages WHERE id = ?',
  ).get(turn.messageId)
  return {
    event: 'message',
    company: { id: turn.companyId, name: company?.name ?? '' },
    connection: { id: turn.whatsappId, name: connection?.name ?? '' },
    ticket: {
      id: turn.ticketId,
      status: ticket?.status ?? 'pending',
      queueId: ticket?.queueId ?? turn.queueId,
      createdAt: new Date(ticket?.createdAt ?? 0).toISOString(),
    },
    contact: { id: turn.contactId, name: contact?.name ?? '', number: contact?.number ?? null },
    message: {
      id: turn.messageId,
      body: turn.text,
      fromMe: false,
      mediaType: message?.mediaType ?? null,
      createdAt: new Date(message?.createdAt ?? 0).toISOString(),
    },
  }
}

/** The answer of a webhook, read strictly: anything unexpected throws (the dispatcher's fallback). */
export function readWebhookAnswer(text: string): BotAnswer {
  if (!text.trim()) return { replies: [] }
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    throw new Error('the answer is not JSON')
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error('the answer is not an object')
  const b = body as Record<string, unknown>
  const replies: BotAnswer['replies'] = []
  if (b.replies !== undefined && b.replies !== null) {
    if (!Array.isArray(b.replies)) throw new Error('replies is not a list')
    for (const r of b.replies.slice(0, MAX_REPLIES)) {
      const text = typeof r === 'string' ? r : (r as { body?: unknown } | null)?.body
      if (typeof text !== 'string') throw new Error('a reply has no body text')
      if (text.trim()) replies.push({ body: text.slice(0, MAX_REPLY_LENGTH) })
    }
  }
  const action = b.action
  if (action === 'close') return { replies, action: 'close' }
  if (action === 'transfer') {
    const queueId = b.queueId
    if (typeof queueId !== 'number' || !Number.isSafeInteger(queueId) || queueId < 1)
      throw new Error('transfer without a queueId')
    return { replies, action: 'transfer', queueId }
  }
  if (action !== undefined && action !== null && action !== '')
    throw new Error(`unknown action ${String(action)}`)
  return { replies }
}

async function post(deps: Deps, turn: BotTurn, signal: AbortSignal): Promise<BotAnswer> {
  const config = integrationConfig(deps, turn.companyId, turn.botId)
  if (!config?.urlN8N) throw new Error('the integration has no URL')
  // the URL is the tenant's: the guarded fetch refuses private addresses and redirects
  const res = await guardedFetch(deps, config.urlN8N, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'Balcao' },
    body: JSON.stringify(webhookPayload(deps, turn)),
    signal,
  })
  if (!res.ok) throw answerError('the webhook', res)
  return readWebhookAnswer(res.text())
}

export const webhookBot: ExternalBot = { kind: 'webhook', answer: post }
export const n8nBot: ExternalBot = { kind: 'n8n', answer: post }
