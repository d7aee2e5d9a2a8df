/**
 * The prompt bot against a local fake of the OpenAI API (testing.ts): what it asks (model, bearer, the system
 * prompt and the ticket's last maxMessages in order), the handoff words (no model call), and every failure as a
 * fallback (timeout, the dispatcher's abort, HTTP 500, bad JSON, an empty answer). Then through the dispatcher
 * on a sandbox connection: the customer's message answered by the model, a handoff, an error that sends nothing.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { asksForPerson, HANDOFF_REPLY } from '../../../shared/prompts'
import type { Deps } from '../../context'
import { createHarness, type Harness, LOCAL_FAKES_ENV } from '../../test/harness'
import { botDispatcherOf, registerBot } from '../bots/dispatch'
import type { BotTurn } from '../bots/types'
import { startChatbot } from '../chatbot'
import { addMessage } from '../messages/testing'
import { makeContact, makeTicket } from '../tickets/testing'
import { makePromptBot, promptBot } from './bot'
import { startOpenAiFake } from './testing'

const undo: (() => void)[] = []
afterEach(() => {
  for (const u of undo.splice(0)) u()
})
function track<T extends { stop: () => void }>(fake: T): T {
  undo.push(fake.stop)
  return fake
}

const KEY = 'sk-fake-key-1234567890abcd'
const SYSTEM = 'Você é a assistente da Padaria Pão Quente. Responda em português, em no máximo duas frases.'

async function waitFor(check: () => boolean, what: string) {
  for (let i = 0; i < 400 && !check(); i++) await Bun.sleep(5)
  if (!check()) throw new Error(`timed out waiting for ${what}`)
}

/** A prompt of company A (through the API) and a pending ticket with a conversation. */
async function setup(baseUrl: string, fields: Record<string, unknown> = {}) {
  const h = await createHarness({ env: LOCAL_FAKES_ENV })
  const admin = await h.as(h.a.admin)
  const queue = h.makeQueue(h.a.id, { name: 'Padaria' })
  const prompt = await admin.post('/prompt', {
    name: 'Padaria',
    prompt: SYSTEM,
    queueId: queue.id,
    apiKey: KEY,
    baseUrl,
    model: 'modelo-teste',
    maxTokens: 120,
    temperature: 0.5,
    maxMessages: 3,
    ...fields,
  })
  expect(prompt.status).toBe(201)
  const contact = makeContact(h, h.a.id)
  const ticket = makeTicket(h, h.a.id, { contactId: contact.id, queueId: queue.id })
  const t0 = h.clock.now()
  let seq = 0
  const say = (body: string, more: Parameters<typeof addMessage>[2] = {}) =>
    addMessage(h, ticket, { body, createdAt: t0 + ++seq * 1000, ...more })
  return { h, admin, queue, promptId: prompt.body.id as number, ticket, say }
}

function turnOf(s: Awaited<ReturnType<typeof setup>>, messageId: number, text: string): BotTurn {
  return {
    companyId: s.h.a.id,
    ticketId: s.ticket.id,
    messageId,
    text,
    whatsappId: 1,
    queueId: s.queue.id,
    contactId: s.ticket.contactId,
    botId: s.promptId,
  }
}

const signal = () => new AbortController().signal

describe('prompt bot', () => {
  test('asks the endpoint with the model, the bearer key, the system prompt and the last maxMessages in order', async () => {
    const fake = track(startOpenAiFake({ chat: () => '  Temos pão francês quentinho às 17h!  ' }))
    const s = await setup(fake.baseUrl)
    s.say('Oi, bom dia')
    s.say('Bom dia! Em que posso ajudar?', { fromMe: true })
    s.say('nota interna: cliente antigo', { fromMe: true, isPrivate: true })
    s.say('', { mediaType: 'image' })
    s.say('Que horas sai o pão?')
    s.say('Um momento, por favor.', { fromMe: true })
    const last = s.say('E o pão de queijo?')
    s.say('depois desta (não entra)')
    const answer = await promptBot.answer(s.h.deps, turnOf(s, last, 'E o pão de queijo?'), signal())
    expect(answer).toEqual({ replies: [{ body: 'Temos pão francês quentinho às 17h!' }] })
    expect(fake.chats).toHaveLength(1)
    const call = fake.chats[0]!
    expect(call.authorization).toBe(`Bearer ${KEY}`)
    expect(call.body).toMatchObject({ model: 'modelo-teste', max_tokens: 120, temperature: 0.5 })
    expect(call.body.messages).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'Que horas sai o pão?' },
      { role: 'assistant', content: 'Um momento, por favor.' },
      { role: 'user', content: 'E o pão de queijo?' },
    ])
  })

  test('the server defaults: BALCAO_AI_BASE_URL and BALCAO_AI_MODEL when the prompt names none', async () => {
    const fake = track(startOpenAiFake({ chat: () => 'ok' }))
    const s = await setup('', { model: '' })
    const id = s.say('Olá')
    const deps = {
      ...s.h.deps,
      env: { ...LOCAL_FAKES_ENV, BALCAO_AI_BASE_URL: `${fake.baseUrl}/`, BALCAO_AI_MODEL: 'padrao' },
    } as Deps
    expect(await promptBot.answer(deps, turnOf(s, id, 'Olá'), signal())).toEqual({
      replies: [{ body: 'ok' }],
    })
    expect(fake.chats[0]!.body.model).toBe('padrao')
  })

  test('handoff words hand the customer to a person without asking the model', async () => {
    const fake = track(startOpenAiFake())
    const s = await setup(fake.baseUrl)
    for (const text of [
      'Quero falar com um ATENDENTE',
      'quero um humano',
      'Posso falar com alguém?',
      'falar com alguem por favor',
      'I want a human',
      'talk to someone please',
      'Quiero hablar con alguien',
      'un agente, por favor',
      'Uma pessoa de verdade!',
    ]) {
      const id = s.say(text)
      expect({ text, answer: await promptBot.answer(s.h.deps, turnOf(s, id, text), signal()) }).toEqual({
        text,
        answer: { replies: [{ body: HANDOFF_REPLY }], action: 'handoff' },
      })
    }
    expect(fake.chats).toHaveLength(0)
    // whole words only
    for (const text of ['pessoal, bom dia', 'humanidade', 'atendentes', 'personalizado'])
      expect({ text, asks: asksForPerson(text) }).toEqual({ text, asks: false })
  })

  test('a timeout is a fallback (a short injected timeout on the clock; no real wait)', async () => {
    const fake = track(startOpenAiFake({ chat: () => 'hang' }))
    const s = await setup(fake.baseUrl)
    const id = s.say('Olá')
    const pending = makePromptBot({ timeoutMs: 50 }).answer(s.h.deps, turnOf(s, id, 'Olá'), signal())
    await waitFor(() => fake.chats.length === 1, 'the request')
    s.h.clock.advance(50)
    expect(await pending).toEqual({ replies: [], fallback: true })

    // the default 30 s, moved on the manual clock
    const again = promptBot.answer(s.h.deps, turnOf(s, id, 'Olá'), signal())
    await waitFor(() => fake.chats.length === 2, 'the second request')
    s.h.clock.advance(29_999)
    await Bun.sleep(5)
    let settled = false
    void again.then(() => {
      settled = true
    })
    await Bun.sleep(5)
    expect(settled).toBe(false)
    s.h.clock.advance(1)
    expect(await again).toEqual({ replies: [], fallback: true })
  })

  test("the dispatcher's abort is a fallback", async () => {
    const fake = track(startOpenAiFake({ chat: () => 'hang' }))
    const s = await setup(fake.baseUrl)
    const id = s.say('Olá')
    const controller = new AbortController()
    const pending = promptBot.answer(s.h.deps, turnOf(s, id, 'Olá'), controller.signal)
    await waitFor(() => fake.chats.length === 1, 'the request')
    controller.abort(new Error('dispatcher timeout'))
    expect(await pending).toEqual({ replies: [], fallback: true })
  })

  test('HTTP 500, bad JSON, no choices, an empty answer and an unreachable endpoint are fallbacks', async () => {
    const answers: unknown[] = [
      new Response(JSON.stringify({ error: { message: 'overloaded' } }), { status: 500 }),
      new Response('{not json', { status: 200, headers: { 'content-type': 'application/json' } }),
      { choices: [] },
      { choices: [{ message: { content: 42 } }] },
      '   ',
      new Response('unauthorized', { status: 401 }),
    ]
    let i = 0
    const fake = track(startOpenAiFake({ chat: () => answers[i++] as never }))
    const s = await setup(fake.baseUrl)
    const id = s.say('Olá')
    for (const _ of answers)
      expect(await promptBot.answer(s.h.deps, turnOf(s, id, 'Olá'), signal())).toEqual({
        replies: [],
        fallback: true,
      })
    expect(fake.chats).toHaveLength(answers.length)
    // nothing listens here
    await s.admin.put(`/prompt/${s.promptId}`, {
      name: 'Padaria',
      prompt: SYSTEM,
      queueId: s.queue.id,
      baseUrl: 'http://127.0.0.1:9/v1',
    })
    expect(await promptBot.answer(s.h.deps, turnOf(s, id, 'Olá'), signal())).toEqual({
      replies: [],
      fallback: true,
    })
    // a prompt that is gone (or another company's)
    expect(await promptBot.answer(s.h.deps, { ...turnOf(s, id, 'Olá'), botId: 999 }, signal())).toEqual({
      replies: [],
      fallback: true,
    })
    expect(
      await promptBot.answer(s.h.deps, { ...turnOf(s, id, 'Olá'), companyId: s.h.b.id }, signal()),
    ).toEqual({ replies: [], fallback: true })
  })
})

/** Monday 2026-11-23 10:00 in São Paulo. */
const MONDAY_10 = Date.parse('2026-11-23T13:00:00Z')

describe('prompt bot through the dispatcher (sandbox)', () => {
  async function live(chat: Parameters<typeof startOpenAiFake>[0]) {
    undo.push(registerBot('prompt', promptBot))
    const fake = track(startOpenAiFake(chat))
    const h = await createHarness({ sandbox: true, env: LOCAL_FAKES_ENV })
    h.clock.set(MONDAY_10)
    const bot = startChatbot(h.deps)
    botDispatcherOf(h.deps)
    const admin = await h.as(h.a.admin)
    const queue = (await admin.post('/queue', { name: 'IA', color: '#0ea5e9' })).body as { id: number }
    const prompt = await admin.post('/prompt', {
      name: 'IA',
      prompt: SYSTEM,
      queueId: queue.id,
      apiKey: KEY,
      baseUrl: fake.baseUrl,
    })
    await admin.put(`/queue/${queue.id}`, { name: 'IA', color: '#0ea5e9', promptId: prompt.body.id })
    const conn = (
      await admin.post('/whatsapp', {
        name: 'Atendimento',
        provider: 'sandbox',
        greetingMessage: 'Olá! Escolha:',
        queueIds: [queue.id],
      })
    ).body as { id: number }
    await admin.post(`/sandbox/connections/${conn.id}/pair`)
    const settle = async () => {
      for (let i = 0; i < 20; i++) {
        await bot.runner.idle()
        await Bun.sleep(5)
        await h.clock.tick(1)
      }
    }
    const write = async (body: string) => {
      await h.deps.sandboxNetwork!.inject(conn.id, { from: '5511988887777', name: 'Maria', body })
      await settle()
    }
    const received = () => h.deps.sandboxNetwork!.outbound(conn.id).map((o) => o.body)
    return { h, fake, write, received, queue }
  }

  const ticketOf = (h: Harness) =>
    h.deps.sqlite
      .query<{ status: string; queueId: number | null; userId: number | null }, [number]>(
        'SELECT status, queue_id AS queueId, user_id AS userId FROM tickets WHERE company_id = ? ORDER BY id DESC LIMIT 1',
      )
      .get(h.a.id)!

  test('the customer writes, the model answers; asking for a person hands off and the bot goes quiet', async () => {
    const t = await live({ chat: (req) => `Resposta ${req.body.messages!.length - 1}` })
    await t.write('Oi, vocês abrem domingo?')
    expect(t.received()).toEqual(['Resposta 1'])
    await t.write('E feriado?')
    expect(t.received()).toEqual(['Resposta 1', 'Resposta 3'])
    expect(t.fake.chats[1]!.body.messages!.slice(1)).toEqual([
      { role: 'user', content: 'Oi, vocês abrem domingo?' },
      { role: 'assistant', content: 'Resposta 1' },
      { role: 'user', content: 'E feriado?' },
    ])
    await t.write('quero falar com um atendente')
    expect(t.received()).toEqual(['Resposta 1', 'Resposta 3', HANDOFF_REPLY])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.queue.id, userId: null })
    await t.write('alô?')
    expect(t.received()).toHaveLength(3)
    expect(t.fake.chats).toHaveLength(2)
  })

  /**
   * A prompt of the connection itself, on a connection whose menu offers two queues (so its tickets open without
   * one): Suporte comes first in the menu's order although it was made second.
   */
  async function connectionPrompt(chat: Parameters<typeof startOpenAiFake>[0]) {
    undo.push(registerBot('prompt', promptBot))
    const fake = track(startOpenAiFake(chat))
    const h = await createHarness({ sandbox: true, env: LOCAL_FAKES_ENV })
    h.clock.set(MONDAY_10)
    const bot = startChatbot(h.deps)
    const dispatcher = botDispatcherOf(h.deps)
    const admin = await h.as(h.a.admin)
    const sales = h.makeQueue(h.a.id, { name: 'Vendas', orderQueue: 2 })
    const support = h.makeQueue(h.a.id, { name: 'Suporte', orderQueue: 1 })
    const prompt = await admin.post('/prompt', {
      name: 'IA',
      prompt: SYSTEM,
      queueId: sales.id,
      apiKey: KEY,
      baseUrl: fake.baseUrl,
    })
    const conn = (
      await admin.post('/whatsapp', {
        name: 'Atendimento',
        provider: 'sandbox',
        greetingMessage: 'Olá! Escolha:',
        queueIds: [sales.id, support.id],
        promptId: prompt.body.id,
      })
    ).body as { id: number; promptId: number | null }
    expect(conn.promptId).toBe(prompt.body.id)
    await admin.post(`/sandbox/connections/${conn.id}/pair`)
    const write = async (body: string) => {
      await h.deps.sandboxNetwork!.inject(conn.id, { from: '5511988887777', name: 'Maria', body })
      for (let i = 0; i < 20; i++) {
        await bot.runner.idle()
        await Bun.sleep(5)
        await h.clock.tick(1)
      }
    }
    const received = () => h.deps.sandboxNetwork!.outbound(conn.id).map((o) => o.body)
    return { h, fake, write, received, support, dispatcher }
  }

  test("the connection's prompt failing: the ticket waits in the connection's first queue, for a person", async () => {
    const t = await connectionPrompt({ chat: () => new Response('boom', { status: 500 }) })
    const events = t.h.recordEvents()
    await t.write('Oi')
    await t.dispatcher.idle()
    expect(t.fake.chats).toHaveLength(1)
    expect(t.received()).toEqual([])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.support.id, userId: null })
    // the attendants of that queue hear of it
    expect(
      events.some(
        (e) => e.event.endsWith('-ticket') && e.room === `company:${t.h.a.id}:queue:${t.support.id}`,
      ),
    ).toBe(true)
    // the bot stays quiet afterwards: the next message waits for the attendant too
    await t.write('alô?')
    expect(t.fake.chats).toHaveLength(1)
    expect(t.received()).toEqual([])
  })

  test("the customer asking the connection's prompt for a person: the ticket waits in the first queue", async () => {
    const t = await connectionPrompt({ chat: () => 'Olá!' })
    await t.write('quero falar com um atendente')
    await t.dispatcher.idle()
    expect(t.received()).toEqual([HANDOFF_REPLY])
    expect(t.fake.chats).toHaveLength(0)
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.support.id, userId: null })
  })

  test("the connection's prompt timing out: the ticket waits in the connection's first queue", async () => {
    const t = await connectionPrompt({ chat: () => 'hang' })
    await t.write('Oi')
    expect(t.fake.chats).toHaveLength(1)
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: null })
    await t.h.clock.tick(30_000)
    await t.dispatcher.idle()
    expect(t.received()).toEqual([])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.support.id, userId: null })
  })

  test('an error of the endpoint sends nothing; the ticket waits in its queue', async () => {
    const t = await live({ chat: () => new Response('boom', { status: 500 }) })
    await t.write('Oi')
    expect(t.fake.chats).toHaveLength(1)
    expect(t.received()).toEqual([])
    expect(ticketOf(t.h)).toMatchObject({ status: 'pending', queueId: t.queue.id, userId: null })
  })
})
