/**
 * The control API's route table: JSON over HTTP under `/control/`, so tests and people drive the
 * simulator the same way. Parts register routes with path patterns like `/control/phones/:number/scan`.
 */
import type { Simulator } from './server'

export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

export type RouteContext = {
  sim: Simulator
  params: Record<string, string>
  /** The parsed JSON body (an empty object when there is none). */
  body: Record<string, unknown>
  request: Request
  url: URL
}
export type RouteHandler = (context: RouteContext) => unknown | Promise<unknown>

type Route = { method: string; segments: string[]; handler: RouteHandler }

export class RouteTable {
  private readonly routes: Route[] = []

  on(method: string, pattern: string, handler: RouteHandler): void {
    this.routes.push({ method: method.toUpperCase(), segments: pattern.split('/').filter(Boolean), handler })
  }

  match(
    method: string,
    pathname: string,
  ): { handler: RouteHandler; params: Record<string, string> } | undefined {
    const parts = pathname.split('/').filter(Boolean)
    for (const route of this.routes) {
      if (route.method !== method || route.segments.length !== parts.length) continue
      const params: Record<string, string> = {}
      const matches = route.segments.every((segment, index) => {
        const part = decodeURIComponent(parts[index]!)
        if (segment.startsWith(':')) {
          params[segment.slice(1)] = part
          return true
        }
        return segment === part
      })
      if (matches) return { handler: route.handler, params }
    }
    return undefined
  }

  async handle(sim: Simulator, request: Request, url: URL): Promise<Response> {
    const found = this.match(request.method, url.pathname)
    if (!found) return Response.json({ error: 'no such control route' }, { status: 404 })
    let body: Record<string, unknown> = {}
    if (request.method !== 'GET') {
      const text = await request.text()
      if (text) {
        try {
          body = JSON.parse(text) as Record<string, unknown>
        } catch {
          return Response.json({ error: 'body is not JSON' }, { status: 400 })
        }
      }
    }
    try {
      const result = await found.handler({ sim, params: found.params, body, request, url })
      return result instanceof Response ? result : Response.json(result ?? { ok: true })
    } catch (error) {
      if (error instanceof ControlError)
        return Response.json({ error: error.message }, { status: error.status })
      return Response.json({ error: error instanceof Error ? error.message : String(error) }, { status: 500 })
    }
  }
}
