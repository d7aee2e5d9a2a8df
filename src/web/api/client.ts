/**
 * The HTTP client. Every call goes to the same origin under /api with the bearer token from localStorage.
 * - 403 ERR_SESSION_EXPIRED: refresh the access token once (single flight) and retry the request.
 * - 401 (or a failed refresh): forget the session; the route guard then shows /login.
 */
import type { ErrorBody, FieldError } from '../../shared/errors'

export const TOKEN_KEY = 'token'
export const COMPANY_KEY = 'companyId'

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly fields: FieldError[] = [],
    readonly details: Record<string, unknown> = {},
    /** Seconds from a Retry-After header (429). */
    readonly retryAfter: number | null = null,
    /** The catalogue code when `error` carries text instead (ERR_OTHER_OPEN_TICKET's JSON: `TextErrorBody`). */
    readonly textCode: string | null = null,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY)
}

export function setToken(token: string | null): void {
  if (token) localStorage.setItem(TOKEN_KEY, token)
  else localStorage.removeItem(TOKEN_KEY)
}

type Listener = () => void
const unauthorizedListeners = new Set<Listener>()
const tokenListeners = new Set<(token: string) => void>()

/** Called when the session is gone (a 401, or a refresh that failed). */
export function onUnauthorized(listener: Listener): () => void {
  unauthorizedListeners.add(listener)
  return () => unauthorizedListeners.delete(listener)
}

/** Called with each new access token (after login or refresh). */
export function onToken(listener: (token: string) => void): () => void {
  tokenListeners.add(listener)
  return () => tokenListeners.delete(listener)
}

/** What browser storage holds for the session; everything else there (language, theme, volume) is a preference. */
export const SESSION_KEYS = [TOKEN_KEY, COMPANY_KEY] as const

/** Forgets the session, and only the session: the user's language, theme and volume stay. */
export function clearStoredSession(): void {
  for (const key of SESSION_KEYS) localStorage.removeItem(key)
}

function sessionLost() {
  clearStoredSession()
  for (const l of unauthorizedListeners) l()
}

export function storeToken(token: string, companyId?: number): void {
  setToken(token)
  if (companyId != null) localStorage.setItem(COMPANY_KEY, String(companyId))
  for (const l of tokenListeners) l(token)
}

async function toApiError(res: Response): Promise<ApiError> {
  let body: Partial<ErrorBody> & { code?: unknown } = {}
  try {
    body = (await res.json()) as Partial<ErrorBody>
  } catch {
    // not JSON: keep the status text
  }
  const retry = res.headers.get('Retry-After')
  return new ApiError(
    res.status,
    typeof body.error === 'string' ? body.error : null,
    typeof body.message === 'string' && body.message ? body.message : res.statusText,
    Array.isArray(body.fields) ? body.fields : [],
    body.details && typeof body.details === 'object' ? body.details : {},
    retry != null && retry !== '' && !Number.isNaN(Number(retry)) ? Number(retry) : null,
    typeof body.code === 'string' ? body.code : null,
  )
}

async function parse<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T
  const text = await res.text()
  return (text ? JSON.parse(text) : undefined) as T
}

export type RefreshResult<U> = { token: string; user: U }

let refreshing: Promise<RefreshResult<unknown>> | null = null

/** POST /api/auth/refresh_token with the httpOnly cookie; one request at a time. */
export function refreshToken<U>(): Promise<RefreshResult<U>> {
  if (!refreshing) {
    refreshing = (async () => {
      const res = await fetch('/api/auth/refresh_token', { method: 'POST', credentials: 'same-origin' })
      if (!res.ok) throw await toApiError(res)
      const data = (await res.json()) as RefreshResult<U> & { user: { companyId?: number } }
      storeToken(data.token, data.user?.companyId)
      return data
    })().finally(() => {
      refreshing = null
    })
  }
  return refreshing as Promise<RefreshResult<U>>
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'

export type RequestOptions = {
  /** Query string parameters; undefined values are skipped. */
  query?: Record<string, string | number | boolean | undefined | null>
  /** Skip the 401/403 session handling (login itself). */
  anonymous?: boolean
  signal?: AbortSignal
}

function url(path: string, query?: RequestOptions['query']): string {
  const base = `/api${path.startsWith('/') ? path : `/${path}`}`
  if (!query) return base
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, String(v))
  const s = qs.toString()
  return s ? `${base}?${s}` : base
}

export async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  options: RequestOptions = {},
): Promise<T> {
  const send = () => {
    const headers: Record<string, string> = { Accept: 'application/json' }
    const token = getToken()
    if (token && !options.anonymous) headers.Authorization = `Bearer ${token}`
    // A FormData body (an upload) travels as multipart: the browser sets its Content-Type with the boundary.
    const form = typeof FormData !== 'undefined' && body instanceof FormData
    if (body !== undefined && !form) headers['Content-Type'] = 'application/json'
    return fetch(url(path, options.query), {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      credentials: 'same-origin',
      signal: options.signal,
    })
  }

  let res = await send()
  if (!options.anonymous && res.status === 403) {
    const err = await toApiError(res.clone())
    if (err.code === 'ERR_SESSION_EXPIRED') {
      try {
        await refreshToken()
      } catch {
        sessionLost()
        throw err
      }
      res = await send()
    }
  }
  if (res.ok) return parse<T>(res)
  const err = await toApiError(res)
  if (!options.anonymous && res.status === 401) sessionLost()
  return Promise.reject(err)
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, undefined, options),
}
