import { describe, expect, test } from 'bun:test'
import type { MessageDto } from '../../../shared/api'
import { messagesOf, sandboxHarness, ticketsOf } from './testing'

const CUSTOMER = '5511988887777'
const OTHER = '5521977776666'

describe('nothing missed while offline', () => {
  test('messages WhatsApp delivers after a reconnect land in order with their original times, live', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, { from: CUSTOMER, body: 'antes da queda' })
    const down = h.clock.now()

    // the session drops; customers write meanwhile (WhatsApp queues it); the session comes back a while later
    await net.simulateDisconnect(conn.id, 408)
    await h.clock.tick(10 * 60_000)
    expect(h.deps.channels.session(conn.id)?.status).toBe('CONNECTED')
    const events = h.recordEvents()
    const queued = [
      { from: CUSTOMER, body: 'durante 1', timestamp: down + 60_000 },
      { from: OTHER, name: 'Outra Pessoa', body: 'cliente novo offline', timestamp: down + 90_000 },
      { from: CUSTOMER, body: 'durante 2', timestamp: down + 120_000 },
    ]
    for (const m of queued) await net.inject(conn.id, { ...m, offline: true })

    const rows = messagesOf(h)
    expect(rows.map((m) => [m.body, m.createdAt])).toEqual([
      ['antes da queda', down],
      ['durante 1', down + 60_000],
      ['cliente novo offline', down + 90_000],
      ['durante 2', down + 120_000],
    ])
    const tickets = ticketsOf(h)
    expect(tickets).toHaveLength(2)
    expect(tickets[0]).toMatchObject({ lastMessage: 'durante 2', unreadMessages: 3 })
    expect(tickets[1]).toMatchObject({
      lastMessage: 'cliente novo offline',
      unreadMessages: 1,
      status: 'pending',
    })
    // the same live events as live messages: a browser open during the outage sees them
    const creates = events
      .filter(
        (e) =>
          e.event === `company-${h.a.id}-appMessage` &&
          e.room.endsWith(':admins') &&
          (e.data as { action: string }).action === 'create',
      )
      .map((e) => (e.data as { message: MessageDto }).message)
    expect(creates.map((m) => [m.body, m.createdAt])).toEqual([
      ['durante 1', new Date(down + 60_000).toISOString()],
      ['cliente novo offline', new Date(down + 90_000).toISOString()],
      ['durante 2', new Date(down + 120_000).toISOString()],
    ])
    // ...and the ticket moves to the top: its updatedAt is when it reached us
    expect(tickets[0]!.updatedAt).toBe(h.clock.now())
  })

  test('a replayed message older than what the ticket holds slots in by its time and leaves the preview alone', async () => {
    const { h, net, conn } = await sandboxHarness()
    const t0 = h.clock.now()
    await net.inject(conn.id, { from: CUSTOMER, body: 'mais nova', timestamp: t0 })
    await net.inject(conn.id, { from: CUSTOMER, body: 'mais antiga', timestamp: t0 - 30_000, offline: true })
    expect(ticketsOf(h)[0]!.lastMessage).toBe('mais nova')
    const admin = await h.as(h.a.admin)
    const page = await admin.get(`/messages/${ticketsOf(h)[0]!.id}`)
    expect(page.body.messages.map((m: MessageDto) => m.body)).toEqual(['mais antiga', 'mais nova'])
  })
})
