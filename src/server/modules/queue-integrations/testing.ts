/**
 * Local fakes of the integrations' APIs for tests, each a Bun server on 127.0.0.1 (a free port), stopped by
 * `stop()`: a webhook (n8n is the same), Typebot's chat API, and Dialogflow with its OAuth token endpoint (it
 * checks the JWT's RS256 signature with the service account's public key). A handler may answer `'hang'`:
 * the request then never gets an answer (timeouts).
 */
import { createVerify, generateKeyPairSync } from 'node:crypto'

type Handler<T> = (input: T) => unknown | Promise<unknown>
type Server = ReturnType<typeof Bun.serve>

const never = () => new Promise<Response>(() => {})

/** A handler's result as a response: a Response as is, 'hang' never, anything else as JSON. */
function responseOf(result: unknown): Response | Promise<Response> {
  if (result instanceof Response) return result
  if (result === 'hang') return never()
  return Response.json(result ?? {})
}

function serve(fetch: (req: Request, url: URL) => Response | Promise<Response>): Server {
  return Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => fetch(req, new URL(req.url)) })
}

const origin = (server: Server) => `http://127.0.0.1:${server.port}`

export type WebhookFake = { url: string; requests: unknown[]; stop: () => void }

/** A webhook: records each JSON body and answers what `handler` returns for it. */
export function startWebhookFake(handler: Handler<Record<string, unknown>>): WebhookFake {
  const requests: unknown[] = []
  const server = serve(async (req) => {
    const body = (await req.json()) as Record<string, unknown>
    requests.push(body)
    return responseOf(await handler(body))
  })
  return { url: `${origin(server)}/hook`, requests, stop: () => server.stop(true) }
}

export type TypebotCall =
  | { kind: 'start'; slug: string; message: string | null }
  | { kind: 'continue'; sessionId: string; message: string | null }

/** A text bubble as Typebot sends it (rich text blocks of children). */
export function bubble(...lines: string[]) {
  return {
    id: crypto.randomUUID(),
    type: 'text',
    content: { type: 'richText', richText: lines.map((line) => ({ type: 'p', children: [{ text: line }] })) },
  }
}

export type TypebotFake = { url: string; calls: TypebotCall[]; stop: () => void }

/**
 * Typebot's chat API. `handler` gets each call and answers `{ messages }` (the fake adds a new `sessionId` to
 * each start), a Response, or 'hang'.
 */
export function startTypebotFake(handler: Handler<TypebotCall>): TypebotFake {
  const calls: TypebotCall[] = []
  let sessions = 0
  const server = serve(async (req, url) => {
    const body = (await req.json().catch(() => ({}))) as { message?: unknown }
    const message =
      typeof body.message === 'string'
        ? body.message
        : typeof (body.message as { text?: unknown })?.text === 'string'
          ? (body.message as { text: string }).text
          : null
    const start = url.pathname.match(/^\/api\/v1\/typebots\/([^/]+)\/startChat$/)
    const next = url.pathname.match(/^\/api\/v1\/sessions\/([^/]+)\/continueChat$/)
    if (req.method !== 'POST' || (!start && !next)) return new Response('not found', { status: 404 })
    const call: TypebotCall = start
      ? { kind: 'start', slug: decodeURIComponent(start[1]!), message }
      : { kind: 'continue', sessionId: decodeURIComponent(next![1]!), message }
    calls.push(call)
    const result = await handler(call)
    if (result instanceof Response || result === 'hang') return responseOf(result)
    return Response.json(start ? { sessionId: `s${++sessions}`, ...(result as object) } : result)
  })
  return { url: origin(server), calls, stop: () => server.stop(true) }
}

export type DetectCall = { projectId: string; sessionId: string; text: string; languageCode: string }

export type DialogflowFake = {
  /** The base URL for BALCAO_DIALOGFLOW_BASE_URL. */
  url: string
  /** A service account JSON whose token URI is this fake's. */
  serviceAccount: (projectId?: string) => string
  tokenRequests: number
  detectCalls: DetectCall[]
  stop: () => void
}

/**
 * Dialogflow: `POST /token` (a JWT bearer grant; the assertion's signature must verify with the fake's key)
 * gives `token-N` for an hour; `POST /v2/projects/{p}/agent/sessions/{s}:detectIntent` (with a token it gave)
 * answers `{ queryResult: handler(call) }`, or a Response, or 'hang'.
 */
export function startDialogflowFake(handler: Handler<DetectCall>): DialogflowFake {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  const issued = new Set<string>()
  const fake: DialogflowFake = {
    url: '',
    serviceAccount: () => '',
    tokenRequests: 0,
    detectCalls: [],
    stop: () => {},
  }
  const server = serve(async (req, url) => {
    if (url.pathname === '/token') {
      fake.tokenRequests++
      const form = new URLSearchParams(await req.text())
      const assertion = form.get('assertion') ?? ''
      const [header, claims, signature] = assertion.split('.')
      const verify = createVerify('RSA-SHA256')
      verify.update(`${header}.${claims}`)
      const ok =
        form.get('grant_type') === 'urn:ietf:params:oauth:grant-type:jwt-bearer' &&
        !!signature &&
        verify.verify(publicKey, Buffer.from(signature, 'base64url'))
      if (!ok)
        return Response.json({ error: 'invalid_grant', error_description: 'bad signature' }, { status: 400 })
      const token = `token-${fake.tokenRequests}`
      issued.add(token)
      return Response.json({ access_token: token, expires_in: 3600, token_type: 'Bearer' })
    }
    const m = url.pathname.match(/^\/v2\/projects\/([^/]+)\/agent\/sessions\/([^/]+):detectIntent$/)
    if (!m || req.method !== 'POST') return new Response('not found', { status: 404 })
    const token = req.headers.get('authorization')?.replace(/^Bearer /, '') ?? ''
    if (!issued.has(token))
      return Response.json(
        { error: { code: 401, message: 'Request had invalid authentication credentials.' } },
        {
          status: 401,
        },
      )
    const body = (await req.json()) as { queryInput?: { text?: { text?: string; languageCode?: string } } }
    const call: DetectCall = {
      projectId: decodeURIComponent(m[1]!),
      sessionId: decodeURIComponent(m[2]!),
      text: body.queryInput?.text?.text ?? '',
      languageCode: body.queryInput?.text?.languageCode ?? '',
    }
    fake.detectCalls.push(call)
    const result = await handler(call)
    if (result instanceof Response || result === 'hang') return responseOf(result)
    return Response.json({ responseId: crypto.randomUUID(), queryResult: result })
  })
  fake.url = origin(server)
  fake.serviceAccount = (projectId = 'balcao-agent') =>
    JSON.stringify({
      type: 'service_account',
      project_id: projectId,
      private_key_id: 'k1',
      private_key: pem,
      client_email: `bot@${projectId}.iam.gserviceaccount.com`,
      token_uri: `${fake.url}/token`,
    })
  fake.stop = () => server.stop(true)
  return fake
}
