/**
 * Dialogflow (ES) through a service account: an OAuth access token from the account's token URI (a JWT bearer
 * grant signed RS256 with its private key; cached until shortly before it expires), then `detectIntent` under
 * `BALCAO_DIALOGFLOW_BASE_URL` (default Google's endpoint), one Dialogflow session per ticket, in the
 * integration's language. The fulfillment texts become the replies; an intent that ends the interaction (or a
 * live agent handoff message) hands the ticket to an attendant. The token URI is the tenant's (it comes with the
 * service account): both requests go through the guarded fetch, and what Google (or anyone) answers in a refusal
 * reaches the log, never the client.
 */
import { createHash, createSign } from 'node:crypto'
import type { Deps } from '../../context'
import { answerError, type GuardedAnswer, guardedFetch, OutboundError } from '../../net/guarded-fetch'
import type { BotAnswer, ExternalBot } from '../bots/types'
import { integrationConfig } from './config'
import type { ServiceAccount } from './service-account'

export const DIALOGFLOW_BASE_URL = 'https://dialogflow.googleapis.com'
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform'

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url')

/** The signed JWT of the bearer grant. Throws on a key that cannot sign. */
export function signedAssertion(account: ServiceAccount, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000)
  const header = b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }))
  const claims = b64url(
    JSON.stringify({ iss: account.clientEmail, scope: SCOPE, aud: account.tokenUri, iat, exp: iat + 3600 }),
  )
  const signer = createSign('RSA-SHA256')
  signer.update(`${header}.${claims}`)
  let signature: Buffer
  try {
    signature = signer.sign(account.privateKey)
  } catch {
    throw new Error('the private key cannot sign (is it the PEM of the service account?)')
  }
  return `${header}.${claims}.${b64url(signature)}`
}

type CachedToken = { token: string; expiresAt: number }
const tokens = new WeakMap<object, Map<string, CachedToken>>()

function readJson(res: GuardedAnswer, what: string): unknown {
  const text = res.text()
  try {
    return text ? JSON.parse(text) : null
  } catch {
    throw new OutboundError(`${what}: the answer is not JSON`)
  }
}

/** An access token for the account: the cached one while it lasts, else a new grant. */
export async function accessToken(
  deps: Pick<Deps, 'clock' | 'sqlite' | 'env' | 'log'>,
  account: ServiceAccount,
  signal: AbortSignal,
): Promise<string> {
  let cache = tokens.get(deps.sqlite)
  if (!cache) {
    cache = new Map()
    tokens.set(deps.sqlite, cache)
  }
  const key = `${account.tokenUri}|${account.clientEmail}|${createHash('sha256').update(account.privateKey).digest('hex')}`
  const now = deps.clock.now()
  const cached = cache.get(key)
  if (cached && cached.expiresAt > now) return cached.token
  const res = await guardedFetch(deps, account.tokenUri, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: signedAssertion(account, now),
    }),
    signal,
  })
  if (!res.ok) throw answerError('the token URI', res)
  const body = readJson(res, 'the token URI') as { access_token?: unknown; expires_in?: unknown } | null
  if (typeof body?.access_token !== 'string') throw new Error('token: no access_token in the answer')
  const seconds = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600
  // a minute's margin, so a token is never used as it expires
  cache.set(key, { token: body.access_token, expiresAt: now + Math.max(0, seconds - 60) * 1000 })
  return body.access_token
}

export type DetectResult = { replies: string[]; intent: string | null; handoff: boolean }

type QueryResult = {
  fulfillmentText?: unknown
  fulfillmentMessages?: unknown
  intent?: { displayName?: unknown; endInteraction?: unknown } | null
  diagnosticInfo?: Record<string, unknown> | null
}

/** The replies and the handoff of a detectIntent answer's queryResult. */
export function readQueryResult(result: QueryResult | null | undefined): DetectResult {
  const replies: string[] = []
  let handoff = false
  const messages = Array.isArray(result?.fulfillmentMessages) ? result.fulfillmentMessages : []
  for (const m of messages as Record<string, unknown>[]) {
    if (!m || typeof m !== 'object') continue
    const text = (m.text as { text?: unknown } | undefined)?.text
    if (Array.isArray(text)) {
      const joined = text
        .filter((t) => typeof t === 'string')
        .join('\n')
        .trim()
      if (joined) replies.push(joined)
    }
    if (m.liveAgentHandoff) handoff = true
  }
  if (!replies.length && typeof result?.fulfillmentText === 'string' && result.fulfillmentText.trim())
    replies.push(result.fulfillmentText.trim())
  if (result?.intent?.endInteraction === true) handoff = true
  if (result?.diagnosticInfo?.end_conversation === true) handoff = true
  const intent = typeof result?.intent?.displayName === 'string' ? result.intent.displayName : null
  return { replies, intent, handoff }
}

export function dialogflowBaseUrl(deps: Pick<Deps, 'env'>): string {
  return (deps.env.BALCAO_DIALOGFLOW_BASE_URL?.trim() || DIALOGFLOW_BASE_URL).replace(/\/+$/, '')
}

/** One detectIntent. Throws with the reason on a refusal, a bad answer or an abort. */
export async function detectIntent(
  deps: Pick<Deps, 'clock' | 'sqlite' | 'env' | 'log'>,
  input: {
    account: ServiceAccount
    projectId: string
    sessionId: string
    text: string
    language: string
    signal: AbortSignal
  },
): Promise<DetectResult> {
  const token = await accessToken(deps, input.account, input.signal)
  const url = `${dialogflowBaseUrl(deps)}/v2/projects/${encodeURIComponent(input.projectId)}/agent/sessions/${encodeURIComponent(input.sessionId)}:detectIntent`
  const res = await guardedFetch(deps, url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ queryInput: { text: { text: input.text, languageCode: input.language } } }),
    signal: input.signal,
  })
  if (!res.ok) throw answerError('detectIntent', res)
  const body = readJson(res, 'detectIntent') as { queryResult?: QueryResult } | null
  if (!body || typeof body !== 'object') throw new Error('detectIntent: empty answer')
  return readQueryResult(body.queryResult)
}

export const dialogflowBot: ExternalBot = {
  kind: 'dialogflow',
  async answer(deps, turn, signal): Promise<BotAnswer> {
    const config = integrationConfig(deps, turn.companyId, turn.botId)
    if (!config?.account) throw new Error('dialogflow: no usable service account')
    const text = turn.text.trim()
    if (!text) return { replies: [] }
    const result = await detectIntent(deps, {
      account: config.account,
      projectId: config.projectName || config.account.projectId,
      sessionId: `balcao-ticket-${turn.ticketId}`,
      text,
      language: config.language,
      signal,
    })
    return {
      replies: result.replies.map((body) => ({ body })),
      ...(result.handoff ? { action: 'handoff' as const } : {}),
    }
  },
}
