import { describe, expect, test } from 'bun:test'
import { createHarness, PASSWORD } from '../test/harness'
import { jsonDepth, MAX_JSON_DEPTH } from './validate'

/** 100 KB: 50,000 arrays inside each other. */
const deepArrays = `${'['.repeat(50_000)}${']'.repeat(50_000)}`
/** The same depth through objects, as a field value of a real body. */
const deepObject = `{"name":${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}}`

describe('JSON bodies', () => {
  test('deep nesting answers 400 without a token (sign-in) and with one', async () => {
    const h = await createHarness()
    const token = await h.login(h.a.admin)
    const headers = { 'content-type': 'application/json' }
    for (const body of [deepArrays, deepObject]) {
      const anonymous = await h.call('POST', '/auth/login', { body, headers })
      expect(anonymous.status).toBe(400)
      expect(anonymous.body.error).toBe('ERR_VALIDATION')
      const signedIn = await h.call('PUT', `/users/${h.a.attendantId}`, { token, body, headers })
      expect(signedIn.status).toBe(400)
      expect(signedIn.body.error).toBe('ERR_VALIDATION')
    }
    // The server is fine afterwards.
    expect((await h.call('GET', '/auth/me', { token })).status).toBe(200)
  })

  test(`nesting up to ${MAX_JSON_DEPTH} levels is accepted (and then validated as usual)`, async () => {
    const h = await createHarness()
    const deepButFine = `{"email":"${h.a.admin}","password":"${PASSWORD}","x":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`
    const res = await h.call('POST', '/auth/login', {
      body: deepButFine,
      headers: { 'content-type': 'application/json' },
    })
    expect(res.status).toBe(200)
  })

  test('a top-level array, null, number or string where an object is expected answers 400', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    for (const body of ['[]', '[{"name":"Array"}]', 'null', '5', '"text"', 'true']) {
      const res = await h.call('PUT', `/users/${h.a.attendantId}`, {
        token: admin.token,
        body,
        headers: { 'content-type': 'application/json' },
      })
      expect(res.status).toBe(400)
      expect(res.body).toMatchObject({ error: 'ERR_VALIDATION', fields: [{ field: 'body' }] })
      const login = await h.call('POST', '/auth/login', {
        body,
        headers: { 'content-type': 'application/json' },
      })
      expect(login.status).toBe(400)
    }
    expect((await admin.put(`/users/${h.a.attendantId}`, {})).status).toBe(200)
  })
})

describe('jsonDepth', () => {
  test('counts arrays and objects, not brackets inside strings', () => {
    expect(jsonDepth('1')).toBe(0)
    expect(jsonDepth('{}')).toBe(1)
    expect(jsonDepth('{"a":[{"b":[]}]}')).toBe(4)
    expect(jsonDepth('{"a":"[[[[{{{{"}')).toBe(1)
    expect(jsonDepth('{"a":"quote \\" [[[[ still a string"}')).toBe(1)
    expect(jsonDepth('["\\\\", [[]]]')).toBe(3)
  })

  test('stops early on a hostile body', () => {
    expect(jsonDepth(deepArrays)).toBe(MAX_JSON_DEPTH + 1)
  })
})

describe('path ids', () => {
  test('only canonical decimal ids name a record: /plans/00001, /plans/+1 and the like answer 404', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    expect((await root.get(`/plans/${h.plan.id}`)).status).toBe(200)
    const plain = String(h.plan.id)
    for (const id of [
      `0000${plain}`,
      `+${plain}`,
      `%20${plain}`,
      `${plain}e0`,
      `0x${plain}`,
      `${plain}.0`,
      '0',
      '-1',
      'abc',
      '99999999999999999999',
    ]) {
      for (const res of [
        await root.get(`/plans/${id}`),
        await root.put(`/plans/${id}`, { name: 'Outro' }),
        await root.del(`/plans/${id}`),
      ]) {
        expect(res.status).toBe(404)
        expect(res.body.error).toBe('ERR_NO_PLAN_FOUND')
      }
    }
    for (const id of [`0${h.a.id}`, `+${h.a.id}`]) {
      const res = await root.get(`/companies/${id}`)
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_COMPANY_FOUND')
    }
    // Every area answers with its own not-found code, as for an id that does not exist.
    const admin = await h.as(h.a.admin)
    const queue = h.makeQueue(h.a.id)
    const connection = h.makeConnection(h.a.id)
    expect((await admin.get(`/queue/0${queue.id}`)).body.error).toBe('ERR_NO_QUEUE_FOUND')
    expect((await admin.get(`/whatsapp/+${connection.id}`)).body.error).toBe('ERR_NO_WAPP_FOUND')
    expect((await admin.get(`/queue/${queue.id}`)).status).toBe(200)
  })
})
