import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { createHarness, type Harness } from '../../test/harness'
import { SRC } from '../../test/import-graph'
import { typingMsOf } from '../campaigns/pacing'
import { resetCampaignRunner } from '../campaigns/runner'
import {
  advance,
  MIN,
  makeContactList,
  people,
  SEC,
  sandboxSetup,
  setCampaignSettings,
} from '../campaigns/testing'
import { companyTimeZone } from '../settings/service'
import { dayOf, sentOn } from './counters'
import { doorOf } from './door'

/** The process "restarts" over the same database: new doors and a new campaigns runner. */
async function restart(h: Harness) {
  h.deps.jobs.drop('doors')
  await resetCampaignRunner(h.deps, { random: () => 0.5 }).start()
}

/** A ticket of company A on the connection, open and assigned to its admin (a customer wrote first). */
async function openTicket(h: Harness, admin: Awaited<ReturnType<Harness['as']>>, connectionId: number) {
  await admin.post(`/sandbox/connections/${connectionId}/inbound`, {
    from: '5511988880001',
    name: 'Maria',
    body: 'Oi, tudo bem?',
  })
  await h.clock.tick(100)
  const ticketId = h.deps.sqlite
    .query<{ id: number }, [number]>('SELECT id FROM tickets WHERE company_id = ? ORDER BY id DESC LIMIT 1')
    .get(h.a.id)!.id
  h.deps.sqlite
    .query(`UPDATE tickets SET status = 'open', user_id = ? WHERE id = ?`)
    .run(h.a.adminId, ticketId)
  return ticketId
}

/** The campaign's texts the sandbox saw (the send API's refused one never left). */
const network = (h: Harness, connectionId: number) =>
  h.deps
    .sandboxNetwork!.outbound(connectionId)
    .filter((r) => r.kind === 'text' && r.body?.startsWith('Olá'))
    .map((r) => r.body)

describe('the door of a connection', () => {
  test('an attendant reply and a campaign go out in one order, at the connection pace', async () => {
    const h = await createHarness({ sandbox: true })
    // random() = 0.5: a wait of 10 s after each message; never the longer one.
    setCampaignSettings(h, h.a.id, { messageInterval: 20, longerIntervalAfter: 0, greaterInterval: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const network = h.deps.sandboxNetwork!

    // A customer writes on the connection; an attendant has the ticket.
    await admin.post(`/sandbox/connections/${connection.id}/inbound`, {
      from: '5511988880001',
      name: 'Maria',
      body: 'Oi, tudo bem?',
    })
    await h.clock.tick(100)
    const ticketId = h.deps.sqlite
      .query<{ id: number }, [number]>('SELECT id FROM tickets WHERE company_id = ? ORDER BY id DESC LIMIT 1')
      .get(h.a.id)!.id
    h.deps.sqlite
      .query(`UPDATE tickets SET status = 'open', user_id = ? WHERE id = ?`)
      .run(h.a.adminId, ticketId)

    const list = makeContactList(h, h.a.id, people(3))
    const start = h.clock.now()
    const created = await admin.post('/campaigns', {
      name: 'Ofertas',
      message1: 'Olá {nome}, temos novidades',
      whatsappId: connection.id,
      contactListId: list,
      scheduledAt: new Date(start).toISOString(),
    })
    expect(created.status).toBe(201)
    await h.clock.tick(0)
    const typing = typingMsOf('Olá Pessoa 1, temos novidades')

    // While the campaign shows "typing..." for its first message, the attendant replies: the reply waits for
    // the campaign's turn to end and goes right after its message, never in the middle.
    await advance(h, typing / 2, 100)
    expect((await admin.post(`/messages/${ticketId}`, { body: 'Primeira resposta' })).status).toBe(201)
    // Between the campaign's messages the line is free: a reply goes at once, and the next campaign message
    // keeps its 10 s after it (the pace counts everything the number sends).
    await advance(h, typing / 2 + 5 * SEC, 100)
    expect((await admin.post(`/messages/${ticketId}`, { body: 'Segunda resposta' })).status).toBe(201)
    await advance(h, 40 * SEC, 100)

    const seen = network
      .outbound(connection.id)
      .filter((r) => r.kind === 'text')
      .map((r) => ({ body: r.body, at: r.at - start }))
    expect(seen).toEqual([
      { body: 'Olá Pessoa 1, temos novidades', at: typing },
      { body: 'Primeira resposta', at: typing },
      { body: 'Segunda resposta', at: typing + 5 * SEC },
      { body: 'Olá Pessoa 2, temos novidades', at: typing + 15 * SEC },
      { body: 'Olá Pessoa 3, temos novidades', at: typing + 25 * SEC },
    ])
    // Every "typing..." ended before anything else went: composing, paused, then its own message.
    const presence = network.presence(connection.id)
    const composing = presence.filter((p) => p.state === 'composing').map((p) => p.at - start)
    expect(composing).toEqual([0, 15 * SEC, 25 * SEC])
    // The day's count holds everything the number sent: three campaign messages and two replies.
    const timeZone = companyTimeZone(h.deps.sqlite, h.a.id)
    expect(sentOn(h.deps.sqlite, connection.id, dayOf(h.clock.now(), timeZone))).toBe(5)
  })

  test('a restriction another sender meets pauses the campaigns of the number until an admin resumes', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const token = (await admin.get(`/whatsapp/${connection.id}`)).body.token as string
    const list = makeContactList(h, h.a.id, people(2))
    const start = h.clock.now()
    const created = await admin.post('/campaigns', {
      name: 'Mais tarde',
      message1: 'Olá {nome}',
      whatsappId: connection.id,
      contactListId: list,
      scheduledAt: new Date(start + 10 * MIN).toISOString(),
    })
    expect(created.status).toBe(201)
    // WhatsApp locks the number for new chats; the send API meets it first.
    await admin.post(`/sandbox/connections/${connection.id}/restrict`, { on: true })
    const api = await h.app.request('/api/messages/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ number: '5511977770001', body: 'Seu pedido chegou' }),
    })
    expect(((await api.json()) as { error: string }).error).toBe('ERR_SENDING_WAPP_MSG')
    // The campaign starts on a number known to be restricted: it pauses before claiming anyone.
    await advance(h, 11 * MIN, SEC)
    let campaign = (await admin.get(`/campaigns/${created.body.id}`)).body
    expect(campaign).toMatchObject({ status: 'EM_ANDAMENTO', pausedReason: 'restricted' })
    expect(campaign.pausedDetail).toContain('463')
    expect(network(h, connection.id)).toEqual([])
    expect(h.deps.sandboxNetwork!.presence(connection.id)).toEqual([])
    const claimed = h.deps.sqlite
      .query<{ n: number }, [number]>(
        'SELECT count(*) AS n FROM campaign_shippings WHERE campaign_id = ? AND claimed_at IS NOT NULL',
      )
      .get(created.body.id)!.n
    expect(claimed).toBe(0)
    // The lock is over and an admin resumes: the door forgets the restriction and the campaign goes on.
    await admin.post(`/sandbox/connections/${connection.id}/restrict`, { on: false })
    expect((await admin.post(`/campaigns/${created.body.id}/resume`)).status).toBe(200)
    await advance(h, MIN, SEC)
    campaign = (await admin.get(`/campaigns/${created.body.id}`)).body
    expect(campaign.status).toBe('FINALIZADA')
    expect(network(h, connection.id)).toEqual(['Olá Pessoa 1', 'Olá Pessoa 2'])
  })

  test('a door made after a restart keeps the restriction and the pace', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const ticketId = await openTicket(h, admin, connection.id)
    expect((await admin.post(`/messages/${ticketId}`, { body: 'Já vou ver' })).status).toBe(201)
    await h.clock.tick(0)
    const sentAt = h.clock.now()
    // WhatsApp locks the number for new chats; the send API meets it. Then the server restarts.
    await admin.post(`/sandbox/connections/${connection.id}/restrict`, { on: true })
    const token = (await admin.get(`/whatsapp/${connection.id}`)).body.token as string
    await h.app.request('/api/messages/send', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ number: '5511977770001', body: 'Seu pedido chegou' }),
    })
    const before = doorOf(h.deps, connection.id)
    expect(before.restriction?.detail).toContain('463')
    await h.clock.tick(MIN)
    await restart(h)
    const after = doorOf(h.deps, connection.id)
    expect(after).not.toBe(before)
    expect(after.lastSentAt).toBe(sentAt)
    expect(after.restriction).toEqual(before.restriction)
    // A campaign started after the restart pauses before claiming anyone.
    const list = makeContactList(h, h.a.id, people(1))
    const created = await admin.post('/campaigns', {
      name: 'Depois',
      message1: 'Olá {nome}',
      whatsappId: connection.id,
      contactListId: list,
      scheduledAt: new Date(h.clock.now()).toISOString(),
    })
    await advance(h, MIN, SEC)
    expect((await admin.get(`/campaigns/${created.body.id}`)).body).toMatchObject({
      status: 'EM_ANDAMENTO',
      pausedReason: 'restricted',
    })
    expect(network(h, connection.id)).toEqual([])
    // An admin resumes: lifted for good, a restart does not bring it back.
    await admin.post(`/sandbox/connections/${connection.id}/restrict`, { on: false })
    expect((await admin.post(`/campaigns/${created.body.id}/resume`)).status).toBe(200)
    await restart(h)
    expect(doorOf(h.deps, connection.id).restriction).toBeNull()
    await advance(h, MIN, SEC)
    expect(network(h, connection.id)).toEqual(['Olá Pessoa 1'])
  })

  test("WhatsApp's reach-out time lock restricts the door until its end, durably; WhatsApp's lifting lifts it", async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    await h.deps.channels.start(conn)
    const session = h.sessions.get(conn.id)!
    await session.emit({ t: 'status', status: 'CONNECTED' })
    const until = h.clock.now() + 3_600_000
    await session.emit({ t: 'restriction', active: true, until, detail: 'reach-out time lock (DEFAULT)' })
    expect(doorOf(h.deps, conn.id).restriction).toMatchObject({
      until,
      detail: 'reach-out time lock (DEFAULT)',
    })
    await restart(h)
    expect(doorOf(h.deps, conn.id).restriction?.until).toBe(until)
    await session.emit({ t: 'restriction', active: false })
    expect(doorOf(h.deps, conn.id).restriction).toBeNull()
    await restart(h)
    expect(doorOf(h.deps, conn.id).restriction).toBeNull()
    // A lock WhatsApp never says is over ends at the end it gave.
    await session.emit({ t: 'restriction', active: true, until: h.clock.now() + MIN })
    expect(doorOf(h.deps, conn.id).restriction).not.toBeNull()
    h.clock.advance(MIN)
    expect(doorOf(h.deps, conn.id).restriction).toBeNull()
    await restart(h)
    expect(doorOf(h.deps, conn.id).restriction).toBeNull()
  })

  test("after a restart, the next campaign message keeps its pace from the number's last send, a reply", async () => {
    const h = await createHarness({ sandbox: true })
    // random() = 0.5: a wait of 10 s after each message.
    setCampaignSettings(h, h.a.id, { messageInterval: 20, longerIntervalAfter: 0, greaterInterval: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const ticketId = await openTicket(h, admin, connection.id)
    const list = makeContactList(h, h.a.id, people(2))
    const start = h.clock.now()
    await admin.post('/campaigns', {
      name: 'Ofertas',
      message1: 'Olá {nome}, temos novidades',
      whatsappId: connection.id,
      contactListId: list,
      scheduledAt: new Date(start).toISOString(),
    })
    await h.clock.tick(0)
    const typing = typingMsOf('Olá Pessoa 1, temos novidades')
    // The first campaign message goes, a reply 2 s after it, and the server restarts right then.
    await advance(h, typing + 2 * SEC, 100)
    expect((await admin.post(`/messages/${ticketId}`, { body: 'Resposta' })).status).toBe(201)
    await h.clock.tick(0)
    await restart(h)
    await advance(h, 30 * SEC, 100)
    const seen = h.deps
      .sandboxNetwork!.outbound(connection.id)
      .filter((r) => r.kind === 'text')
      .map((r) => ({ body: r.body, at: r.at - start }))
    // Its 10 s count from the reply, as they would have without the restart.
    expect(seen).toEqual([
      { body: 'Olá Pessoa 1, temos novidades', at: typing },
      { body: 'Resposta', at: typing + 2 * SEC },
      { body: 'Olá Pessoa 2, temos novidades', at: typing + 12 * SEC },
    ])
  })

  test('no module but the door hands a message, a check or "typing..." to a session', () => {
    const server = join(SRC, 'server')
    // The providers implement the session; the contract declares it; the door is the one caller.
    const exempt = [
      /^channels\/(baileys|sandbox)\//,
      /^channels\/types\.ts$/,
      /^modules\/outbound\/door\.ts$/,
    ]
    // A sender's claimed hand, the live sockets and a class's own methods are not sessions.
    const receivers = new Set(['hand', 'socket', 'this'])
    const calls = /([\w$]+)\??\.(send|forward|checkNumbers|sendPresence)\??\.?\(/g
    const offenders: string[] = []
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name)
        if (entry.isDirectory()) {
          if (entry.name !== 'test') walk(path)
          continue
        }
        const name = relative(server, path)
        if (!/\.tsx?$/.test(name) || /\.test\.tsx?$|testing\.ts$/.test(name)) continue
        if (exempt.some((e) => e.test(name))) continue
        for (const m of readFileSync(path, 'utf8').matchAll(calls))
          if (!receivers.has(m[1]!)) offenders.push(`${name}: ${m[0]}`)
      }
    }
    walk(server)
    expect(offenders).toEqual([])
    // The channel manager is no door of its own.
    expect(readFileSync(join(server, 'channels/manager.ts'), 'utf8')).not.toMatch(/\bsend\(/)
  })
})
