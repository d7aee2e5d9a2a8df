/**
 * The dispatcher's rules, with scripted bots registered for the test: which bot a ticket gets (queue, else
 * connection; integration over prompt), a message handed once, one message at a time per ticket, an attendant
 * taking over stops the bot (even mid-answer), the menu handing a ticket on to a queue with a bot.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../../test/harness'
import { startChatbot } from '../chatbot'
import { botDispatcherOf, botTargetOf, registerBot } from './dispatch'
import type { BotAnswer, BotTurn, ExternalBot } from './types'

const undo: (() => void)[] = []
afterEach(() => {
  for (const u of undo.splice(0)) u()
})

/** A bot whose answers the test resolves by hand (`next`), recording each turn. */
function scriptedBot(kind: string) {
  const turns: BotTurn[] = []
  const pending: ((a: BotAnswer) => void)[] = []
  const bot: ExternalBot = {
    kind,
    answer: (_deps, turn, signal) =>
      new Promise<BotAnswer>((resolve, reject) => {
        turns.push(turn)
        pending.push(resolve)
        signal.addEventListener('abort', () => reject(signal.reason))
      }),
  }
  undo.push(registerBot(kind, bot))
  return {
    turns,
    /** Answers the oldest turn still waiting. */
    next: (answer: BotAnswer) => pending.shift()?.(answer),
    get waiting() {
      return pending.length
    },
  }
}

const MONDAY_10 = Date.parse('2026-11-23T13:00:00Z')

/** An integration row of company B (what a queue of A must never reach). */
function h2Integration(t: { h: Harness }): number {
  const now = t.h.clock.now()
  return t.h.deps.sqlite
    .query<{ id: number }, [number, number, number]>(
      `INSERT INTO queue_integrations (company_id, type, name, url_n8n, created_at, updated_at)
       VALUES (?, 'webhook', 'Alheia', 'http://127.0.0.1:9/y', ?, ?) RETURNING id`,
    )
    .get(t.h.b.id, now, now)!.id
}

async function setup(
  queueFields: { integration?: boolean; prompt?: boolean } = {},
  connection: Record<string, unknown> = {},
) {
  const h = await createHarness({ sandbox: true })
  h.clock.set(MONDAY_10)
  const bot = startChatbot(h.deps)
  const dispatcher = botDispatcherOf(h.deps)
  const admin = await h.as(h.a.admin)
  const integration = (
    await admin.post('/queueIntegration', { type: 'webhook', name: 'Gancho', urlN8N: 'http://127.0.0.1:9/x' })
  ).body as { id: number }
  const queue = h.makeQueue(h.a.id, {
    name: 'Robô',
    integrationId: queueFields.integration ? integration.id : null,
    promptId: queueFields.prompt ? 77 : null,
  })
  const conn = (
    await admin.post('/whatsapp', {
      name: 'Atendimento',
      provider: 'sandbox',
      greetingMessage: 'Olá! Escolha:',
      queueIds: [queue.id],
      ...connection,
    })
  ).body as { id: number }
  await admin.post(`/sandbox/connections/${conn.id}/pair`)
  return { h, admin, bot, dispatcher, queue, conn, integration }
}
type T = Awaited<ReturnType<typeof setup>>

async function settle(t: T, rounds = 10) {
  for (let i = 0; i < rounds; i++) {
    await t.bot.runner.idle()
    await Bun.sleep(2)
    await t.h.clock.tick(1)
  }
}

async function write(t: T, body: string) {
  const res = (await t.h.deps.sandboxNetwork!.inject(t.conn.id, {
    from: '5511988887777',
    name: 'Maria',
    body,
  })) as {
    id: string
  }
  await settle(t)
  return res
}

const received = (t: T) => t.h.deps.sandboxNetwork!.outbound(t.conn.id).map((o) => o.body)

function ticketOf(h: Harness) {
  return h.deps.sqlite
    .query<
      {
        id: number
        status: string
        queueId: number | null
        userId: number | null
        chatbot: number
        contactId: number
        whatsappId: number
        companyId: number
        isGroup: number
        createdAt: number
      },
      [number]
    >(
      `SELECT id, status, queue_id AS queueId, user_id AS userId, chatbot, contact_id AS contactId,
              whatsapp_id AS whatsappId, company_id AS companyId, is_group AS isGroup, created_at AS createdAt
         FROM tickets WHERE company_id = ? ORDER BY id DESC LIMIT 1`,
    )
    .get(h.a.id)!
}

const lastCustomerMessage = (h: Harness, ticketId: number) =>
  h.deps.sqlite
    .query<{ id: number; body: string }, [number]>(
      'SELECT id, body FROM messages WHERE ticket_id = ? AND from_me = 0 ORDER BY id DESC LIMIT 1',
    )
    .get(ticketId)!

describe('bot dispatcher', () => {
  test('which bot: the queue integration wins over a prompt; none leaves the menu', async () => {
    const webhook = scriptedBot('webhook')
    const t = await setup({ integration: true, prompt: true })
    expect(
      botTargetOf(t.h.deps.sqlite, { companyId: t.h.a.id, queueId: t.queue.id, whatsappId: t.conn.id }),
    ).toEqual({
      kind: 'webhook',
      botId: t.integration.id,
    })
    // without the integration, the prompt answers (a scripted one in place of prompts/bot.ts)
    t.h.deps.sqlite.query('UPDATE queues SET integration_id = NULL WHERE id = ?').run(t.queue.id)
    const prompt = scriptedBot('prompt')
    expect(
      botTargetOf(t.h.deps.sqlite, { companyId: t.h.a.id, queueId: t.queue.id, whatsappId: t.conn.id }),
    ).toEqual({
      kind: 'prompt',
      botId: 77,
    })
    await write(t, 'Oi')
    expect(prompt.turns.map((x) => x.text)).toEqual(['Oi'])
    expect(webhook.turns).toEqual([])
    prompt.next({ replies: [{ body: 'Sou a IA' }] })
    await settle(t)
    expect(received(t)).toEqual(['Sou a IA'])
    // neither: no bot (the menu's); an integration of another company is none either
    t.h.deps.sqlite.query('UPDATE queues SET prompt_id = NULL WHERE id = ?').run(t.queue.id)
    const where = { companyId: t.h.a.id, queueId: t.queue.id, whatsappId: t.conn.id }
    expect(botTargetOf(t.h.deps.sqlite, where)).toBeNull()
    const foreign = h2Integration(t)
    t.h.deps.sqlite.query('UPDATE queues SET integration_id = ? WHERE id = ?').run(foreign, t.queue.id)
    expect(botTargetOf(t.h.deps.sqlite, where)).toBeNull()
  })

  test("the plan's flags hold at run time: without useIntegrations or useOpenAi that bot does not answer", async () => {
    const webhook = scriptedBot('webhook')
    scriptedBot('prompt')
    const t = await setup({ integration: true, prompt: true })
    const where = { companyId: t.h.a.id, queueId: t.queue.id, whatsappId: t.conn.id }
    const planId = t.h.deps.sqlite
      .query<{ planId: number }, [number]>('SELECT plan_id AS planId FROM companies WHERE id = ?')
      .get(t.h.a.id)!.planId
    const setFlags = (integrations: boolean, openAi: boolean) =>
      t.h.deps.sqlite
        .query('UPDATE plans SET use_integrations = ?, use_open_ai = ? WHERE id = ?')
        .run(integrations ? 1 : 0, openAi ? 1 : 0, planId)
    setFlags(false, true)
    expect(botTargetOf(t.h.deps.sqlite, where)).toEqual({ kind: 'prompt', botId: 77 })
    setFlags(false, false)
    expect(botTargetOf(t.h.deps.sqlite, where)).toBeNull()
    // the customer gets the menu, and the integration is never called
    await write(t, 'Oi')
    expect(webhook.turns).toEqual([])
    expect(received(t)).toContain('Olá! Escolha:')
    setFlags(true, false)
    expect(botTargetOf(t.h.deps.sqlite, where)).toEqual({ kind: 'webhook', botId: t.integration.id })
  })

  test('a connection-level prompt answers a ticket without a queue', async () => {
    const prompt = scriptedBot('prompt')
    const h = await createHarness({ sandbox: true })
    h.clock.set(MONDAY_10)
    const bot = startChatbot(h.deps)
    const admin = await h.as(h.a.admin)
    const conn = (await admin.post('/whatsapp', { name: 'IA', provider: 'sandbox', greetingMessage: 'Menu' }))
      .body as { id: number }
    h.deps.sqlite.query('UPDATE whatsapps SET prompt_id = 5 WHERE id = ?').run(conn.id)
    await admin.post(`/sandbox/connections/${conn.id}/pair`)
    const t = { h, admin, bot, dispatcher: botDispatcherOf(h.deps), conn } as unknown as T
    await write(t, 'Olá')
    expect(prompt.turns).toMatchObject([{ text: 'Olá', queueId: null, botId: 5 }])
    prompt.next({ replies: [{ body: 'Oi, sou a IA' }], action: 'handoff' })
    await settle(t)
    expect(received(t)).toEqual(['Oi, sou a IA'])
  })

  test('a connection-level integration answers a ticket without a queue (and wins over its prompt)', async () => {
    const webhook = scriptedBot('webhook')
    const prompt = scriptedBot('prompt')
    const h = await createHarness({ sandbox: true })
    h.clock.set(MONDAY_10)
    const bot = startChatbot(h.deps)
    const admin = await h.as(h.a.admin)
    const integration = (
      await admin.post('/queueIntegration', {
        type: 'webhook',
        name: 'Gancho',
        urlN8N: 'http://127.0.0.1:9/x',
      })
    ).body as { id: number }
    const conn = (
      await admin.post('/whatsapp', {
        name: 'Bot',
        provider: 'sandbox',
        greetingMessage: 'Menu',
        integrationId: integration.id,
      })
    ).body as { id: number; integrationId: number }
    expect(conn.integrationId).toBe(integration.id)
    h.deps.sqlite.query('UPDATE whatsapps SET prompt_id = 5 WHERE id = ?').run(conn.id)
    await admin.post(`/sandbox/connections/${conn.id}/pair`)
    const t = { h, admin, bot, dispatcher: botDispatcherOf(h.deps), conn } as unknown as T
    await write(t, 'Olá')
    expect(webhook.turns).toMatchObject([{ text: 'Olá', queueId: null, botId: integration.id }])
    expect(prompt.turns).toEqual([])
    webhook.next({ replies: [{ body: 'Oi!' }] })
    await settle(t)
    expect(received(t)).toEqual(['Oi!'])
  })

  test('a message is handed once (the live path and a replay); one at a time per ticket, in order', async () => {
    const webhook = scriptedBot('webhook')
    const t = await setup({ integration: true })
    await write(t, 'primeira')
    await write(t, 'segunda')
    // the second waits for the first's answer
    expect(webhook.turns.map((x) => x.text)).toEqual(['primeira'])
    const ticket = ticketOf(t.h)
    const last = lastCustomerMessage(t.h, ticket.id)
    // a replay of both messages (the boot catch-up, a duplicate delivery): nothing is handed again
    for (const m of [last, { id: last.id - 1, body: 'primeira' }])
      t.bot.runner.handle({ ticketId: ticket.id, messageId: m.id, text: m.body, ticketCreated: false })
    webhook.next({ replies: [{ body: 'R1' }] })
    await settle(t)
    expect(webhook.turns.map((x) => x.text)).toEqual(['primeira', 'segunda'])
    webhook.next({ replies: [{ body: 'R2' }] })
    await settle(t)
    expect(received(t)).toEqual(['R1', 'R2'])
    expect(webhook.waiting).toBe(0)
    expect(webhook.turns).toHaveLength(2)
    const claimed = t.h.deps.sqlite
      .query<{ lastMessageId: number }, [number]>(
        'SELECT last_message_id AS lastMessageId FROM bot_sessions WHERE ticket_id = ?',
      )
      .get(ticket.id)
    expect(claimed?.lastMessageId).toBe(last.id)
  })

  test('an attendant accepting the ticket stops the bot, even with an answer on its way', async () => {
    const webhook = scriptedBot('webhook')
    const t = await setup({ integration: true })
    await write(t, 'Oi')
    expect(webhook.turns).toHaveLength(1)
    const ticket = ticketOf(t.h)
    const agent = await t.h.as(t.h.a.admin)
    expect((await agent.put(`/tickets/${ticket.id}`, { status: 'open' })).status).toBe(200)
    webhook.next({ replies: [{ body: 'tarde demais' }], action: 'close' })
    await settle(t)
    expect(received(t)).toEqual([])
    expect(ticketOf(t.h)).toMatchObject({ status: 'open', chatbot: 0 })
    const session = t.h.deps.sqlite
      .query<{ status: string }, [number]>('SELECT status FROM bot_sessions WHERE ticket_id = ?')
      .get(ticket.id)
    expect(session?.status).toBe('finished')
    // the customer's next messages are the attendant's
    await write(t, 'ainda aí?')
    expect(webhook.turns).toHaveLength(1)
  })

  test('the bot ignoring the abort: the timeout falls back all the same; a late answer is not sent', async () => {
    const turns: BotTurn[] = []
    let late: ((a: BotAnswer) => void) | undefined
    undo.push(
      registerBot('webhook', {
        kind: 'webhook',
        answer: (_d, turn) =>
          new Promise((resolve) => {
            turns.push(turn)
            late = resolve
          }),
      }),
    )
    const t = await setup({ integration: true })
    await write(t, 'Oi')
    await t.h.clock.tick(10_000)
    await t.dispatcher.idle()
    late?.({ replies: [{ body: 'atrasado' }] })
    await settle(t)
    expect(received(t)).toEqual([])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.queue.id, chatbot: 0 })
  })

  /** A connection whose menu offers two queues, Vendas (1) and a second one (2) with the webhook when asked. */
  async function menuOfTwo(secondHasBot: boolean) {
    const h = await createHarness({ sandbox: true })
    h.clock.set(MONDAY_10)
    const bot = startChatbot(h.deps)
    const admin = await h.as(h.a.admin)
    const integration = (
      await admin.post('/queueIntegration', {
        type: 'webhook',
        name: 'Gancho',
        urlN8N: 'http://127.0.0.1:9/x',
      })
    ).body as { id: number }
    const sales = h.makeQueue(h.a.id, { name: 'Vendas', orderQueue: 1 })
    const second = h.makeQueue(h.a.id, {
      name: 'Robô',
      orderQueue: 2,
      integrationId: secondHasBot ? integration.id : null,
    })
    const conn = (
      await admin.post('/whatsapp', {
        name: 'Atendimento',
        provider: 'sandbox',
        greetingMessage: 'Escolha:',
        queueIds: [sales.id, second.id],
      })
    ).body as { id: number }
    await admin.post(`/sandbox/connections/${conn.id}/pair`)
    const t = { h, admin, bot, dispatcher: botDispatcherOf(h.deps), conn } as unknown as T
    return { t, h, admin, integration, sales, second }
  }

  test('the menu moving a ticket to a queue with a bot: the bot takes the next message', async () => {
    const webhook = scriptedBot('webhook')
    const { t, h, second } = await menuOfTwo(true)
    await write(t, 'Oi')
    expect(received(t)[0]).toContain('Escolha:')
    await write(t, '2')
    expect(ticketOf(h)).toMatchObject({ queueId: second.id, status: 'pending' })
    expect(webhook.turns).toEqual([])
    await write(t, 'quero comprar')
    expect(webhook.turns.map((x) => x.text)).toEqual(['quero comprar'])
  })

  test('a bot given to a queue later takes its waiting tickets at once, with no restart', async () => {
    const webhook = scriptedBot('webhook')
    const { t, h, admin, integration, sales } = await menuOfTwo(false)
    await write(t, 'Oi')
    await write(t, '1')
    expect(ticketOf(h)).toMatchObject({ queueId: sales.id, status: 'pending' })
    await write(t, 'alguém aí?')
    expect(webhook.turns).toEqual([])
    const saved = await admin.put(`/queue/${sales.id}`, {
      name: 'Vendas',
      color: sales.color,
      integrationId: integration.id,
    })
    expect(saved.status).toBe(200)
    await write(t, 'quero comprar')
    expect(webhook.turns.map((x) => x.text)).toEqual(['quero comprar'])
  })
})
