import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { defaultSchedules } from '../../../shared/schedules'
import { fileOptions, files, queueOptions, queues } from '../../db/schema'
import { storeMedia } from '../../media/store'
import { createHarness, type Harness } from '../../test/harness'
import { chatbotOf, startChatbot } from './index'
import { EXIT_NOTICE, RATING_HINT } from './machine'

/** Monday 2026-11-23 10:00 in São Paulo. */
const MONDAY_10 = Date.parse('2026-11-23T13:00:00Z')

/** A paired sandbox connection of company A with two queues (Vendas without options, Suporte with a tree). */
async function setup(
  connection: Record<string, unknown> | ((queues: { support: number }) => Record<string, unknown>) = {},
) {
  const h = await createHarness({ sandbox: true })
  h.clock.set(MONDAY_10)
  const bot = startChatbot(h.deps)
  const admin = await h.as(h.a.admin)
  const sales = h.makeQueue(h.a.id, { name: 'Vendas', greetingMessage: 'Vendas, {{ms}}!', orderQueue: 1 })
  const support = h.makeQueue(h.a.id, { name: 'Suporte', greetingMessage: 'Suporte técnico', orderQueue: 2 })
  const created = await admin.post('/whatsapp', {
    name: 'Atendimento',
    provider: 'sandbox',
    greetingMessage: 'Olá {{firstName}}, escolha um setor:',
    queueIds: [sales.id, support.id],
    ...(typeof connection === 'function' ? connection({ support: support.id }) : connection),
  })
  expect(created.status).toBe(201)
  const conn = created.body as { id: number }
  await admin.post(`/sandbox/connections/${conn.id}/pair`)
  return { h, admin, bot, sales, support, conn }
}

type Ctx = Awaited<ReturnType<typeof setup>>

/** The virtual customer writes (the network directly: the admin's token would expire as the clock moves). */
async function write(t: Ctx, body: string, extra: Record<string, unknown> = {}) {
  const res = await t.h.deps.sandboxNetwork!.inject(t.conn.id, {
    from: '5511988887777',
    name: 'Maria Souza',
    body,
    ...extra,
  })
  await t.bot.runner.idle()
  await t.h.clock.tick(10)
  return res as { id: string }
}

/** What the customer received (the sandbox's outbox). */
async function received(t: Ctx) {
  return t.h.deps.sandboxNetwork!.outbound(t.conn.id)
}

function ticketOf(h: Harness, id?: number) {
  const sql = `SELECT id, status, queue_id AS queueId, user_id AS userId, chatbot FROM tickets
                WHERE company_id = ? ${id ? 'AND id = ?' : ''} ORDER BY id DESC LIMIT 1`
  return h.deps.sqlite
    .query<
      { id: number; status: string; queueId: number | null; userId: number | null; chatbot: number },
      number[]
    >(sql)
    .get(...(id ? [h.a.id, id] : [h.a.id]))!
}

const setting = (h: Harness, key: string, value: string) =>
  h.deps.sqlite
    .query('UPDATE settings SET value = ? WHERE company_id = ? AND key = ?')
    .run(value, h.a.id, key)

describe('chatbot through the sandbox', () => {
  test('a customer writes, gets the menu, answers 1 and lands in the queue', async () => {
    const t = await setup()
    const res = await t.admin.post(`/sandbox/connections/${t.conn.id}/inbound`, {
      from: '5511988887777',
      name: 'Maria Souza',
      body: 'Oi, boa tarde',
    })
    expect(res.status).toBe(201)
    await t.bot.runner.idle()
    await t.h.clock.tick(10)
    let out = (await t.admin.get(`/sandbox/connections/${t.conn.id}/outbound`)).body as { body?: string }[]
    expect(out).toHaveLength(1)
    expect(out[0]!.body).toBe(
      'Olá Maria, escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte\n\nDigite *Sair* para falar com um atendente.',
    )
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: null, chatbot: 1 })

    await write(t, '1')
    out = await received(t)
    expect(out.map((o) => o.body)).toEqual([expect.stringContaining('*[ 1 ]*'), 'Vendas, Bom dia!'])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.sales.id, chatbot: 0 })
    const event = t.h.deps.sqlite
      .query<{ type: string; toQueueId: number }, [number]>(
        `SELECT type, to_queue_id AS toQueueId FROM ticket_events WHERE ticket_id = ? ORDER BY id DESC LIMIT 1`,
      )
      .get(ticketOf(t.h).id)
    expect(event).toEqual({ type: 'transferred', toQueueId: t.sales.id })

    // the bot is done: later messages get no answer
    await write(t, 'obrigada')
    expect(await received(t)).toHaveLength(2)
  })

  test('a tree: option, sub-option, 0 back, a leaf with its file', async () => {
    const t = await setup()
    const now = t.h.clock.now()
    const file = storeMedia(t.h.deps, t.h.a.id, new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]), {
      mime: 'application/pdf',
      name: 'boleto.pdf',
    })
    const base = { companyId: t.h.a.id, queueId: t.support.id, createdAt: now, updatedAt: now }
    const internet = t.h.db
      .insert(queueOptions)
      .values({ ...base, title: 'Internet', message: 'Sobre a internet:', option: '1' })
      .returning()
      .get()
    t.h.db
      .insert(queueOptions)
      .values({ ...base, parentId: internet.id, title: 'Lenta', message: 'Reinicie o modem', option: '1' })
      .run()
    t.h.db
      .insert(queueOptions)
      .values({
        ...base,
        title: 'Boleto',
        message: 'Segue o boleto, {{firstName}}',
        option: '2',
        mediaPath: file.path,
        mediaName: 'boleto.pdf',
        mediaMime: 'application/pdf',
      })
      .run()

    await write(t, 'oi')
    await write(t, '2')
    await write(t, '1')
    await write(t, '0')
    await write(t, 'xyz')
    await write(t, '2')
    await t.h.clock.tick(100)
    const out = await received(t)
    expect(out.map((o) => o.body?.split('\n')[0])).toEqual([
      'Olá Maria, escolha um setor:',
      'Suporte técnico',
      'Sobre a internet:',
      'Suporte técnico',
      'Suporte técnico',
      'Segue o boleto, Maria',
    ])
    expect(out[5]).toMatchObject({ kind: 'document', media: { fileName: 'boleto.pdf' } })
    expect(ticketOf(t.h)).toMatchObject({ queueId: t.support.id, chatbot: 0 })
  })

  test("a queue's file list: after the greeting, each file once with its option's name, with or without options", async () => {
    const t = await setup()
    const now = t.h.clock.now()
    const pdf = (name: string) =>
      storeMedia(t.h.deps, t.h.a.id, new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]), {
        mime: 'application/pdf',
        name,
      }).path
    const list = t.h.db
      .insert(files)
      .values({ companyId: t.h.a.id, name: 'Catálogo', createdAt: now, updatedAt: now })
      .returning()
      .get()
    const option = (name: string, path: string | null) => ({
      fileId: list.id,
      name,
      path,
      mediaType: path ? 'application/pdf' : null,
      mediaName: path ? `${name}.pdf` : null,
      createdAt: now,
      updatedAt: now,
    })
    t.h.db
      .insert(fileOptions)
      .values([
        option('Tabela de preços', pdf('precos.pdf')),
        option('Sem arquivo', null),
        option('Garantia', pdf('g.pdf')),
      ])
      .run()
    for (const id of [t.sales.id, t.support.id])
      t.h.db.update(queues).set({ fileListId: list.id }).where(eq(queues.id, id)).run()
    t.h.db
      .insert(queueOptions)
      .values({
        companyId: t.h.a.id,
        queueId: t.support.id,
        title: 'Internet',
        option: '1',
        createdAt: now,
        updatedAt: now,
      })
      .run()

    // Vendas, without options: the greeting, then the two files; the bot is done
    await write(t, 'oi')
    await write(t, '1')
    await t.h.clock.tick(100)
    let out = await received(t)
    expect(out.map((o) => o.body)).toEqual([
      expect.stringContaining('*[ 1 ]*'),
      'Vendas, Bom dia!',
      'Tabela de preços',
      'Garantia',
    ])
    expect(out[2]).toMatchObject({ kind: 'document', media: { fileName: 'Tabela de preços.pdf' } })
    expect(out[3]).toMatchObject({ kind: 'document', media: { fileName: 'Garantia.pdf' } })
    expect(ticketOf(t.h)).toMatchObject({ queueId: t.sales.id, chatbot: 0 })
    await write(t, 'obrigada')
    await t.h.clock.tick(100)
    expect(await received(t)).toHaveLength(4)
    const rows = t.h.deps.sqlite
      .query<{ n: number }, [number]>(
        "SELECT COUNT(*) AS n FROM messages WHERE ticket_id = ? AND from_me = 1 AND media_type = 'application'",
      )
      .get(ticketOf(t.h).id)
    expect(rows?.n).toBe(2)

    // Suporte, with options: its menu, then the files; repeating the menu sends them no more
    await t.h.deps.sandboxNetwork!.inject(t.conn.id, { from: '5511977776666', name: 'João', body: 'oi' })
    await t.bot.runner.idle()
    await t.h.clock.tick(10)
    await t.h.deps.sandboxNetwork!.inject(t.conn.id, { from: '5511977776666', name: 'João', body: '2' })
    await t.bot.runner.idle()
    await t.h.clock.tick(10)
    await t.h.deps.sandboxNetwork!.inject(t.conn.id, { from: '5511977776666', name: 'João', body: 'xyz' })
    await t.bot.runner.idle()
    await t.h.clock.tick(100)
    out = (await received(t)).slice(4)
    expect(out.map((o) => o.body?.split('\n')[0])).toEqual([
      expect.stringContaining('escolha um setor'),
      'Suporte técnico',
      'Tabela de preços',
      'Garantia',
      'Suporte técnico',
    ])
  })

  test("'Sair' ends the bot; the ticket waits without a queue", async () => {
    const t = await setup()
    await write(t, 'oi')
    await write(t, 'sair')
    expect((await received(t)).map((o) => o.body)).toEqual([expect.any(String), EXIT_NOTICE])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: null, chatbot: 0 })
  })

  test('an attendant moving the ticket ends the bot: no more menus', async () => {
    const t = await setup()
    await write(t, 'oi')
    const ticket = ticketOf(t.h)
    expect(ticket.chatbot).toBe(1)
    expect((await t.admin.put(`/tickets/${ticket.id}`, { queueId: t.support.id })).status).toBe(200)
    expect(ticketOf(t.h, ticket.id)).toMatchObject({ status: 'pending', queueId: t.support.id, chatbot: 0 })
    await write(t, '1')
    expect(await received(t)).toHaveLength(1)
  })

  test('the same inbound message handled twice answers once', async () => {
    const t = await setup()
    const first = await write(t, 'oi', { id: 'ABCDEF123456' })
    // WhatsApp delivers it again: the store keeps one row, the bot says nothing more
    await write(t, 'oi', { id: first.id })
    const ticket = ticketOf(t.h)
    const message = t.h.deps.sqlite
      .query<{ id: number }, [number]>('SELECT id FROM messages WHERE ticket_id = ? AND from_me = 0')
      .get(ticket.id)!
    // and the runner is handed the same message again (a replay of the queue)
    expect(
      t.bot.runner.handle({ ticketId: ticket.id, messageId: message.id, text: 'oi', ticketCreated: true }),
    ).toEqual([])
    expect(await received(t)).toHaveLength(1)
  })

  test('groups never get bot messages; a contact with disableBot is left to people', async () => {
    const t = await setup({ allowGroup: true })
    setting(t.h, 'CheckMsgIsGroup', 'disabled')
    await write(t, 'oi grupo', { group: { id: '120363000000000001', name: 'Clientes' } })
    expect(await received(t)).toHaveLength(0)
    // the company's own phone writes first (no bot for its own messages), then the contact is marked
    await write(t, 'Olá Maria, aqui é a loja', { fromMe: true })
    expect(
      t.h.deps.sqlite.query("UPDATE contacts SET disable_bot = 1 WHERE number = '5511988887777'").run()
        .changes,
    ).toBe(1)
    await write(t, 'oi')
    expect(await received(t)).toHaveLength(0)
  })

  test('out of company hours: the out-of-hours message, not the menu', async () => {
    const t = await setup({ outOfHoursMessage: 'Fechados. {{ms}}!' })
    setting(t.h, 'scheduleType', 'company')
    t.h.deps.sqlite
      .query('UPDATE companies SET schedules = ? WHERE id = ?')
      .run(JSON.stringify(defaultSchedules()), t.h.a.id)
    t.h.clock.set(Date.parse('2026-11-23T23:00:00Z')) // 20:00 local
    await write(t, 'oi')
    expect((await received(t)).map((o) => o.body)).toEqual(['Fechados. Boa noite!'])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: null })
  })

  test('hours never set are the defaults the screens show: closed on a Sunday', async () => {
    const t = await setup({ outOfHoursMessage: 'Voltamos na segunda.' })
    setting(t.h, 'scheduleType', 'company')
    expect(
      t.h.deps.sqlite
        .query<{ s: string }, [number]>('SELECT schedules AS s FROM companies WHERE id = ?')
        .get(t.h.a.id)!.s,
    ).toBe('[]')
    t.h.clock.set(Date.parse('2026-11-22T15:00:00Z')) // Sunday 12:00 local
    await write(t, 'oi')
    expect((await received(t)).map((o) => o.body)).toEqual(['Voltamos na segunda.'])
  })
})

describe('NPS', () => {
  async function closeWithRating(connection: Record<string, unknown> = {}) {
    const t = await setup({
      ratingMessage: 'Dê uma nota, {{firstName}}',
      complationMessage: 'Obrigado pela avaliação! Protocolo {{protocol}}',
      expiresTicketNPS: 10,
      maxUseBotQueuesNPS: 2,
      ...connection,
    })
    setting(t.h, 'userRating', 'enabled')
    await write(t, 'oi')
    await write(t, '1')
    const ticket = ticketOf(t.h)
    const agent = await t.h.as(t.h.a.attendant)
    t.h.addToQueue(t.h.a.attendantId, t.sales.id)
    expect((await agent.put(`/tickets/${ticket.id}`, { status: 'open' })).status).toBe(200)
    expect((await t.admin.put(`/tickets/${ticket.id}`, { status: 'closed' })).status).toBe(200)
    await t.h.clock.tick(10)
    return { ...t, ticketId: ticket.id }
  }

  test('on close the rating question; a 0-10 answer is recorded against the attendant, then the complation message', async () => {
    const t = await closeWithRating()
    let out = await received(t)
    expect(out.at(-1)!.body).toBe(`Dê uma nota, Maria\n\n${RATING_HINT}`)
    await write(t, 'muito bom')
    out = await received(t)
    expect(out.at(-1)!.body).toBe(`Dê uma nota, Maria\n\n${RATING_HINT}`)
    await write(t, '9')
    out = await received(t)
    expect(out.at(-1)!.body).toBe(`Obrigado pela avaliação! Protocolo 20261123${t.ticketId}`)
    const ratings = t.h.deps.sqlite
      .query<{ ticketId: number; userId: number; rate: number; companyId: number }, []>(
        'SELECT ticket_id AS ticketId, user_id AS userId, rate, company_id AS companyId FROM user_ratings',
      )
      .all()
    expect(ratings).toEqual([
      { ticketId: t.ticketId, userId: t.h.a.attendantId, rate: 9, companyId: t.h.a.id },
    ])
    // the answers stayed on the closed ticket; the next message opens a new one
    expect(ticketOf(t.h)).toMatchObject({ id: t.ticketId, status: 'closed' })
    await write(t, 'oi de novo')
    expect(ticketOf(t.h).id).toBeGreaterThan(t.ticketId)
  })

  test('other answers re-ask up to maxUseBotQueuesNPS questions, then let go', async () => {
    const t = await closeWithRating()
    const asked = (await received(t)).length
    await write(t, 'hmm')
    expect((await received(t)).length).toBe(asked + 1) // asked again: the second question of two
    await write(t, 'não sei')
    expect((await received(t)).length).toBe(asked + 1) // let go
    expect(ticketOf(t.h).id).toBe(t.ticketId)
    await write(t, '8')
    // too late for a rating: it opens a new ticket, which the bot greets
    expect(t.h.deps.sqlite.query('SELECT count(*) AS n FROM user_ratings').get()).toEqual({ n: 0 })
    expect(ticketOf(t.h).id).toBeGreaterThan(t.ticketId)
    expect((await received(t)).at(-1)!.body).toContain('*[ 1 ]* - Vendas')
  })

  test('an unanswered rating expires after expiresTicketNPS minutes, also across a restart', async () => {
    const t = await closeWithRating()
    await t.h.clock.tick(9 * 60_000)
    // a restart: the running bot stops; a new one is built over the same database
    t.bot.stop()
    expect(chatbotOf(t.h.deps)).toBeUndefined()
    await t.h.clock.tick(2 * 60_000)
    const again = startChatbot(t.h.deps)
    expect(
      t.h.deps.sqlite
        .query<{ node: string }, [number]>('SELECT node FROM chatbot_sessions WHERE ticket_id = ?')
        .get(t.ticketId),
    ).toEqual({ node: 'done' })
    await write({ ...t, bot: again }, '10')
    expect(t.h.deps.sqlite.query('SELECT count(*) AS n FROM user_ratings').get()).toEqual({ n: 0 })
    expect(ticketOf(t.h).id).toBeGreaterThan(t.ticketId)
  })

  test('without userRating the close sends the farewell', async () => {
    const t = await closeWithRating()
    setting(t.h, 'userRating', 'disabled')
    await write(t, '5')
    // (this answer was still taken as the rating asked before)
    await write(t, 'oi')
    const next = ticketOf(t.h)
    t.h.deps.sqlite
      .query("UPDATE tickets SET status = 'open', user_id = ? WHERE id = ?")
      .run(t.h.a.adminId, next.id)
    await t.admin.put(`/tickets/${next.id}`, { status: 'closed' })
    await t.h.clock.tick(10)
    expect((await received(t)).at(-1)!.body).toBe(`Obrigado pela avaliação! Protocolo 20261123${next.id}`)
  })
})

describe('timers', () => {
  test('redirect: a pending ticket without a queue moves to sendIdQueue after timeSendQueue minutes', async () => {
    const t = await setup((q) => ({ timeSendQueue: 5, sendIdQueue: q.support }))
    setting(t.h, 'sendMsgTransfTicket', 'enabled')
    await write(t, 'oi')
    const ticket = ticketOf(t.h)
    await t.h.clock.tick(4 * 60_000)
    expect(ticketOf(t.h, ticket.id).queueId).toBeNull()
    await t.h.clock.tick(60_000 + 30_000)
    expect(ticketOf(t.h, ticket.id)).toMatchObject({ status: 'pending', queueId: t.support.id, chatbot: 0 })
    expect((await received(t)).at(-1)!.body).toContain('*Suporte*')
    // the bot let go of it
    await write(t, '1')
    expect(ticketOf(t.h, ticket.id).queueId).toBe(t.support.id)
  })

  test('expiry: an idle open ticket closes after expiresTicket minutes with the inactivity message; after a restart too', async () => {
    const t = await setup({
      expiresTicket: 30,
      expiresInactiveMessage: 'Encerrado por inatividade, {{firstName}}.',
    })
    await write(t, 'oi')
    await write(t, '1')
    const ticket = ticketOf(t.h)
    t.h.deps.sqlite
      .query("UPDATE tickets SET status = 'open', user_id = ? WHERE id = ?")
      .run(t.h.a.adminId, ticket.id)
    await t.h.clock.tick(29 * 60_000)
    expect(ticketOf(t.h, ticket.id).status).toBe('open')
    // the server stops: no sweeps while it is down
    t.bot.stop()
    await t.h.clock.tick(60 * 60_000)
    expect(ticketOf(t.h, ticket.id).status).toBe('open')
    // a new start over the same rows catches up at once
    startChatbot(t.h.deps)
    await t.h.clock.tick(100)
    expect(ticketOf(t.h, ticket.id)).toMatchObject({ status: 'closed', userId: t.h.a.adminId })
    expect((await received(t)).at(-1)!.body).toBe('Encerrado por inatividade, Maria.')
    const closed = t.h.deps.sqlite
      .query<{ type: string; actor: number | null }, [number]>(
        'SELECT type, actor_user_id AS actor FROM ticket_events WHERE ticket_id = ? ORDER BY id DESC LIMIT 1',
      )
      .get(ticket.id)
    expect(closed).toEqual({ type: 'closed', actor: null })
  })

  test('expiresTicket 0 and timeSendQueue 0 never move anything', async () => {
    const t = await setup()
    await write(t, 'oi')
    await t.h.clock.tick(24 * 60 * 60_000)
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: null })
  })
})

describe('the call setting', () => {
  test("disabled (the default): a virtual customer's call is declined and they are told to write", async () => {
    const t = await setup()
    const res = await t.admin.post(`/sandbox/connections/${t.conn.id}/inbound`, {
      from: '5511977776666',
      call: true,
    })
    expect(res.status).toBe(201)
    await t.h.clock.tick(10)
    const out = await received(t)
    expect(out[0]).toMatchObject({
      kind: 'callReject',
      callId: res.body.id,
      to: '5511977776666@s.whatsapp.net',
    })
    expect(out[1]).toMatchObject({
      kind: 'text',
      body: expect.stringContaining('chamadas de voz e vídeo estão desabilitadas'),
    })
    const ticket = ticketOf(t.h)
    expect(ticket).toMatchObject({ status: 'pending' })
  })

  test('enabled: calls ring on the phone, nothing is done', async () => {
    const t = await setup()
    setting(t.h, 'call', 'enabled')
    await t.h.deps.sandboxNetwork!.inject(t.conn.id, { from: '5511977776666', call: true, video: true })
    await t.h.clock.tick(10)
    expect(await received(t)).toHaveLength(0)
  })

  test('a bad call flag is a 400, not a 500', async () => {
    const t = await setup()
    const res = await t.admin.post(`/sandbox/connections/${t.conn.id}/inbound`, {
      from: '5511977776666',
      call: 'yes',
    })
    expect(res.status).toBe(400)
  })
})
