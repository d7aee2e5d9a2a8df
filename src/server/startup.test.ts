import { describe, expect, test } from 'bun:test'
import { reachable } from './test/import-graph'

describe('start-up', () => {
  test('serve loads no HTTP, validation, WhatsApp or screen library until a request needs it', () => {
    const { packages } = reachable('server/serve.ts', 'static')
    const heavy = [...packages].filter((p) => /^(arktype|hono|@whiskeysockets|ink|react)/.test(p))
    expect(heavy).toEqual([])
  })

  test('the API, loaded on the first request, carries the routes', () => {
    const { files } = reachable('server/api-entry.ts', 'static')
    expect(files.has('server/app.ts')).toBe(true)
  })
})
