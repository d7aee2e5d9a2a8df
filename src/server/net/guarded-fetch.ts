/**
 * The one door for outbound HTTP requests whose address a tenant controls (an AI prompt's base URL, webhook, n8n
 * and Typebot URLs, a Dialogflow service account's token URI and detectIntent) and for URLs handed to us from
 * outside (profile pictures). Without it a company admin could make the server call its own loopback, the
 * provider's private network or the cloud metadata address, and read what answers.
 *
 * - Only http and https.
 * - The host is resolved here and every address it resolves to must be public (addresses.ts); the operator may
 *   open loopback, private and unique-local addresses with BALCAO_ALLOW_PRIVATE_URLS=1 (a model server on the same
 *   host). The request then goes to the checked address itself, with the Host header and, for https, the TLS
 *   server name (SNI and certificate check) of the URL's host: a name that resolves differently a moment later
 *   (DNS rebinding) cannot move it.
 * - Redirects are never followed: a 3xx fails (the tenant's key never reaches another host).
 * - The answer is read here, at most `maxBytes`; the caller gets bytes, never a stream.
 * - Failures are `OutboundError`s whose message is short and generic (fit for the client: a refused address,
 *   unreachable, timed out, an answer's status class); what really happened, the remote body included, is in
 *   `detail`, for the log only.
 */
import { lookup } from 'node:dns/promises'
import type { Deps } from '../context'
import { type AddressKind, classifyAddress, ipBytes, isAllowedKind } from './addresses'

/** The most an answer may hold unless the caller says otherwise (replies are kilobytes; Dialogflow's tens). */
export const MAX_ANSWER_BYTES = 1024 * 1024

export class OutboundError extends Error {
  constructor(
    /** Short and generic: may be shown to the tenant. */
    message: string,
    /** What happened, for the server's log only (may hold the remote answer). */
    readonly detail: string = message,
    /** The URL's address is not one the server may reach (a tenant's configuration error, a 4xx). */
    readonly refused = false,
  ) {
    super(message)
    this.name = 'OutboundError'
  }
}

export type GuardedInit = {
  method?: string
  headers?: Record<string, string>
  body?: string | URLSearchParams | FormData
  signal?: AbortSignal
  maxBytes?: number
}

export type GuardedAnswer = {
  status: number
  ok: boolean
  headers: Headers
  bytes: Uint8Array
  /** The body as UTF-8. */
  text(): string
}

/** `BALCAO_ALLOW_PRIVATE_URLS`: loopback and private addresses may be reached (self-hosted endpoints). */
export function privateUrlsAllowed(env: Deps['env']): boolean {
  const value = env.BALCAO_ALLOW_PRIVATE_URLS?.trim().toLowerCase()
  return value === '1' || value === 'true' || value === 'yes'
}

/** '4xx' for 404: what the tenant is told of an answer's status. */
export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`

/** A failure for an answer that is not 2xx: `what` answered its class; the status and the body go to the log. */
export function answerError(what: string, answer: GuardedAnswer): OutboundError {
  const body = answer.text().replace(/\s+/g, ' ').trim().slice(0, 300)
  return new OutboundError(
    `${what} answered ${statusClass(answer.status)}`,
    `${what} answered ${answer.status}${body ? `: ${body}` : ''}`,
  )
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new OutboundError('timed out')
}

/** `promise`, or the signal's reason as soon as it fires (a DNS lookup cannot be cancelled). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise
  if (signal.aborted) return Promise.reject(abortReason(signal))
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal))
    signal.addEventListener('abort', onAbort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}

type Resolved = { address: string; kind: AddressKind }

async function resolve(hostname: string, signal: AbortSignal | undefined): Promise<Resolved[]> {
  const literal = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
  if (ipBytes(literal)) return [{ address: literal, kind: classifyAddress(literal) }]
  let found: { address: string; family: number }[]
  try {
    found = await untilAborted(lookup(hostname, { all: true }), signal)
  } catch (err) {
    if (signal?.aborted) throw abortReason(signal)
    throw new OutboundError(
      'the host name does not resolve',
      `${hostname}: ${(err as Error)?.message ?? err}`,
    )
  }
  if (!found.length) throw new OutboundError('the host name does not resolve', `${hostname}: no address`)
  // IPv4 first: many servers have no IPv6 route out
  return found
    .sort((a, b) => a.family - b.family)
    .map(({ address }) => ({ address, kind: classifyAddress(address) }))
}

const CONNECT_FAILURES = new Set([
  'ECONNREFUSED',
  'ConnectionRefused',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
])

async function readBounded(res: Response, limit: number, what: string): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length'))
  const tooLarge = () =>
    new OutboundError(
      `the answer is larger than ${Math.round(limit / 1024)} KiB`,
      `${what}: the answer passed ${limit} bytes`,
    )
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => {})
    throw tooLarge()
  }
  if (!res.body) return new Uint8Array()
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw tooLarge()
    }
    chunks.push(value)
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return all
}

/** A URL's user or password as typed (the URL keeps them percent-encoded); a bad escape stays as it is. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part)
  } catch {
    return part
  }
}

/**
 * One request to a URL a tenant (or WhatsApp) gave, under the rules of this file's comment. Resolves with the
 * answer whatever its status (the caller judges it; `answerError` words a refusal); rejects with an
 * `OutboundError`, or with the signal's reason once it fires.
 */
export async function guardedFetch(
  deps: Pick<Deps, 'env' | 'log'>,
  url: string,
  init: GuardedInit = {},
): Promise<GuardedAnswer> {
  let target: URL
  try {
    target = new URL(url)
  } catch {
    throw new OutboundError('the URL is not valid', `not a URL: ${url.slice(0, 200)}`, true)
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new OutboundError('the URL is not http or https', `protocol ${target.protocol}`, true)
  const what = target.host
  const addresses = await resolve(target.hostname, init.signal)
  const allowPrivate = privateUrlsAllowed(deps.env)
  const refused = addresses.find((a) => !isAllowedKind(a.kind, allowPrivate))
  if (refused) {
    const detail = `${target.hostname} resolves to ${refused.address} (${refused.kind})`
    deps.log.warn('outbound request refused: the address is not public', {
      host: target.hostname,
      address: refused.address,
      kind: refused.kind,
    })
    throw new OutboundError('refused address: the URL points to a private or reserved network', detail, true)
  }
  const headers: Record<string, string> = { ...init.headers, host: target.host }
  if (
    (target.username || target.password) &&
    !Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')
  )
    headers.authorization = `Basic ${Buffer.from(`${decoded(target.username)}:${decoded(target.password)}`).toString('base64')}`
  const literal = ipBytes(target.hostname.replace(/^\[|\]$/g, '')) != null
  let res: Response | undefined
  let lastError: unknown
  for (const { address } of addresses) {
    const pinned = new URL(target.href)
    pinned.username = ''
    pinned.password = ''
    pinned.hostname = address.includes(':') ? `[${address}]` : address
    try {
      res = await fetch(pinned.href, {
        method: init.method ?? 'GET',
        headers,
        body: init.body,
        signal: init.signal,
        redirect: 'manual',
        // pooled connections are keyed by the IP: one opened for another name's TLS session must not serve this one
        keepalive: false,
        ...(target.protocol === 'https:' && !literal ? { tls: { serverName: target.hostname } } : {}),
      } as RequestInit)
      break
    } catch (err) {
      if (init.signal?.aborted) throw abortReason(init.signal)
      lastError = err
      if (!CONNECT_FAILURES.has((err as { code?: string })?.code ?? '')) break
    }
  }
  if (!res) {
    const e = lastError as { code?: string; name?: string; message?: string } | undefined
    if (e?.name === 'TimeoutError') throw new OutboundError('timed out', `${what}: ${e.message}`)
    throw new OutboundError(
      'unreachable',
      `${what}: ${e?.code ?? ''} ${e?.message ?? String(lastError)}`.trim(),
    )
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel().catch(() => {})
    throw new OutboundError(
      `redirected (${statusClass(res.status)}); redirects are not followed`,
      `${what} answered ${res.status} to ${res.headers.get('location') ?? '(no location)'}`,
    )
  }
  let bytes: Uint8Array
  try {
    bytes = await readBounded(res, init.maxBytes ?? MAX_ANSWER_BYTES, what)
  } catch (err) {
    if (init.signal?.aborted) throw abortReason(init.signal)
    if (err instanceof OutboundError) throw err
    throw new OutboundError('unreachable', `${what}: the answer broke off: ${(err as Error)?.message ?? err}`)
  }
  const status = res.status
  return {
    status,
    ok: status >= 200 && status < 300,
    headers: res.headers,
    bytes,
    text: () => new TextDecoder().decode(bytes),
  }
}
