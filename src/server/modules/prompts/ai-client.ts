/**
 * An OpenAI-compatible client: `POST {baseUrl}/chat/completions` and `POST {baseUrl}/audio/transcriptions`
 * with `Authorization: Bearer <apiKey>`, so the hosted API and a local server (Ollama, LM Studio, vLLM…) both
 * work. Each call stops at its own timeout (on `deps.clock`) or when the caller's signal fires, whichever comes
 * first. Requests go through the guarded fetch (net/guarded-fetch.ts): the base URL is a tenant's. A refusal, a
 * timeout or an answer of the wrong shape throws `AiRequestError` with a short, generic reason (never the key,
 * never what the endpoint wrote: that is in `detail`, for the log).
 */
import { DEFAULT_AI_BASE_URL, DEFAULT_AI_MODEL, DEFAULT_TRANSCRIBE_MODEL } from '../../../shared/prompts'
import type { Deps } from '../../context'
import { answerError, type GuardedAnswer, guardedFetch, OutboundError } from '../../net/guarded-fetch'

/** How long one request to the AI endpoint may take. */
export const AI_TIMEOUT_MS = 30_000

export class AiRequestError extends Error {
  constructor(
    message: string,
    /** What happened, the endpoint's answer included: for the log, never the client. */
    readonly detail: string = message,
    /** The base URL's address may not be reached (a configuration error). */
    readonly refused = false,
  ) {
    super(message)
    this.name = 'AiRequestError'
  }
}

export type AiEndpoint = { baseUrl: string; apiKey: string; model: string }

/** The endpoint a prompt uses: its own base URL and model, else BALCAO_AI_BASE_URL / BALCAO_AI_MODEL, else OpenAI's. */
export function endpointOf(
  env: Deps['env'],
  prompt: { baseUrl: string; model: string; apiKey: string },
): AiEndpoint {
  const baseUrl = (prompt.baseUrl.trim() || env.BALCAO_AI_BASE_URL?.trim() || DEFAULT_AI_BASE_URL).replace(
    /\/+$/,
    '',
  )
  const model = prompt.model.trim() || env.BALCAO_AI_MODEL?.trim() || DEFAULT_AI_MODEL
  return { baseUrl, apiKey: prompt.apiKey, model }
}

export const transcribeModelOf = (env: Deps['env']) =>
  env.BALCAO_AI_TRANSCRIBE_MODEL?.trim() || DEFAULT_TRANSCRIBE_MODEL

export type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string }

export type CallOptions = { signal?: AbortSignal; timeoutMs?: number }

/** Runs `fn` with a signal that fires at the timeout or with the caller's; the error says which. */
async function withTimeout<T>(
  deps: Pick<Deps, 'clock' | 'env' | 'log'>,
  options: CallOptions,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const ms = options.timeoutMs ?? AI_TIMEOUT_MS
  const own = new AbortController()
  const timer = deps.clock.setTimeout(
    () => own.abort(new AiRequestError(`no answer within ${Math.round(ms / 100) / 10} s`)),
    ms,
  )
  const signal = options.signal ? AbortSignal.any([options.signal, own.signal]) : own.signal
  const reasonOf = () =>
    signal.reason instanceof AiRequestError ? signal.reason : new AiRequestError('the request was cancelled')
  // fetch does not always settle at once on abort (a body being read): race it against the signal.
  let onAbort: (() => void) | undefined
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(reasonOf())
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort, { once: true })
  })
  aborted.catch(() => {})
  try {
    return await Promise.race([fn(signal), aborted])
  } catch (err) {
    if (err instanceof AiRequestError) throw err
    if (signal.aborted) throw reasonOf()
    if (err instanceof OutboundError)
      throw new AiRequestError(`the AI endpoint: ${err.message}`, err.detail, err.refused)
    throw new AiRequestError('the AI endpoint is unreachable', (err as Error)?.message ?? String(err))
  } finally {
    deps.clock.clearTimeout(timer)
    if (onAbort) signal.removeEventListener('abort', onAbort)
  }
}

function headersOf(apiKey: string): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {}
}

/** A refusal (not 2xx): its status class for the client; the status and the body (the key taken out) for the log. */
function refusal(res: GuardedAnswer, apiKey: string): AiRequestError {
  const error = answerError('the AI endpoint', res)
  const detail = apiKey ? error.detail.split(apiKey).join('…') : error.detail
  return new AiRequestError(error.message, detail)
}

function jsonOf(res: GuardedAnswer): unknown {
  try {
    return JSON.parse(res.text())
  } catch {
    throw new AiRequestError('the AI endpoint did not answer JSON')
  }
}

/** `POST {baseUrl}/chat/completions`: the first choice's text, trimmed ('' when the model said nothing). */
export async function chatCompletion(
  deps: Pick<Deps, 'clock' | 'env' | 'log'>,
  endpoint: AiEndpoint,
  request: { messages: ChatMessage[]; maxTokens: number; temperature: number },
  options: CallOptions = {},
): Promise<string> {
  return withTimeout(deps, options, async (signal) => {
    const res = await guardedFetch(deps, `${endpoint.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headersOf(endpoint.apiKey) },
      body: JSON.stringify({
        model: endpoint.model,
        messages: request.messages,
        max_tokens: request.maxTokens,
        temperature: request.temperature,
      }),
      signal,
    })
    if (!res.ok) throw refusal(res, endpoint.apiKey)
    const body = jsonOf(res) as { choices?: { message?: { content?: unknown } }[] } | null
    const content = body?.choices?.[0]?.message?.content
    if (typeof content !== 'string') throw new AiRequestError('the AI endpoint answered without a message')
    return content.trim()
  })
}

/** `POST {baseUrl}/audio/transcriptions` (multipart `file` and `model`): the text, trimmed. */
export async function transcribeAudio(
  deps: Pick<Deps, 'clock' | 'env' | 'log'>,
  endpoint: AiEndpoint,
  audio: { bytes: Uint8Array; name: string; mime: string },
  options: CallOptions = {},
): Promise<string> {
  return withTimeout(deps, options, async (signal) => {
    const form = new FormData()
    form.append('file', new File([new Uint8Array(audio.bytes)], audio.name, { type: audio.mime }))
    form.append('model', endpoint.model)
    const res = await guardedFetch(deps, `${endpoint.baseUrl}/audio/transcriptions`, {
      method: 'POST',
      headers: headersOf(endpoint.apiKey),
      body: form,
      signal,
    })
    if (!res.ok) throw refusal(res, endpoint.apiKey)
    const body = jsonOf(res) as { text?: unknown } | null
    const text = body?.text
    if (typeof text !== 'string') throw new AiRequestError('the AI endpoint answered without a text')
    return text.trim()
  })
}
