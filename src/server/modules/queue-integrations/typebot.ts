/**
 * Typebot through its public chat API under the integration's URL:
 * - the first message (or the first after `typebotExpires` minutes of silence, or after a restart) starts a chat:
 *   `POST {url}/api/v1/typebots/{slug}/startChat` with `{ message }`; its `sessionId` is kept in `bot_sessions`;
 * - the next ones continue it: `POST {url}/api/v1/sessions/{sessionId}/continueChat` with `{ message }` (a session
 *   Typebot no longer knows, a 404, starts a new chat);
 * - the text bubbles of `messages[]` are the replies (rich text: the text of each block, one line per block),
 *   `typebotDelayMessage` ms apart; an answer without any is `typebotUnknownMessage` (if set);
 * - the customer typing `typebotKeywordFinish` ends the bot (an attendant takes over); `typebotKeywordRestart`
 *   starts over, after `typebotRestartMessage`.
 */
import type { Deps } from '../../context'
import { answerError, guardedFetch } from '../../net/guarded-fetch'
import { loadBotSession, setExternalSession } from '../bots/sessions'
import type { BotAnswer, ExternalBot } from '../bots/types'
import { type IntegrationConfig, integrationConfig } from './config'

type ChatAnswer = { sessionId?: unknown; messages?: unknown }

/** The plain text of a Slate-like rich text node (its `text`, or its children's). */
function textOf(node: unknown): string {
  if (!node || typeof node !== 'object') return ''
  const n = node as { text?: unknown; children?: unknown }
  if (typeof n.text === 'string') return n.text
  return Array.isArray(n.children) ? n.children.map(textOf).join('') : ''
}

/** The texts of an answer's text bubbles, in order. */
export function typebotTexts(messages: unknown): string[] {
  if (!Array.isArray(messages)) return []
  const out: string[] = []
  for (const m of messages) {
    if (!m || typeof m !== 'object' || (m as { type?: unknown }).type !== 'text') continue
    const content = (m as { content?: Record<string, unknown> }).content
    let text = ''
    if (Array.isArray(content?.richText)) text = content.richText.map(textOf).join('\n')
    else if (typeof content?.markdown === 'string') text = content.markdown
    else if (typeof content?.plainText === 'string') text = content.plainText
    text = text.trim()
    if (text) out.push(text)
  }
  return out
}

class NotFound extends Error {}

async function call(deps: Deps, url: string, body: unknown, signal: AbortSignal): Promise<ChatAnswer> {
  // the URL is the tenant's: the guarded fetch refuses private addresses and redirects
  const res = await guardedFetch(deps, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal,
  })
  if (res.status === 404) throw new NotFound(`typebot answered 404 at ${new URL(url).pathname}`)
  if (!res.ok) throw answerError('typebot', res)
  const text = res.text()
  try {
    const parsed = text ? JSON.parse(text) : {}
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object')
    return parsed as ChatAnswer
  } catch {
    throw new Error('typebot: the answer is not JSON')
  }
}

const base = (config: IntegrationConfig) => config.urlN8N.replace(/\/+$/, '')

async function startChat(deps: Deps, config: IntegrationConfig, message: string, signal: AbortSignal) {
  const answer = await call(
    deps,
    `${base(config)}/api/v1/typebots/${encodeURIComponent(config.typebotSlug)}/startChat`,
    message ? { message } : {},
    signal,
  )
  if (typeof answer.sessionId !== 'string' || !answer.sessionId) throw new Error('typebot: no sessionId')
  return { sessionId: answer.sessionId, texts: typebotTexts(answer.messages) }
}

async function continueChat(
  deps: Deps,
  config: IntegrationConfig,
  sessionId: string,
  message: string,
  signal: AbortSignal,
) {
  const answer = await call(
    deps,
    `${base(config)}/api/v1/sessions/${encodeURIComponent(sessionId)}/continueChat`,
    { message },
    signal,
  )
  return typebotTexts(answer.messages)
}

const same = (a: string, b: string) => !!b && a.trim().toLowerCase() === b.trim().toLowerCase()

export const typebotBot: ExternalBot = {
  kind: 'typebot',
  async answer(deps: Deps, turn, signal): Promise<BotAnswer> {
    const config = integrationConfig(deps, turn.companyId, turn.botId)
    if (!config?.urlN8N || !config.typebotSlug) throw new Error('typebot: no URL or slug')
    const now = deps.clock.now()
    const session = loadBotSession(deps.sqlite, turn.ticketId)
    const text = turn.text.trim()
    if (same(text, config.typebotKeywordFinish)) {
      setExternalSession(deps.sqlite, turn.ticketId, null, now)
      return { replies: [], action: 'handoff' }
    }
    const replies: string[] = []
    let sessionId = session?.externalId ?? null
    const expired =
      sessionId != null &&
      config.typebotExpires > 0 &&
      session != null &&
      now - session.lastActivityAt > config.typebotExpires * 60_000
    let texts: string[]
    if (same(text, config.typebotKeywordRestart)) {
      if (config.typebotRestartMessage.trim()) replies.push(config.typebotRestartMessage.trim())
      const started = await startChat(deps, config, '', signal)
      sessionId = started.sessionId
      texts = started.texts
    } else if (!sessionId || expired) {
      const started = await startChat(deps, config, text, signal)
      sessionId = started.sessionId
      texts = started.texts
    } else {
      try {
        texts = await continueChat(deps, config, sessionId, text, signal)
      } catch (err) {
        if (!(err instanceof NotFound)) throw err
        // Typebot forgot the session (it ended or expired there): start over with this message
        const started = await startChat(deps, config, text, signal)
        sessionId = started.sessionId
        texts = started.texts
      }
    }
    setExternalSession(deps.sqlite, turn.ticketId, sessionId, deps.clock.now())
    replies.push(...texts)
    if (!texts.length && config.typebotUnknownMessage.trim())
      replies.push(config.typebotUnknownMessage.trim())
    return {
      replies: replies.map((body, i) => ({ body, delayMs: i === 0 ? 0 : config.typebotDelayMessage })),
    }
  },
}
