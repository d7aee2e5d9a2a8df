/**
 * Each integration answering customers through the sandbox, against a local fake of its API: the dispatcher
 * (bots/dispatch.ts) hands the message, the replies reach the customer, the actions apply; timeouts and errors
 * leave the ticket pending in its queue and the customer receives nothing.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, LOCAL_FAKES_ENV } from '../../test/harness'
import { botDispatcherOf } from '../bots/dispatch'
import { startChatbot } from '../chatbot'
import { bubble, startDialogflowFake, startTypebotFake, startWebhookFake, type TypebotCall } from './testing'

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})
function track<T extends { stop: () => void }>(fake: T): T {
  stops.push(fake.stop)
  return fake
}

/** Monday 2026-11-23 10:00 in São Paulo. */
const MONDAY_10 = Date.parse('2026-11-23T13:00:00Z')

/** A paired sandbox connection of company A with one queue (so its tickets open in it) using `integration`. */
async function setup(integration: Record<string, unknown>) {
  const h = await createHarness({ sandbox: true, env: LOCAL_FAKES_ENV })
  h.clock.set(MONDAY_10)
  const bot = startChatbot(h.deps)
  const dispatcher = botDispatcherOf(h.deps)
  const admin = await h.as(h.a.admin)
  const created = await admin.post('/queueIntegration', integration)
  expect(created.status).toBe(201)
  const other = h.makeQueue(h.a.id, { name: 'Financeiro' })
  const queue = (
    await admin.post('/queue', { name: 'Robô', color: '#0ea5e9', integrationId: created.body.id })
  ).body as { id: number }
  const conn = (
    await admin.post('/whatsapp', {
      name: 'Atendimento',
      provider: 'sandbox',
      greetingMessage: 'Olá! Escolha:',
      queueIds: [queue.id],
    })
  ).body as { id: number }
  await admin.post(`/sandbox/connections/${conn.id}/pair`)
  return { h, admin, bot, dispatcher, queue, other, conn, integrationId: created.body.id as number }
}
type T = Awaited<ReturnType<typeof setup>>

/** Lets the network and the bot work (real local HTTP), moving the clock a little each round. */
async function settle(t: T, rounds = 20) {
  for (let i = 0; i < rounds; i++) {
    await t.bot.runner.idle()
    await Bun.sleep(5)
    await t.h.clock.tick(1)
  }
}

/** The customer writes; the bot answers (what it sends is in `received`). */
async function write(t: T, body: string) {
  const res = (await t.h.deps.sandboxNetwork!.inject(t.conn.id, {
    from: '5511988887777',
    name: 'Maria Souza',
    body,
  })) as { id: string }
  await settle(t)
  return res
}

const received = (t: T) => t.h.deps.sandboxNetwork!.outbound(t.conn.id).map((o) => o.body)

function ticketOf(h: Harness) {
  return h.deps.sqlite
    .query<
      { id: number; status: string; queueId: number | null; userId: number | null; chatbot: number },
      [number]
    >(
      `SELECT id, status, queue_id AS queueId, user_id AS userId, chatbot FROM tickets WHERE company_id = ?
        ORDER BY id DESC LIMIT 1`,
    )
    .get(h.a.id)!
}

function sessionOf(h: Harness, ticketId: number) {
  return h.deps.sqlite
    .query<{ status: string; externalId: string | null; kind: string }, [number]>(
      'SELECT status, external_id AS externalId, kind FROM bot_sessions WHERE ticket_id = ?',
    )
    .get(ticketId)
}

describe('webhook and n8n', () => {
  for (const type of ['webhook', 'n8n'] as const)
    test(`${type}: the message and ticket are posted; the replies are sent in order`, async () => {
      const fake = track(
        startWebhookFake((body) => ({
          replies: [
            { body: `Recebi: ${(body.message as { body: string }).body}` },
            { body: 'Posso ajudar?' },
          ],
        })),
      )
      const t = await setup({ type, name: `Meu ${type}`, urlN8N: fake.url })
      await write(t, 'Oi, tudo bem?')
      expect(received(t)).toEqual(['Recebi: Oi, tudo bem?', 'Posso ajudar?'])
      const ticket = ticketOf(t.h)
      expect(fake.requests).toEqual([
        {
          event: 'message',
          company: { id: t.h.a.id, name: expect.any(String) },
          connection: { id: t.conn.id, name: 'Atendimento' },
          ticket: { id: ticket.id, status: 'pending', queueId: t.queue.id, createdAt: expect.any(String) },
          contact: { id: expect.any(Number), name: 'Maria Souza', number: '5511988887777' },
          message: {
            id: expect.any(Number),
            body: 'Oi, tudo bem?',
            fromMe: false,
            mediaType: expect.any(String),
            createdAt: expect.any(String),
          },
        },
      ])
      expect(ticket).toMatchObject({ status: 'pending', queueId: t.queue.id, userId: null, chatbot: 1 })
      // the menu never spoke (the greeting is the menu's)
      expect(received(t)).not.toContain('Olá! Escolha:')
      // the replies are ordinary outbound messages of the ticket
      const rows = t.h.deps.sqlite
        .query<{ body: string; fromMe: number; sendState: string }, [number]>(
          'SELECT body, from_me AS fromMe, send_state AS sendState FROM messages WHERE ticket_id = ? AND from_me = 1 ORDER BY id',
        )
        .all(ticket.id)
      expect(rows).toEqual([
        { body: 'Recebi: Oi, tudo bem?', fromMe: 1, sendState: 'sent' },
        { body: 'Posso ajudar?', fromMe: 1, sendState: 'sent' },
      ])
    })

  test('close: the replies, then the ticket is closed', async () => {
    const fake = track(startWebhookFake(() => ({ replies: [{ body: 'Até logo!' }], action: 'close' })))
    const t = await setup({ type: 'webhook', name: 'Fecha', urlN8N: fake.url })
    await write(t, 'tchau')
    expect(received(t)).toEqual(['Até logo!'])
    expect(ticketOf(t.h)).toMatchObject({ status: 'closed', chatbot: 0 })
    expect(sessionOf(t.h, ticketOf(t.h).id)?.status).toBe('finished')
  })

  test('transfer: the ticket moves to the queue (of its company only); the bot stops', async () => {
    let queueId = 0
    const fake = track(
      startWebhookFake(() => ({ replies: [{ body: 'Transferindo' }], action: 'transfer', queueId })),
    )
    const t = await setup({ type: 'webhook', name: 'Transfere', urlN8N: fake.url })
    queueId = t.other.id
    await write(t, 'financeiro')
    expect(received(t)).toEqual(['Transferindo'])
    const ticket = ticketOf(t.h)
    expect(ticket).toMatchObject({ status: 'pending', queueId: t.other.id, userId: null, chatbot: 0 })
    const event = t.h.deps.sqlite
      .query<{ type: string; toQueueId: number }, [number]>(
        'SELECT type, to_queue_id AS toQueueId FROM ticket_events WHERE ticket_id = ? ORDER BY id DESC LIMIT 1',
      )
      .get(ticket.id)
    expect(event).toEqual({ type: 'transferred', toQueueId: t.other.id })
    // the new queue has no bot: the next message is for an attendant
    await write(t, 'alô?')
    expect(fake.requests).toHaveLength(1)
  })

  test("transfer to another company's queue: the ticket stays in its queue", async () => {
    let queueId = 0
    const fake = track(startWebhookFake(() => ({ action: 'transfer', queueId })))
    const t = await setup({ type: 'webhook', name: 'Transfere', urlN8N: fake.url })
    queueId = t.h.makeQueue(t.h.b.id, { name: 'Alheia' }).id
    await write(t, 'financeiro')
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.queue.id })
    expect(sessionOf(t.h, ticketOf(t.h).id)?.status).toBe('handedOff')
  })

  for (const [label, answer] of [
    ['a 500', () => new Response('boom', { status: 500 })],
    ['bad JSON', () => new Response('{"replies": [', { headers: { 'content-type': 'application/json' } })],
    ['a wrong shape', () => ({ replies: 'hello' })],
    // An answer past the 1 MiB ceiling (http.ts) is cut off, not read into memory.
    [
      'a 3 MiB answer',
      () => Response.json({ replies: [{ body: 'x' }], padding: 'x'.repeat(3 * 1024 * 1024) }),
    ],
    [
      'a streamed answer without a length that never stops growing',
      () => {
        let sent = 0
        const chunk = new TextEncoder().encode(`{"replies":[{"body":"${'y'.repeat(64 * 1024)}`)
        return new Response(
          new ReadableStream({
            pull(controller) {
              if (sent++ > 200) controller.close()
              else controller.enqueue(chunk)
            },
          }),
        )
      },
    ],
  ] as const)
    test(`${label}: nothing reaches the customer; the ticket waits in its queue; the bot stops`, async () => {
      const fake = track(startWebhookFake(answer))
      const t = await setup({ type: 'webhook', name: 'Falha', urlN8N: fake.url })
      await write(t, 'Oi')
      expect(received(t)).toEqual([])
      const ticket = ticketOf(t.h)
      expect(ticket).toMatchObject({ status: 'pending', queueId: t.queue.id, userId: null, chatbot: 0 })
      expect(sessionOf(t.h, ticket.id)?.status).toBe('handedOff')
      // later messages wait for the attendant too: no more calls, no menu
      await write(t, 'alguém?')
      expect(fake.requests).toHaveLength(1)
      expect(received(t)).toEqual([])
    })

  test('a webhook that never answers: after the 10 s timeout the ticket falls back to its queue', async () => {
    const fake = track(startWebhookFake(() => 'hang'))
    const t = await setup({ type: 'webhook', name: 'Mudo', urlN8N: fake.url })
    await write(t, 'Oi')
    expect(fake.requests).toHaveLength(1)
    const ticket = ticketOf(t.h)
    expect(sessionOf(t.h, ticket.id)?.status).toBe('active')
    await t.h.clock.tick(9_000)
    await settle(t, 3)
    expect(sessionOf(t.h, ticket.id)?.status).toBe('active')
    await t.h.clock.tick(1_000)
    await t.dispatcher.idle()
    expect(sessionOf(t.h, ticket.id)?.status).toBe('handedOff')
    expect(received(t)).toEqual([])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.queue.id, chatbot: 0 })
  })
})

describe('typebot', () => {
  const integration = (url: string) => ({
    type: 'typebot',
    name: 'Typebot',
    urlN8N: `${url}/`,
    typebotSlug: 'atendimento-x1',
    typebotExpires: 2,
    typebotDelayMessage: 1500,
    typebotKeywordFinish: 'Sair',
    typebotKeywordRestart: '#reiniciar',
    typebotRestartMessage: 'Vamos recomeçar.',
    typebotUnknownMessage: 'Não entendi, pode repetir?',
  })

  function script() {
    return (call: TypebotCall) => {
      if (call.kind === 'start')
        return { messages: [bubble('Olá!', 'Eu sou o robô.'), bubble('Qual é o seu nome?')] }
      if (call.message === 'nada') return { messages: [] }
      return {
        messages: [
          {
            type: 'text',
            content: {
              type: 'richText',
              richText: [
                {
                  type: 'p',
                  children: [
                    { text: 'Prazer, ' },
                    { type: 'a', url: 'x', children: [{ text: call.message ?? '' }] },
                  ],
                },
              ],
            },
          },
          { type: 'image', content: { url: 'https://example.com/x.png' } },
        ],
      }
    }
  }

  test('start, delay between messages, continue with the session id', async () => {
    const fake = track(startTypebotFake(script()))
    const t = await setup(integration(fake.url))
    await write(t, 'Oi')
    expect(fake.calls).toEqual([{ kind: 'start', slug: 'atendimento-x1', message: 'Oi' }])
    // the first bubble at once, the second after typebotDelayMessage
    expect(received(t)).toEqual(['Olá!\nEu sou o robô.'])
    await t.h.clock.tick(1_400)
    await settle(t, 3)
    expect(received(t)).toHaveLength(1)
    await t.h.clock.tick(100)
    await settle(t, 3)
    expect(received(t)).toEqual(['Olá!\nEu sou o robô.', 'Qual é o seu nome?'])
    const ticket = ticketOf(t.h)
    expect(sessionOf(t.h, ticket.id)).toEqual({ status: 'active', externalId: 's1', kind: 'typebot' })

    await write(t, 'Maria')
    expect(fake.calls[1]).toEqual({ kind: 'continue', sessionId: 's1', message: 'Maria' })
    expect(received(t).at(-1)).toBe('Prazer, Maria')
  })

  test('an answer without text: the unknown message', async () => {
    const fake = track(startTypebotFake(script()))
    const t = await setup(integration(fake.url))
    await write(t, 'Oi')
    await t.h.clock.tick(2_000)
    await settle(t, 3)
    await write(t, 'nada')
    expect(received(t).at(-1)).toBe('Não entendi, pode repetir?')
  })

  test('the finish keyword hands the ticket to an attendant; the restart keyword starts over', async () => {
    const fake = track(startTypebotFake(script()))
    const t = await setup(integration(fake.url))
    await write(t, 'Oi')
    await t.h.clock.tick(2_000)
    await settle(t, 3)
    await write(t, '#REINICIAR')
    expect(fake.calls.map((c) => c.kind)).toEqual(['start', 'start'])
    expect(received(t).slice(2, 3)).toEqual(['Vamos recomeçar.'])
    await t.h.clock.tick(5_000)
    await settle(t, 3)
    expect(received(t).slice(2)).toEqual(['Vamos recomeçar.', 'Olá!\nEu sou o robô.', 'Qual é o seu nome?'])
    expect(sessionOf(t.h, ticketOf(t.h).id)?.externalId).toBe('s2')

    await write(t, ' sair ')
    expect(fake.calls).toHaveLength(2)
    const ticket = ticketOf(t.h)
    expect(ticket).toMatchObject({ status: 'pending', queueId: t.queue.id, chatbot: 0 })
    expect(sessionOf(t.h, ticket.id)).toMatchObject({ status: 'handedOff', externalId: null })
    await write(t, 'oi?')
    expect(fake.calls).toHaveLength(2)
  })

  test('expiry: after typebotExpires minutes of silence the next message starts a new session', async () => {
    const fake = track(startTypebotFake(script()))
    const t = await setup(integration(fake.url))
    await write(t, 'Oi')
    await t.h.clock.tick(2_000)
    await settle(t, 3)
    await t.h.clock.tick(60_000)
    await write(t, 'Maria')
    expect(fake.calls.at(-1)).toEqual({ kind: 'continue', sessionId: 's1', message: 'Maria' })
    await t.h.clock.tick(2 * 60_000 + 1)
    await write(t, 'Voltei')
    expect(fake.calls.at(-1)).toEqual({ kind: 'start', slug: 'atendimento-x1', message: 'Voltei' })
    expect(sessionOf(t.h, ticketOf(t.h).id)?.externalId).toBe('s2')
  })

  test('a session Typebot forgot (404) starts a new one; a typebot that fails falls back', async () => {
    let failing = false
    const fake = track(
      startTypebotFake((call) => {
        if (failing) return new Response('down', { status: 503 })
        if (call.kind === 'continue') return new Response('{"message":"Session not found"}', { status: 404 })
        return { messages: [bubble('Oi de novo')] }
      }),
    )
    const t = await setup(integration(fake.url))
    await write(t, 'Oi')
    await write(t, 'Maria')
    expect(fake.calls.map((c) => c.kind)).toEqual(['start', 'continue', 'start'])
    expect(received(t)).toEqual(['Oi de novo', 'Oi de novo'])
    failing = true
    await write(t, 'mais')
    expect(received(t)).toHaveLength(2)
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.queue.id, chatbot: 0 })
  })
})

describe('dialogflow', () => {
  test('token (cached), detectIntent per ticket session in the language; fulfillment texts; end of conversation hands off', async () => {
    const fake = track(
      startDialogflowFake((call) =>
        call.text === 'atendente'
          ? {
              fulfillmentText: 'Vou chamar alguém.',
              intent: { displayName: 'Handoff', endInteraction: true },
            }
          : {
              fulfillmentText: 'ignored',
              fulfillmentMessages: [
                { text: { text: ['Olá!'] } },
                { text: { text: ['Em que posso ajudar?'] } },
              ],
              intent: { displayName: 'Welcome' },
            },
      ),
    )
    const h0 = fake.serviceAccount('agente-42')
    const t = await setup({ type: 'dialogflow', name: 'Agente', jsonContent: h0, language: 'es' })
    ;(t.h.deps.env as Record<string, string>).BALCAO_DIALOGFLOW_BASE_URL = fake.url
    await write(t, 'Hola')
    expect(received(t)).toEqual(['Olá!', 'Em que posso ajudar?'])
    const ticket = ticketOf(t.h)
    expect(fake.detectCalls).toEqual([
      { projectId: 'agente-42', sessionId: `balcao-ticket-${ticket.id}`, text: 'Hola', languageCode: 'es' },
    ])
    await write(t, 'atendente')
    expect(fake.tokenRequests).toBe(1)
    expect(received(t).at(-1)).toBe('Vou chamar alguém.')
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.queue.id, chatbot: 0 })
    expect(sessionOf(t.h, ticket.id)?.status).toBe('handedOff')
    await write(t, 'olá?')
    expect(fake.detectCalls).toHaveLength(2)
  })

  test('a refused token: nothing reaches the customer, the ticket waits in its queue', async () => {
    const fake = track(startDialogflowFake(() => ({ fulfillmentText: 'Oi' })))
    const other = track(startDialogflowFake(() => ({})))
    const json = JSON.stringify({
      ...JSON.parse(fake.serviceAccount()),
      private_key: JSON.parse(other.serviceAccount()).private_key,
    })
    const t = await setup({ type: 'dialogflow', name: 'Agente', jsonContent: json })
    ;(t.h.deps.env as Record<string, string>).BALCAO_DIALOGFLOW_BASE_URL = fake.url
    await write(t, 'Oi')
    expect(fake.tokenRequests).toBe(1)
    expect(fake.detectCalls).toEqual([])
    expect(received(t)).toEqual([])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.queue.id, chatbot: 0 })
  })
})
