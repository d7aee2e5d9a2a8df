import { describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../../test/harness'
import { outboundSender } from '../messages/outbound'
import { catchUp } from './catchup'
import { startChatbot } from './index'
import { ChatbotRunner } from './runner'

/** Monday 2026-11-23 10:00 in São Paulo. */
const MONDAY_10 = Date.parse('2026-11-23T13:00:00Z')
const CUSTOMER = '5511988887777'
const MENU =
  'Olá Maria, escolha um setor:\n\n*[ 1 ]* - Vendas\n*[ 2 ]* - Suporte\n\nDigite *Sair* para falar com um atendente.'

/** A paired sandbox connection of company A with a greeting and two queues; the bot started unless told not to. */
async function setup(options: { bot?: boolean; connection?: Record<string, unknown> } = {}) {
  const h = await createHarness({ sandbox: true })
  h.clock.set(MONDAY_10)
  if (options.bot !== false) startChatbot(h.deps)
  const admin = await h.as(h.a.admin)
  const sales = h.makeQueue(h.a.id, { name: 'Vendas', greetingMessage: 'Vendas, {{ms}}!', orderQueue: 1 })
  const support = h.makeQueue(h.a.id, { name: 'Suporte', greetingMessage: 'Suporte técnico', orderQueue: 2 })
  const created = await admin.post('/whatsapp', {
    name: 'Atendimento',
    provider: 'sandbox',
    greetingMessage: 'Olá {{firstName}}, escolha um setor:',
    queueIds: [sales.id, support.id],
    ...options.connection,
  })
  expect(created.status).toBe(201)
  const conn = created.body as { id: number }
  await admin.post(`/sandbox/connections/${conn.id}/pair`)
  return { h, admin, sales, support, conn }
}

type Ctx = Awaited<ReturnType<typeof setup>>

/** The virtual customer writes; the message is stored (by the inbound pipeline) whether or not a bot listens. */
async function write(t: Ctx, body: string, from = CUSTOMER) {
  await t.h.deps.sandboxNetwork!.inject(t.conn.id, { from, name: 'Maria Souza', body })
  await t.h.clock.tick(10)
}

/** A boot: a new bot over the same database (its catch-up runs), then the sender's resume, as serve.ts does. */
async function boot(t: Ctx) {
  const bot = startChatbot(t.h.deps)
  await outboundSender(t.h.deps).resume()
  await t.h.clock.tick(10)
  return bot
}

/** The process dies: the bot stops listening, so what is stored next is never handed to it. */
function die(t: Ctx) {
  startChatbot(t.h.deps).stop()
}

/** What this customer received (the sandbox addresses them by number or by LID). */
async function bodies(t: Ctx, from = CUSTOMER) {
  const contact = t.h.deps.sqlite
    .query<{ lid: string | null }, [string]>('SELECT lid FROM contacts WHERE number = ?')
    .get(from)
  const jids = [`${from}@s.whatsapp.net`, `${contact?.lid}@lid`]
  return (await t.h.deps.sandboxNetwork!.outbound(t.conn.id))
    .filter((o) => jids.includes(o.to))
    .map((o) => o.body)
}

function ticketOf(h: Harness) {
  return h.deps.sqlite
    .query<{ id: number; status: string; queueId: number | null; chatbot: number }, [number]>(
      `SELECT id, status, queue_id AS queueId, chatbot FROM tickets WHERE company_id = ? ORDER BY id DESC LIMIT 1`,
    )
    .get(h.a.id)!
}

function newestCustomerMessage(h: Harness, ticketId: number) {
  return h.deps.sqlite
    .query<{ id: number; body: string }, [number]>(
      'SELECT id, body FROM messages WHERE ticket_id = ? AND from_me = 0 ORDER BY id DESC LIMIT 1',
    )
    .get(ticketId)!
}

describe('boot catch-up', () => {
  test('a message stored before the process died is answered once at the next boot', async () => {
    const t = await setup()
    die(t)
    await write(t, 'Oi, boa tarde')
    expect(await bodies(t)).toEqual([])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: null, chatbot: 0 })

    const bot = await boot(t)
    expect(bot.caughtUp).toMatchObject({ tickets: 1, messages: 1 })
    expect(bot.caughtUp.answers).toHaveLength(1)
    expect(await bodies(t)).toEqual([MENU])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: null, chatbot: 1 })

    // booting again answers nothing more
    bot.stop()
    const again = await boot(t)
    expect(again.caughtUp).toMatchObject({ tickets: 0, messages: 0 })
    expect(await bodies(t)).toEqual([MENU])

    // and the conversation goes on live
    await write(t, '1')
    await again.runner.idle()
    await t.h.clock.tick(10)
    expect(await bodies(t)).toEqual([MENU, 'Vendas, Bom dia!'])
    expect(ticketOf(t.h)).toMatchObject({ queueId: t.sales.id, chatbot: 0 })
  })

  test('several lost messages are replayed in order, as the live path would have', async () => {
    const t = await setup()
    die(t)
    await write(t, 'oi')
    await write(t, '1')
    const bot = await boot(t)
    expect(bot.caughtUp).toMatchObject({ tickets: 1, messages: 2 })
    expect(await bodies(t)).toEqual([MENU, 'Vendas, Bom dia!'])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.sales.id, chatbot: 0 })
  })

  test('a lost message in the middle of a conversation continues it', async () => {
    const t = await setup()
    await write(t, 'oi')
    await startChatbot(t.h.deps).runner.idle()
    await t.h.clock.tick(10)
    expect(await bodies(t)).toEqual([MENU])
    die(t)
    await write(t, '2')
    await boot(t)
    expect(await bodies(t)).toEqual([MENU, 'Suporte técnico'])
    expect(ticketOf(t.h)).toMatchObject({ queueId: t.support.id })
  })

  test('the catch-up and the live path racing for the same message answer it once', async () => {
    const t = await setup()
    die(t)
    await write(t, 'oi')
    const ticket = ticketOf(t.h)
    const message = newestCustomerMessage(t.h, ticket.id)
    const live = { ticketId: ticket.id, messageId: message.id, text: message.body, ticketCreated: true }

    // the live path queued it, the catch-up gets there first
    const runner = new ChatbotRunner(t.h.deps)
    runner.enqueue(live)
    expect(catchUp(t.h.deps, runner).answers).toHaveLength(1)
    await runner.idle()
    // the live path first, then the catch-up (of another process over the same rows)
    expect(runner.handle(live)).toEqual([])
    expect(catchUp(t.h.deps, new ChatbotRunner(t.h.deps)).answers).toEqual([])
    await outboundSender(t.h.deps).resume()
    await t.h.clock.tick(10)
    expect(await bodies(t)).toEqual([MENU])
  })

  test('pending tickets of a database older than the bot are not greeted', async () => {
    // the database before the bot: a customer wrote, the ticket waits without a queue
    const t = await setup({ bot: false })
    await write(t, 'oi, alguém?')
    const old = ticketOf(t.h)
    expect(old).toMatchObject({ status: 'pending', queueId: null })

    // the bot's first start: its watermark is the newest message, nothing before it is answered
    const bot = await boot(t)
    expect(bot.caughtUp).toMatchObject({ tickets: 0, messages: 0 })
    expect(await bodies(t)).toEqual([])
    const mark = t.h.deps.sqlite
      .query<{ messageId: number }, []>('SELECT message_id AS messageId FROM chatbot_catch_up')
      .get()
    expect(mark).toEqual({ messageId: newestCustomerMessage(t.h, old.id).id })

    // nor at the next boot
    bot.stop()
    expect((await boot(t)).caughtUp.messages).toBe(0)
    expect(await bodies(t)).toEqual([])
    expect(
      t.h.deps.sqlite.query('SELECT count(*) AS n FROM chatbot_sessions WHERE ticket_id = ?').get(old.id),
    ).toEqual({ n: 0 })

    // another customer's message lost after the bot started is answered; the old ticket still is not
    die(t)
    await write(t, 'oi', '5511977776666')
    expect((await boot(t)).caughtUp).toMatchObject({ tickets: 1, messages: 1 })
    expect(await bodies(t, '5511977776666')).toHaveLength(1)
    expect(await bodies(t)).toEqual([])
  })

  test('a connection where the bot has nothing to say: nothing to catch up', async () => {
    const t = await setup({ connection: { greetingMessage: '', queueIds: [] } })
    die(t)
    await write(t, 'oi')
    const bot = await boot(t)
    expect(bot.caughtUp).toMatchObject({ tickets: 0, messages: 0 })
    expect(await bodies(t)).toEqual([])
  })

  test('a rating answer stored before the process died is recorded at boot; earlier messages are not taken for it', async () => {
    const t = await setup({
      connection: { ratingMessage: 'Dê uma nota', complationMessage: 'Obrigado!', expiresTicketNPS: 10 },
    })
    t.h.deps.sqlite
      .query("UPDATE settings SET value = 'enabled' WHERE company_id = ? AND key = 'userRating'")
      .run(t.h.a.id)
    const bot = startChatbot(t.h.deps)
    await write(t, 'oi')
    await write(t, '1')
    await bot.runner.idle()
    const ticket = ticketOf(t.h)
    t.h.addToQueue(t.h.a.attendantId, t.sales.id)
    const agent = await t.h.as(t.h.a.attendant)
    expect((await agent.put(`/tickets/${ticket.id}`, { status: 'open' })).status).toBe(200)
    // while open, the customer writes a number (not a rating: nobody asked yet)
    await write(t, '3')
    expect((await agent.put(`/tickets/${ticket.id}`, { status: 'closed' })).status).toBe(200)
    await t.h.clock.tick(10)
    expect((await bodies(t)).at(-1)).toContain('Dê uma nota')

    die(t)
    await write(t, '9')
    expect(t.h.deps.sqlite.query('SELECT count(*) AS n FROM user_ratings').get()).toEqual({ n: 0 })
    const again = await boot(t)
    expect(again.caughtUp).toMatchObject({ tickets: 1, messages: 1 })
    expect(t.h.deps.sqlite.query<{ rate: number }, []>('SELECT rate FROM user_ratings').all()).toEqual([
      { rate: 9 },
    ])
    expect((await bodies(t)).at(-1)).toBe('Obrigado!')
  })
})
