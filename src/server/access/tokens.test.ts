import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { sign } from 'hono/jwt'
import { verifiedPayload } from './tokens'

const SECRET = 'test-secret-0123456789'
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const hmac = (data: string, secret = SECRET) => createHmac('sha256', secret).update(data).digest('base64url')

describe('access token verification', () => {
  test('a token we signed gives its payload', async () => {
    const token = await sign({ sub: 7, sid: 's', exp: 2_000_000_000 }, SECRET, 'HS256')
    expect(verifiedPayload(token, SECRET)).toEqual({ sub: 7, sid: 's', exp: 2_000_000_000 })
  })

  test('a forged, re-signed, unsigned or malformed token gives nothing', async () => {
    const token = await sign({ sub: 7 }, SECRET, 'HS256')
    const [header, body] = token.split('.')
    const otherBody = b64({ sub: 1 })
    expect(verifiedPayload(`${header}.${otherBody}.${token.split('.')[2]}`, SECRET)).toBeNull()
    expect(verifiedPayload(`${header}.${body}.${hmac(`${header}.${body}`, 'other')}`, SECRET)).toBeNull()
    const none = b64({ alg: 'none', typ: 'JWT' })
    expect(verifiedPayload(`${none}.${body}.`, SECRET)).toBeNull()
    const hs512 = b64({ alg: 'HS512', typ: 'JWT' })
    expect(verifiedPayload(`${hs512}.${body}.${hmac(`${hs512}.${body}`)}`, SECRET)).toBeNull()
    expect(verifiedPayload('', SECRET)).toBeNull()
    expect(verifiedPayload('a.b', SECRET)).toBeNull()
    expect(verifiedPayload(`${token}.extra`, SECRET)).toBeNull()
  })

  test('a correctly signed body that is not a JSON object gives nothing', () => {
    const header = b64({ alg: 'HS256', typ: 'JWT' })
    for (const body of [b64([1]), b64(null), b64(5), Buffer.from('{not json').toString('base64url')]) {
      expect(verifiedPayload(`${header}.${body}.${hmac(`${header}.${body}`)}`, SECRET)).toBeNull()
    }
  })
})
