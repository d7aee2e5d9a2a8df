import { describe, expect, test } from 'bun:test'
import { proto } from '@whiskeysockets/baileys'
import type { SessionUpdate } from '../../../shared/api'
import { normalizeBaileysEvents } from '../../channels/normalize'
import { IMPORT_IDLE_MS, IMPORT_SETTLE_MS } from './history'
import { count, messagesOf, sandboxHarness, ticketsOf } from './testing'

const DAY = 24 * 60 * 60 * 1000
const ANA = '5511988881111'
const BETO = '5511988882222'

/** The history WhatsApp sends after pairing: two conversations and a group, over the last days. */
function historyOf(now: number) {
  return [
    { from: ANA, name: 'Ana', id: 'H0000000001', body: 'ana antiga', timestamp: now - 40 * DAY },
    { from: ANA, name: 'Ana', id: 'H0000000002', body: 'ana 1', timestamp: now - 3 * DAY },
    { from: ANA, id: 'H0000000003', body: 'resposta nossa', fromMe: true, timestamp: now - 3 * DAY + 60_000 },
    { from: BETO, name: 'Beto', id: 'H0000000004', body: 'beto 1', timestamp: now - 2 * DAY },
    { from: ANA, name: 'Ana', id: 'H0000000005', body: 'ana 2', timestamp: now - DAY },
    {
      from: BETO,
      name: 'Beto',
      id: 'H0000000006',
      body: 'no grupo',
      group: { id: '120363000000000009', name: 'Turma' },
      timestamp: now - DAY,
    },
  ]
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

function sessions(events: { event: string; room: string; data: unknown }[], companyId: number) {
  return events
    .filter((e) => e.event === `company-${companyId}-whatsappSession` && e.room.endsWith(':admins'))
    .map((e) => (e.data as { session: SessionUpdate }).session)
}

describe('history import', () => {
  test('nothing is imported unless the connection says from when', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.syncHistory(conn.id, historyOf(h.clock.now()), { progress: 100 })
    expect(count(h, 'messages')).toBe(0)
    expect(count(h, 'tickets')).toBe(0)
  })

  test("imports the conversations in the connection's dates as tickets, showing 'importing' with progress", async () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    const { h, net, conn } = await sandboxHarness({ importOldMessages: isoDay(now - 10 * DAY) })
    const events = h.recordEvents()
    const history = historyOf(h.clock.now())
    await net.syncHistory(conn.id, history.slice(0, 3), { progress: 40 })
    expect((await (await h.as(h.a.admin)).get(`/whatsapp/${conn.id}`)).body.status).toBe('importing')
    await net.syncHistory(conn.id, history.slice(3), { progress: 100 })
    // the sandbox's history is an INITIAL_BOOTSTRAP: complete once no RECENT chunk follows for a few seconds
    await h.clock.tick(IMPORT_SETTLE_MS)
    await h.inbound.idle()

    const updates = sessions(events, h.a.id)
    expect(updates.map((s) => [s.status, s.progress])).toEqual([
      ['importing', 40],
      ['importing', 100],
      ['CONNECTED', undefined],
    ])
    // the 40-day-old message is before the date; the group is skipped (importOldMessagesGroups off)
    const rows = messagesOf(h)
    expect(rows.map((m) => m.body)).toEqual(['ana 1', 'resposta nossa', 'beto 1', 'ana 2'])
    expect(rows.every((m) => m.read === 1)).toBe(true)
    expect(rows.map((m) => m.createdAt)).toEqual([
      now - 3 * DAY,
      now - 3 * DAY + 60_000,
      now - 2 * DAY,
      now - DAY,
    ])
    const tickets = ticketsOf(h)
    expect(tickets).toHaveLength(2)
    // pending (closedTicketsPostImported off), imported, no unread, at the conversation's own times
    expect(tickets[0]).toMatchObject({
      status: 'pending',
      imported: 1,
      unreadMessages: 0,
      lastMessage: 'ana 2',
      createdAt: now - 3 * DAY,
      updatedAt: now - DAY,
    })
    expect(tickets[1]).toMatchObject({ status: 'pending', imported: 1, lastMessage: 'beto 1' })
    expect(messagesOf(h, 'from_me = 1')[0]).toMatchObject({ body: 'resposta nossa', ack: 1 })
  })

  test('the same history twice makes nothing twice; closedTicketsPostImported closes the tickets it opened', async () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    const { h, net, conn } = await sandboxHarness({
      importOldMessages: isoDay(now - 60 * DAY),
      importOldMessagesGroups: true,
      closedTicketsPostImported: true,
    })
    // a live conversation already going with Beto: his history goes into it, and it stays open
    await net.inject(conn.id, { from: BETO, name: 'Beto', body: 'ao vivo' })
    const history = historyOf(now)
    await net.syncHistory(conn.id, history, { progress: 100 })
    await net.syncHistory(conn.id, history, { progress: 100 })
    await h.clock.tick(IMPORT_SETTLE_MS)
    await h.inbound.idle()
    expect(count(h, 'messages')).toBe(history.length + 1)
    const tickets = ticketsOf(h)
    expect(tickets).toHaveLength(3)
    const byContact = (number: string) =>
      tickets.find(
        (t) =>
          h.deps.sqlite
            .query<{ number: string }, [number]>('SELECT number FROM contacts WHERE id = ?')
            .get(t.contactId)?.number === number,
      )!
    expect(byContact(BETO)).toMatchObject({
      status: 'pending',
      imported: 0,
      lastMessage: 'ao vivo',
      unreadMessages: 1,
    })
    expect(byContact(ANA)).toMatchObject({ status: 'closed', imported: 1 })
    expect(byContact('120363000000000009')).toMatchObject({ status: 'closed', imported: 1, isGroup: 1 })
    // closing is recorded for the dashboard
    expect(count(h, 'ticket_events', "type = 'closed'")).toBe(2)
    // a live message after the import opens a new pending ticket for Ana, as after any close
    await net.inject(conn.id, { from: ANA, body: 'oi de novo' })
    expect(ticketsOf(h).at(-1)).toMatchObject({ status: 'pending', imported: 0, unreadMessages: 1 })
  })

  test('without a final chunk the import ends a minute after the last one', async () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    const { h, net, conn } = await sandboxHarness({
      importOldMessages: isoDay(now - 10 * DAY),
      importRecentMessages: isoDay(now - 2 * DAY),
      closedTicketsPostImported: true,
    })
    await net.syncHistory(conn.id, historyOf(now))
    // up to the end of importRecentMessages' day: 'ana 2' (yesterday) is after it
    expect(messagesOf(h).map((m) => m.body)).toEqual(['ana 1', 'resposta nossa', 'beto 1'])
    const status = () =>
      h.deps.sqlite
        .query<{ status: string }, [number]>('SELECT status FROM whatsapps WHERE id = ?')
        .get(conn.id)?.status
    expect(status()).toBe('importing')
    h.clock.advance(IMPORT_IDLE_MS - 1)
    expect(status()).toBe('importing')
    await h.clock.tick(1)
    await h.inbound.idle()
    expect(status()).toBe('CONNECTED')
    expect(ticketsOf(h).map((t) => t.status)).toEqual(['closed', 'closed'])
  })

  // issue 20, defect 14 (the late chunk of a completed sync: scenario tests/wa-sim/scenarios/history-status)
  test("the status shows 'importing' once per sync: bootstrap, RECENT chunks, Baileys's completions", async () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    const { h, net, conn } = await sandboxHarness({ importOldMessages: isoDay(now - 10 * DAY) })
    const events = h.recordEvents()
    const ref = { id: conn.id, companyId: h.a.id }
    const recent = (progress: number, complete?: boolean) => ({
      t: 'history' as const,
      messages: [],
      progress,
      syncType: 'RECENT',
      ...(complete ? { complete } : {}),
    })
    // Baileys's "complete" for the bootstrap comes before its chunk: no import under way, nothing to show
    await h.inbound.history.chunk(ref, { ...recent(100, true), syncType: 'INITIAL_BOOTSTRAP' })
    expect(sessions(events, h.a.id)).toEqual([])
    // the sandbox's history is an INITIAL_BOOTSTRAP at 100 %: RECENT chunks may follow, the import goes on
    await net.syncHistory(conn.id, historyOf(now), { progress: 100 })
    await h.inbound.history.chunk(ref, recent(50))
    await h.inbound.history.chunk(ref, recent(100, true))
    const statuses = sessions(events, h.a.id).map((s) => s.status)
    expect(statuses.filter((s, i) => s !== statuses[i - 1])).toEqual(['importing', 'CONNECTED'])
  })

  test("a history sync on one company's connection never touches another company", async () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    const { h, net, conn, connB } = await sandboxHarness(
      { importOldMessages: isoDay(now - 10 * DAY), closedTicketsPostImported: true },
      { companyB: true },
    )
    await net.inject(connB!.id, { from: ANA, body: 'conversa em B' })
    await net.syncHistory(conn.id, historyOf(now), { progress: 100 })
    expect(ticketsOf(h, 'company_id = ?', h.b.id)).toEqual([
      expect.objectContaining({ status: 'pending', imported: 0, lastMessage: 'conversa em B' }),
    ])
    expect(messagesOf(h, 'company_id = ?', h.b.id)).toHaveLength(1)
  })
})

describe('history sync events', () => {
  test("Baileys' history status 'complete' ends the import", () => {
    const events = normalizeBaileysEvents(
      {
        'messaging-history.status': {
          syncType: proto.HistorySync.HistorySyncType.RECENT,
          status: 'complete',
          explicit: false,
        },
      },
      { download: async () => new Uint8Array() },
    )
    expect(events).toEqual([
      { t: 'history', messages: [], progress: 100, complete: true, syncType: 'RECENT' },
    ])
  })
})
