/**
 * A local fake of an OpenAI-compatible API for tests: a Bun server on 127.0.0.1 (a free port) that records
 * every request and answers `POST /v1/chat/completions` and `POST /v1/audio/transcriptions` with what the
 * test's handlers return. A handler may return a Response (an error status, bad JSON), 'hang' (no answer
 * ever: timeouts), a string (the assistant's text, or the transcription's), or a JSON value as is.
 * `stop()` ends it.
 */

export type ChatRequest = {
  authorization: string | null
  body: {
    model?: unknown
    messages?: { role: string; content: string }[]
    max_tokens?: unknown
    temperature?: unknown
  }
}

export type TranscriptionRequest = {
  authorization: string | null
  model: string | null
  fileName: string | null
  fileType: string | null
  fileSize: number
}

type Result = Response | 'hang' | string | Record<string, unknown>

export type OpenAiFake = {
  /** The base URL to give a prompt (…/v1). */
  baseUrl: string
  chats: ChatRequest[]
  transcriptions: TranscriptionRequest[]
  stop: () => void
}

const never = () => new Promise<Response>(() => {})

export function startOpenAiFake(
  handlers: {
    chat?: (req: ChatRequest) => Result | Promise<Result>
    transcribe?: (req: TranscriptionRequest) => Result | Promise<Result>
  } = {},
): OpenAiFake {
  const chats: ChatRequest[] = []
  const transcriptions: TranscriptionRequest[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url)
      const authorization = req.headers.get('authorization')
      if (req.method === 'POST' && url.pathname === '/v1/chat/completions') {
        const body = (await req.json().catch(() => ({}))) as ChatRequest['body']
        const call = { authorization, body }
        chats.push(call)
        const result = (await handlers.chat?.(call)) ?? 'Olá! Como posso ajudar?'
        if (result instanceof Response) return result
        if (result === 'hang') return never()
        if (typeof result === 'string')
          return Response.json({
            id: 'chatcmpl-test',
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: result }, finish_reason: 'stop' }],
          })
        return Response.json(result)
      }
      if (req.method === 'POST' && url.pathname === '/v1/audio/transcriptions') {
        const form = await req.formData().catch(() => null)
        const file = form?.get('file')
        const call: TranscriptionRequest = {
          authorization,
          model: typeof form?.get('model') === 'string' ? (form.get('model') as string) : null,
          fileName: file && typeof file !== 'string' ? file.name : null,
          fileType: file && typeof file !== 'string' ? file.type : null,
          fileSize: file && typeof file !== 'string' ? file.size : 0,
        }
        transcriptions.push(call)
        const result = (await handlers.transcribe?.(call)) ?? 'Olá, tudo bem?'
        if (result instanceof Response) return result
        if (result === 'hang') return never()
        if (typeof result === 'string') return Response.json({ text: result })
        return Response.json(result)
      }
      return new Response('not found', { status: 404 })
    },
  })
  return {
    baseUrl: `http://127.0.0.1:${server.port}/v1`,
    chats,
    transcriptions,
    stop: () => server.stop(true),
  }
}
