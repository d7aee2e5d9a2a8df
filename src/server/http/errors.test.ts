import { describe, expect, test } from 'bun:test'
import { Hono } from 'hono'
import { AppError } from '../../shared/errors'
import type { AppEnv } from './env'
import { handleError } from './errors'

function appThrowing(err: Error) {
  const app = new Hono<AppEnv>()
  app.onError(handleError)
  app.get('/x', () => {
    throw err
  })
  return app
}

describe('handleError', () => {
  test('an AppError answers its code in `error`, with its status, message, fields and details', async () => {
    const res = await appThrowing(
      new AppError('ERR_VALIDATION', 'Bad', { hint: 1 }, [{ field: 'name', message: 'Obrigatório' }]),
    ).request('/x')
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({
      error: 'ERR_VALIDATION',
      message: 'Bad',
      fields: [{ field: 'name', message: 'Obrigatório' }],
      details: { hint: 1 },
    })
  })

  test('with errorText, `error` carries that text and `code` the code (the spec`s ERR_OTHER_OPEN_TICKET)', async () => {
    const text = JSON.stringify({ id: 3, userId: 2, user: { name: 'Ana' }, queue: { name: 'Vendas' } })
    const res = await appThrowing(
      new AppError('ERR_OTHER_OPEN_TICKET', 'Open elsewhere', { ticket: { id: 3 } }, undefined, {
        errorText: text,
      }),
    ).request('/x')
    expect(res.status).toBe(409)
    const body = await res.json()
    expect(body).toEqual({
      error: text,
      code: 'ERR_OTHER_OPEN_TICKET',
      message: 'Open elsewhere',
      details: { ticket: { id: 3 } },
    })
    expect(JSON.parse(body.error)).toMatchObject({
      userId: 2,
      user: { name: 'Ana' },
      queue: { name: 'Vendas' },
    })
  })

  test('anything else is a bare 500 that reveals nothing', async () => {
    const res = await appThrowing(new Error('secret detail')).request('/x')
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: 'ERR_INTERNAL', message: 'An internal error occurred' })
  })
})
