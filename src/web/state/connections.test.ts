import { afterEach, describe, expect, test } from 'bun:test'
import { makeConnection } from '../pages/connections/fixtures'
import { connectionsOf } from './connections'
import { resetLiveLists } from './liveList'

afterEach(() => resetLiveLists())

describe('connections list', () => {
  test('an HTTP answer older than the row shown does not undo a live QR frame', () => {
    const list = connectionsOf(1)
    const qr = { status: 'qrcode' as const, qrcode: '2@ref,noise,identity,adv' }
    list.upsert(makeConnection({ id: 7, ...qr, updatedAt: '2026-11-28T17:00:00.200Z' }))
    // The POST /whatsapp answer left the server before the session showed its QR.
    list.upsert(
      makeConnection({ id: 7, status: 'OPENING', qrcode: '', updatedAt: '2026-11-28T17:00:00.100Z' }),
    )
    expect(list.state.peek().items[0]).toMatchObject(qr)
    // A newer row (the same instant included) replaces it.
    list.upsert(
      makeConnection({ id: 7, status: 'CONNECTED', qrcode: '', updatedAt: '2026-11-28T17:00:00.200Z' }),
    )
    expect(list.state.peek().items[0]?.status).toBe('CONNECTED')
  })
})
