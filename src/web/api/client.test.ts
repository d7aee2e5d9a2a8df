import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { authStatus, currentUser } from '../state/session'
import { makeUser, mockFetch, resetState, signIn } from '../test/utils'
import { ApiError, api } from './client'

describe('api client', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser())
    localStorage.setItem('token', 'old-token')
    localStorage.setItem('companyId', '7')
  })
  afterEach(resetState)

  test('sends the bearer token', async () => {
    const calls = mockFetch({ 'GET /api/queue': () => ({ body: [] }) })
    await api.get('/queue')
    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer old-token')
  })

  test('403 ERR_SESSION_EXPIRED: refreshes once and retries with the new token', async () => {
    let n = 0
    const calls = mockFetch({
      'GET /api/queue': (c) =>
        c.headers.get('Authorization') === 'Bearer new-token'
          ? { body: [{ id: 1 }] }
          : { status: 403, body: { error: 'ERR_SESSION_EXPIRED', message: 'expired' } },
      'POST /api/auth/refresh_token': () => {
        n++
        return { body: { token: 'new-token', user: makeUser() } }
      },
    })
    const [a, b] = await Promise.all([api.get<unknown[]>('/queue'), api.get<unknown[]>('/queue')])
    expect(a).toEqual([{ id: 1 }])
    expect(b).toEqual([{ id: 1 }])
    expect(n).toBe(1) // one refresh for both requests
    expect(localStorage.getItem('token')).toBe('new-token')
    expect(calls.filter((c) => c.path === '/api/queue')).toHaveLength(4)
  })

  test('a failed refresh ends the session', async () => {
    mockFetch({
      'GET /api/queue': () => ({ status: 403, body: { error: 'ERR_SESSION_EXPIRED', message: 'expired' } }),
      'POST /api/auth/refresh_token': () => ({
        status: 401,
        body: { error: 'ERR_INVALID_TOKEN', message: 'no' },
      }),
    })
    await expect(api.get('/queue')).rejects.toBeInstanceOf(ApiError)
    expect(localStorage.getItem('token')).toBeNull()
    expect(localStorage.getItem('companyId')).toBeNull()
    expect(authStatus.value).toBe('anonymous')
    expect(currentUser.value).toBeNull()
  })

  test('any 401 clears token and companyId and signs out', async () => {
    mockFetch({
      'GET /api/users': () => ({ status: 401, body: { error: 'ERR_INVALID_TOKEN', message: 'no' } }),
    })
    const err = await api.get('/users').catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).code).toBe('ERR_INVALID_TOKEN')
    expect(localStorage.getItem('token')).toBeNull()
    expect(authStatus.value).toBe('anonymous')
  })

  test('other 403s are plain errors (no refresh)', async () => {
    const calls = mockFetch({
      'DELETE /api/users/2': () => ({ status: 403, body: { error: 'ERR_NO_PERMISSION', message: 'no' } }),
    })
    await expect(api.delete('/users/2')).rejects.toMatchObject({ code: 'ERR_NO_PERMISSION', status: 403 })
    expect(calls).toHaveLength(1)
    expect(authStatus.value).toBe('authenticated')
  })
})
