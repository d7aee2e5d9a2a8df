import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { whatsapps } from '../../db/schema'
import { storeMedia } from '../../media/store'
import { createHarness, type Harness } from '../../test/harness'
import { typingMsOf } from './pacing'
import { resetCampaignRunner } from './runner'
import { FILE_GAP_MS } from './sender'
import {
  advance,
  HOUR,
  MIN,
  makeContactList,
  people,
  SEC,
  sandboxSetup,
  setCampaignSettings,
  shippings,
} from './testing'

const outbound = (h: Harness, connectionId: number) =>
  h.deps.sandboxNetwork!.outbound(connectionId).filter((r) => r.kind === 'text')
const everything = (h: Harness, connectionId: number) =>
  h.deps.sandboxNetwork!.outbound(connectionId).filter((r) => r.kind !== 'callReject')

/** A file list of the company (raw rows: the files area owns the tables); options without `file` have none. */
function makeFileList(
  h: Harness,
  companyId: number,
  options: { name: string; file?: { mime: string; name: string } }[],
) {
  const now = h.clock.now()
  const list = h.deps.sqlite
    .query<{ id: number }, [number, number, number]>(
      `INSERT INTO files (company_id, name, message, created_at, updated_at) VALUES (?, 'Catálogo', '', ?, ?)
       RETURNING id`,
    )
    .get(companyId, now, now)!
  for (const o of options) {
    const stored = o.file ? storeMedia(h.deps, companyId, new TextEncoder().encode(o.name), o.file) : null
    h.deps.sqlite
      .query(
        `INSERT INTO file_options (file_id, name, path, media_type, media_name, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(list.id, o.name, stored?.path ?? null, o.file?.mime ?? null, o.file?.name ?? null, now, now)
  }
  return list.id
}

async function startNow(
  admin: Awaited<ReturnType<Harness['as']>>,
  h: Harness,
  fields: Record<string, unknown>,
) {
  const res = await admin.post('/campaigns', {
    name: 'Black Friday',
    message1: 'Olá {nome}, oferta para {numero} {cupom}',
    scheduledAt: new Date(h.clock.now()).toISOString(),
    ...fields,
  })
  expect(res.status).toBe(201)
  await h.clock.tick(0)
  return res.body.id as number
}

describe('campaigns runner', () => {
  test('pacing: a random wait up to messageInterval, and greaterInterval after every longerIntervalAfter', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, {
      messageInterval: 20,
      longerIntervalAfter: 3,
      greaterInterval: 60,
      variables: [{ key: 'cupom', value: 'BF10' }],
    })
    const { admin, connection } = await sandboxSetup(h) // random() = 0.5: waits of 10 s
    const list = makeContactList(h, h.a.id, people(5))
    const start = h.clock.now()
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, 3 * MIN)
    const sent = outbound(h, connection.id)
    expect(sent).toHaveLength(5)
    expect(sent[0]!.body).toBe('Olá Pessoa 1, oferta para 5511999900011 BF10')
    const typing = typingMsOf(sent[0]!.body!)
    const at = sent.map((r) => r.at - start)
    // First after its "typing...", then 10 s, 10 s, the longer 60 s after the 3rd, then 10 s.
    expect(at).toEqual([typing, typing + 10 * SEC, typing + 20 * SEC, typing + 80 * SEC, typing + 90 * SEC])
    // "typing..." was shown to each before its message.
    const presence = h.deps.sandboxNetwork!.presence(connection.id)
    expect(presence.filter((p) => p.state === 'composing')).toHaveLength(5)
    const campaign = (await admin.get(`/campaigns/${id}`)).body
    expect(campaign.status).toBe('FINALIZADA')
    expect(campaign.completedAt).not.toBeNull()
    expect(campaign.counts).toMatchObject({ total: 5, valid: 5, delivered: 5, pending: 0 })
  })

  test('restart mid-campaign: a runner rebuilt over the same database sends no one twice and skips no one', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 10, longerIntervalAfter: 0, greaterInterval: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const list = makeContactList(h, h.a.id, people(6))
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, 12 * SEC)
    const before = outbound(h, connection.id).length
    expect(before).toBeGreaterThan(0)
    expect(before).toBeLessThan(6)
    // The process "dies" between sends: a new runner over the same rows.
    const runner = resetCampaignRunner(h.deps, { random: () => 0.5 })
    await runner.start()
    await advance(h, 2 * MIN)
    const sent = outbound(h, connection.id).map((r) => r.to)
    expect(sent).toHaveLength(6)
    expect(new Set(sent).size).toBe(6)
    expect(shippings(h, id).every((s) => s.state === 'delivered')).toBe(true)
  })

  test('a send interrupted while WhatsApp had it is failed at boot, never resent', async () => {
    const h = await createHarness({ sandbox: true })
    const { admin, connection, runner } = await sandboxSetup(h)
    runner.stop()
    const list = makeContactList(h, h.a.id, people(2))
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    const again = resetCampaignRunner(h.deps, { random: () => 0.5 })
    // prepare rows, then pretend the first was claimed when the process died
    await again.start()
    again.stop()
    const [first] = shippings(h, id)
    h.deps.sqlite.query(`UPDATE campaign_shippings SET state = 'sending' WHERE id = ?`).run(first!.id)
    const third = resetCampaignRunner(h.deps, { random: () => 0.5 })
    await third.start()
    await advance(h, 2 * MIN)
    const rows = shippings(h, id)
    expect(rows[0]!.state).toBe('failed')
    expect(rows[0]!.error).toContain('ERR_SEND_INTERRUPTED')
    expect(rows[1]!.state).toBe('delivered')
    expect(outbound(h, connection.id).map((r) => r.to)).toEqual([`${rows[1]!.number}@s.whatsapp.net`])
  })

  test('a stop waits for the message WhatsApp has, then claims no one else: no row is left sending', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0 })
    const { admin, connection, runner } = await sandboxSetup(h)
    // WhatsApp holds the first message open until the test releases it.
    const session = h.deps.channels.session(connection.id)!
    const held = Promise.withResolvers<void>()
    const send = session.send.bind(session)
    session.send = async (...args) => {
      await held.promise
      return send(...args)
    }
    const list = makeContactList(h, h.a.id, people(2))
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, 10 * SEC, 100)
    expect(shippings(h, id).map((s) => s.state)).toEqual(['sending', 'pending'])
    let stopped = false
    const stopping = (async () => {
      await runner.stop()
      stopped = true
    })()
    await advance(h, MIN, SEC)
    expect(stopped).toBe(false)
    expect(shippings(h, id)[0]!.state).toBe('sending')
    held.resolve()
    await stopping
    expect(shippings(h, id).map((s) => s.state)).toEqual(['delivered', 'pending'])
    // Nothing more goes, or is claimed, once the stop began.
    await advance(h, MIN, SEC)
    expect(outbound(h, connection.id)).toHaveLength(1)
    const claimed = h.deps.sqlite
      .query<{ n: number }, [number]>(
        'SELECT count(*) AS n FROM campaign_shippings WHERE campaign_id = ? AND claimed_at IS NOT NULL',
      )
      .get(id)!.n
    expect(claimed).toBe(1)
  })

  test('invalid numbers (ending in 0) are checked first, reported and never sent to', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const list = makeContactList(h, h.a.id, [
      { name: 'Ana', number: '5511999990001' },
      { name: 'Bia', number: '5511999990010' },
      { name: 'Caio', number: '5511999990002' },
    ])
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, MIN)
    expect(outbound(h, connection.id).map((r) => r.to)).toEqual([
      '5511999990001@s.whatsapp.net',
      '5511999990002@s.whatsapp.net',
    ])
    const body = (await admin.get(`/campaigns/${id}`)).body
    expect(body.counts).toMatchObject({ total: 3, valid: 2, invalid: 1, delivered: 2 })
    expect(body.status).toBe('FINALIZADA')
  })

  test('cancel stops sending; restart continues with the rest, no one twice', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 10, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const list = makeContactList(h, h.a.id, people(5))
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, 12 * SEC)
    const cancelled = await admin.post(`/campaigns/${id}/cancel`)
    expect(cancelled.body.status).toBe('CANCELADA')
    const atCancel = outbound(h, connection.id).length
    await advance(h, 2 * MIN)
    expect(outbound(h, connection.id)).toHaveLength(atCancel)
    expect((await admin.post(`/campaigns/${id}/cancel`)).status).toBe(409)
    const restarted = await admin.post(`/campaigns/${id}/restart`)
    expect(restarted.body.status).toBe('EM_ANDAMENTO')
    expect((await admin.post(`/campaigns/${id}/restart`)).status).toBe(409)
    await advance(h, 2 * MIN)
    const sent = outbound(h, connection.id).map((r) => r.to)
    expect(sent).toHaveLength(5)
    expect(new Set(sent).size).toBe(5)
    expect((await admin.get(`/campaigns/${id}`)).body.status).toBe('FINALIZADA')
  })

  test('a cancelled campaign saved again is scheduled again: at its time the edited message goes to the rest, no one twice', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 10, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const list = makeContactList(h, h.a.id, people(5))
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, 12 * SEC)
    expect((await admin.post(`/campaigns/${id}/cancel`)).body.status).toBe('CANCELADA')
    const before = outbound(h, connection.id)
    expect(before.length).toBeGreaterThan(0)
    expect(before.length).toBeLessThan(5)
    // Spec 2: "a cancelled campaign can still be saved": edited, with a new time, it is PROGRAMADA again.
    const saved = await admin.put(`/campaigns/${id}`, {
      name: 'Black Friday (de novo)',
      message1: 'Nova oferta, {nome}',
      whatsappId: connection.id,
      contactListId: list,
      scheduledAt: new Date(h.clock.now() + 2 * HOUR).toISOString(),
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toMatchObject({ status: 'PROGRAMADA', name: 'Black Friday (de novo)', editable: true })
    await advance(h, HOUR, 30 * SEC)
    expect(outbound(h, connection.id)).toHaveLength(before.length)
    await advance(h, HOUR + 3 * MIN, 30 * SEC)
    await advance(h, 2 * MIN)
    const sent = outbound(h, connection.id)
    expect(sent).toHaveLength(5)
    expect(new Set(sent.map((r) => r.to)).size).toBe(5)
    expect(sent.slice(before.length).every((r) => r.body?.startsWith('Nova oferta'))).toBe(true)
    // (Read from the row: the admin's access token has expired in the two hours the clock moved.)
    expect(h.deps.sqlite.query('SELECT status FROM campaigns WHERE id = ?').get(id)).toEqual({
      status: 'FINALIZADA',
    })
  })

  test('confirmation: the confirmation goes first, a reply releases the message; no reply expires', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h, { confirmationWaitMs: HOUR })
    const list = makeContactList(h, h.a.id, [
      { name: 'Ana', number: '5511999990001' },
      { name: 'Bia', number: '5511999990002' },
    ])
    const id = await startNow(admin, h, {
      whatsappId: connection.id,
      contactListId: list,
      confirmation: true,
      confirmationMessage1: 'Oi {nome}, posso mandar a oferta?',
      message1: 'Oferta para {nome}',
    })
    await advance(h, 30 * SEC)
    expect(outbound(h, connection.id).map((r) => r.body)).toEqual([
      'Oi Ana, posso mandar a oferta?',
      'Oi Bia, posso mandar a oferta?',
    ])
    let body = (await admin.get(`/campaigns/${id}`)).body
    expect(body.counts).toMatchObject({ confirmationRequested: 2, confirmed: 0, delivered: 0 })
    const reply = await admin.post(`/sandbox/connections/${connection.id}/inbound`, {
      from: '5511999990001',
      body: 'Sim!',
    })
    expect(reply.status).toBe(201)
    await advance(h, 30 * SEC)
    expect(outbound(h, connection.id).map((r) => r.body)).toEqual([
      'Oi Ana, posso mandar a oferta?',
      'Oi Bia, posso mandar a oferta?',
      'Oferta para Ana',
    ])
    body = (await admin.get(`/campaigns/${id}`)).body
    expect(body.counts).toMatchObject({ confirmationRequested: 2, confirmed: 1, delivered: 1 })
    expect(body.status).toBe('EM_ANDAMENTO') // Bia may still answer
    await advance(h, HOUR, 60 * SEC)
    body = (await (await h.as(h.a.admin)).get(`/campaigns/${id}`)).body
    expect(body.status).toBe('FINALIZADA')
    expect(shippings(h, id).map((s) => s.state)).toEqual(['delivered', 'expired'])
  })

  test('the daily cap holds (warm-up: 50 on day one) and the sending window waits for its hours', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0, dailyLimit: 2 })
    const { admin, connection } = await sandboxSetup(h)
    const list = makeContactList(h, h.a.id, people(3))
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, 5 * MIN, 5 * SEC)
    expect(outbound(h, connection.id)).toHaveLength(2)
    expect((await admin.get(`/campaigns/${id}`)).body.waitingReason).toBe('daily_cap')
    await advance(h, 24 * HOUR, MIN)
    expect(outbound(h, connection.id)).toHaveLength(3)
    expect((await (await h.as(h.a.admin)).get(`/campaigns/${id}`)).body.status).toBe('FINALIZADA')

    // The window: 12:00Z is 09:00 in São Paulo; a window from 10:00 to 11:00 waits an hour.
    const w = await createHarness({ sandbox: true })
    setCampaignSettings(w, w.a.id, {
      messageInterval: 0,
      longerIntervalAfter: 0,
      sendWindow: { start: '10:00', end: '11:00' },
    })
    const s = await sandboxSetup(w)
    const list2 = makeContactList(w, w.a.id, people(1))
    const start = w.clock.now()
    const id2 = await startNow(s.admin, w, { whatsappId: s.connection.id, contactListId: list2 })
    await advance(w, 30 * MIN, MIN)
    expect(outbound(w, s.connection.id)).toHaveLength(0)
    expect((await (await w.as(w.a.admin)).get(`/campaigns/${id2}`)).body.waitingReason).toBe('window')
    await advance(w, 31 * MIN, 10 * SEC)
    const sent = outbound(w, s.connection.id)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.at - start).toBeGreaterThanOrEqual(HOUR)
  })

  test('warm-up: with no dailyLimit a new number sends 50 on its first day', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const list = makeContactList(h, h.a.id, people(52))
    await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, 10 * MIN, 2 * SEC)
    expect(outbound(h, connection.id)).toHaveLength(50)
  })

  test('a restriction (463) pauses the campaign with its reason; an admin resumes it', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const list = makeContactList(h, h.a.id, people(3))
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, 3 * SEC, 100)
    expect(outbound(h, connection.id)).toHaveLength(1)
    for (const junk of [{}, { on: 'yes' }, [], null, { on: 1 }])
      expect((await admin.post(`/sandbox/connections/${connection.id}/restrict`, junk)).status).toBe(400)
    expect((await admin.post(`/sandbox/connections/${connection.id}/restrict`, { on: true })).status).toBe(
      200,
    )
    await advance(h, MIN)
    let body = (await admin.get(`/campaigns/${id}`)).body
    expect(body.status).toBe('EM_ANDAMENTO')
    expect(body.pausedReason).toBe('restricted')
    expect(body.pausedDetail).toContain('463')
    expect(outbound(h, connection.id)).toHaveLength(1)
    await advance(h, 10 * MIN, MIN)
    expect(outbound(h, connection.id)).toHaveLength(1)
    const again = await h.as(h.a.admin)
    await again.post(`/sandbox/connections/${connection.id}/restrict`, { on: false })
    const resumed = await again.post(`/campaigns/${id}/resume`)
    expect(resumed.status).toBe(200)
    expect(resumed.body.pausedReason).toBeNull()
    await advance(h, MIN)
    body = (await again.get(`/campaigns/${id}`)).body
    expect(body.status).toBe('FINALIZADA')
    expect(new Set(outbound(h, connection.id).map((r) => r.to)).size).toBe(3)
    expect(outbound(h, connection.id)).toHaveLength(3)
  })

  test('a disconnected connection pauses sending without losing anything', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const list = makeContactList(h, h.a.id, people(3))
    await h.deps.sandboxNetwork!.simulateDisconnect(connection.id, 440)
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, MIN)
    expect(outbound(h, connection.id)).toHaveLength(0)
    expect((await admin.get(`/campaigns/${id}`)).body.waitingReason).toBe('disconnected')
    // The connection comes back (the sandbox keeps its credentials after a 440).
    const row = h.db.select().from(whatsapps).where(eq(whatsapps.id, connection.id)).get()!
    await h.deps.channels.start(row)
    await advance(h, 2 * SEC)
    expect(h.deps.channels.session(connection.id)?.status).toBe('CONNECTED')
    await advance(h, 2 * MIN)
    expect(outbound(h, connection.id)).toHaveLength(3)
    expect((await admin.get(`/campaigns/${id}`)).body.status).toBe('FINALIZADA')
  })

  test('cap and window set by an admin through POST /campaign-settings drive the runner (a window across midnight)', async () => {
    const h = await createHarness({ sandbox: true })
    const { admin, connection } = await sandboxSetup(h)
    // 12:00Z is 09:00 in São Paulo: outside a 22:00-06:00 window, which crosses midnight.
    const saved = await admin.post('/campaign-settings', {
      settings: {
        messageInterval: 0,
        longerIntervalAfter: 0,
        dailyLimit: 2,
        sendWindow: { start: '22:00', end: '06:00' },
      },
    })
    expect(saved.status).toBe(200)
    const list = makeContactList(h, h.a.id, people(3))
    const start = h.clock.now()
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list })
    await advance(h, 12 * HOUR, MIN)
    expect(outbound(h, connection.id)).toHaveLength(0)
    expect((await (await h.as(h.a.admin)).get(`/campaigns/${id}`)).body.waitingReason).toBe('window')
    // 22:00: the window opens; the cap of 2 holds until the day turns.
    await advance(h, HOUR + 10 * MIN, 10 * SEC)
    let sent = outbound(h, connection.id)
    expect(sent).toHaveLength(2)
    expect(sent.every((r) => r.at - start >= 13 * HOUR)).toBe(true)
    expect((await (await h.as(h.a.admin)).get(`/campaigns/${id}`)).body.waitingReason).toBe('daily_cap')
    await advance(h, HOUR + 40 * MIN, MIN)
    expect(outbound(h, connection.id)).toHaveLength(2)
    // 00:00 São Paulo: a new day, still inside the window (it crosses midnight): the third goes.
    await advance(h, 30 * MIN, 10 * SEC)
    sent = outbound(h, connection.id)
    expect(sent).toHaveLength(3)
    expect(sent[2]!.at - start).toBeGreaterThanOrEqual(15 * HOUR)
    expect(sent[2]!.at - start).toBeLessThan(15 * HOUR + 10 * MIN)
    expect((await (await h.as(h.a.admin)).get(`/campaigns/${id}`)).body.status).toBe('FINALIZADA')
  })

  test('file list: after each main message its options with a file go, the option name as caption', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 10, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const fileListId = makeFileList(h, h.a.id, [
      { name: 'Frente', file: { mime: 'image/png', name: 'frente.png' } },
      { name: 'Sem arquivo' },
      { name: 'Tabela de preços', file: { mime: 'application/pdf', name: 'precos.pdf' } },
    ])
    const list = makeContactList(h, h.a.id, people(2))
    const id = await startNow(admin, h, {
      whatsappId: connection.id,
      contactListId: list,
      fileListId,
      message1: 'Oferta para {nome}',
    })
    await advance(h, 2 * MIN)
    const sent = everything(h, connection.id)
    const [p1, p2] = shippings(h, id)
    const to1 = `${p1!.number}@s.whatsapp.net`
    const to2 = `${p2!.number}@s.whatsapp.net`
    expect(sent.map((r) => [r.to, r.kind, r.body])).toEqual([
      [to1, 'text', 'Oferta para Pessoa 1'],
      [to1, 'image', 'Frente'],
      [to1, 'document', 'Tabela de preços'],
      [to2, 'text', 'Oferta para Pessoa 2'],
      [to2, 'image', 'Frente'],
      [to2, 'document', 'Tabela de preços'],
    ])
    expect(sent[2]!.media?.fileName).toBe('precos.pdf')
    expect(sent[1]!.at - sent[0]!.at).toBe(FILE_GAP_MS)
    // Paced as one send: the next contact's wait (random() = 0.5: 5 s) counts from the last file.
    expect(sent[3]!.at - sent[2]!.at).toBe(5 * SEC)
    expect(shippings(h, id).map((s) => [s.state, s.error])).toEqual([
      ['delivered', null],
      ['delivered', null],
    ])
    expect((await admin.get(`/campaigns/${id}`)).body.status).toBe('FINALIZADA')
  })

  test('file list, exactly once: a kill between the message and its files never resends either; a missing file is reported', async () => {
    const h = await createHarness({ sandbox: true })
    setCampaignSettings(h, h.a.id, { messageInterval: 0, longerIntervalAfter: 0 })
    const { admin, connection } = await sandboxSetup(h)
    const fileListId = makeFileList(h, h.a.id, [
      { name: 'Frente', file: { mime: 'image/png', name: 'frente.png' } },
      { name: 'Verso', file: { mime: 'image/png', name: 'verso.png' } },
    ])
    const list = makeContactList(h, h.a.id, people(3))
    const id = await startNow(admin, h, { whatsappId: connection.id, contactListId: list, fileListId })
    // Until the first main message went, while its files wait their gap.
    for (let i = 0; i < 200 && everything(h, connection.id).length < 1; i++) await h.clock.tick(100)
    expect(everything(h, connection.id).map((r) => r.kind)).toEqual(['text'])
    // The process dies there: a runner rebuilt over the same database.
    const runner = resetCampaignRunner(h.deps, { random: () => 0.5 })
    await runner.start()
    // Meanwhile a file of the list disappears from the disk.
    const verso = h.deps.sqlite
      .query<{ path: string }, []>(`SELECT path FROM file_options WHERE name = 'Verso'`)
      .get()!.path
    await Bun.file(`${h.deps.mediaDir}/${h.a.id}/${verso}`).delete()
    await advance(h, 2 * MIN)
    const rows = shippings(h, id)
    expect(rows[0]!.state).toBe('failed')
    expect(rows[0]!.error).toContain('ERR_SEND_INTERRUPTED')
    const sent = everything(h, connection.id)
    const to = (n: number) => `${rows[n]!.number}@s.whatsapp.net`
    // The first contact got its message once and nothing after; the others their message and the file left.
    expect(sent.filter((r) => r.to === to(0)).map((r) => r.kind)).toEqual(['text'])
    for (const n of [1, 2]) {
      expect(sent.filter((r) => r.to === to(n)).map((r) => [r.kind, r.body ?? null])).toEqual([
        ['text', expect.any(String)],
        ['image', 'Frente'],
      ])
      expect(rows[n]!.state).toBe('delivered')
      expect(rows[n]!.error).toBe('ERR_CAMPAIGN_FILES: Verso: the file is missing')
    }
    expect((await (await h.as(h.a.admin)).get(`/campaigns/${id}`)).body.status).toBe('FINALIZADA')
  })
})
