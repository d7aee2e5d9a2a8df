/**
 * Every URL a tenant controls, pointed at a listener on this machine: the AI prompt's base URL (chat and
 * `POST /test/audio`), webhook, n8n, Typebot and a Dialogflow service account's token URI. Without
 * BALCAO_ALLOW_PRIVATE_URLS the listener sees no connection at all (it counts TCP connections, not requests), the
 * API answers ERR_URL_NOT_ALLOWED (400) and the bots fail cleanly; with it, each one reaches the listener. A
 * redirect is not followed (the key never reaches the other port), and what a remote server writes in a refusal
 * never reaches the client.
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { generateKeyPairSync } from 'node:crypto'
import { samples } from '../media/testing'
import type { BotTurn, ExternalBot } from '../modules/bots/types'
import { addMessage } from '../modules/messages/testing'
import { promptBot } from '../modules/prompts/bot'
import { dialogflowBot } from '../modules/queue-integrations/dialogflow'
import { typebotBot } from '../modules/queue-integrations/typebot'
import { n8nBot, webhookBot } from '../modules/queue-integrations/webhook'
import { makeContact, makeTicket } from '../modules/tickets/testing'
import { createHarness, type Harness } from '../test/harness'
import { uploadTo } from '../test/probe'
import { guardedFetch, OutboundError } from './guarded-fetch'

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

const SECRET = 'internal-only-3f9a'

/** A TCP listener on 127.0.0.1 that counts connections and answers any request with a 500 carrying SECRET. */
function listener() {
  const state = { connections: 0, port: 0 }
  const body = JSON.stringify({ error: { message: SECRET }, error_description: SECRET })
  const answer = `HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`
  const server = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      open() {
        state.connections++
      },
      data(socket) {
        socket.write(answer)
        socket.end()
      },
    },
  })
  state.port = server.port
  stops.push(() => server.stop(true))
  return state
}

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
const serviceAccount = (tokenUri: string) =>
  JSON.stringify({
    type: 'service_account',
    project_id: 'agente',
    private_key: PEM,
    client_email: 'bot@agente.iam.gserviceaccount.com',
    token_uri: tokenUri,
  })

const allowPrivate = (h: Harness, on: boolean) => {
  const env = h.deps.env as Record<string, string>
  if (on) env.BALCAO_ALLOW_PRIVATE_URLS = '1'
  else delete env.BALCAO_ALLOW_PRIVATE_URLS
}

/** Company A with a prompt and each kind of integration, all pointing at `base`, and a ticket to hand them. */
async function setup(base: string) {
  const h = await createHarness()
  const admin = await h.as(h.a.admin)
  const queue = h.makeQueue(h.a.id, { name: 'Robô' })
  const prompt = await admin.post('/prompt', {
    name: 'IA',
    prompt: 'Responda.',
    queueId: queue.id,
    apiKey: 'sk-tenant-key-000000000001',
    baseUrl: `${base}/v1`,
  })
  expect(prompt.status).toBe(201)
  const integration = async (body: Record<string, unknown>) => {
    const res = await admin.post('/queueIntegration', body)
    expect(res.status).toBe(201)
    return res.body.id as number
  }
  const bots: [string, ExternalBot, number][] = [
    ['prompt (chat)', promptBot, prompt.body.id],
    ['webhook', webhookBot, await integration({ type: 'webhook', name: 'Gancho', urlN8N: `${base}/hook` })],
    ['n8n', n8nBot, await integration({ type: 'n8n', name: 'Fluxo', urlN8N: `${base}/n8n` })],
    [
      'typebot',
      typebotBot,
      await integration({ type: 'typebot', name: 'Typebot', urlN8N: base, typebotSlug: 'atendimento' }),
    ],
    [
      'dialogflow token_uri',
      dialogflowBot,
      await integration({ type: 'dialogflow', name: 'Agente', jsonContent: serviceAccount(`${base}/token`) }),
    ],
  ]
  const contact = makeContact(h, h.a.id)
  const ticket = makeTicket(h, h.a.id, { contactId: contact.id, queueId: queue.id })
  const messageId = addMessage(h, ticket, { body: 'Olá' })
  const turn = (botId: number): BotTurn => ({
    companyId: h.a.id,
    ticketId: ticket.id,
    messageId,
    text: 'Olá',
    whatsappId: 1,
    queueId: queue.id,
    contactId: contact.id,
    botId,
  })
  const audio = () =>
    uploadTo(h, '/test/audio', admin.token, [
      { name: 'audio', value: new File([samples.mp3()], 'a.mp3', { type: 'audio/mpeg' }) },
    ])
  const testSession = (tokenUri: string) =>
    admin.post('/queueIntegration/testSession', { jsonContent: serviceAccount(tokenUri) })
  return { h, admin, bots, turn, audio, testSession }
}

/** A bot's answer as the dispatcher takes it: a rejection or a fallback both mean "failed, nothing sent". */
async function outcome(bot: ExternalBot, s: Awaited<ReturnType<typeof setup>>, botId: number) {
  try {
    const answer = await bot.answer(s.h.deps, s.turn(botId), new AbortController().signal)
    return answer.fallback ? 'fallback' : 'answered'
  } catch (err) {
    return err instanceof OutboundError && err.refused ? 'refused' : `failed: ${(err as Error).message}`
  }
}

describe('outbound requests a tenant controls (SSRF)', () => {
  test('every tenant URL kind pointed at 127.0.0.1: no connection, a clear 400 or a clean bot failure', async () => {
    const l = listener()
    const s = await setup(`http://127.0.0.1:${l.port}`)
    for (const [kind, bot, id] of s.bots) {
      const result = await outcome(bot, s, id)
      // the prompt bot turns every failure into a fallback; the integrations reject and the dispatcher falls back
      expect({ kind, result }).toEqual({ kind, result: kind.startsWith('prompt') ? 'fallback' : 'refused' })
    }
    const audio = await s.audio()
    expect(audio.status).toBe(400)
    expect(audio.body.error).toBe('ERR_URL_NOT_ALLOWED')
    const session = await s.testSession(`http://127.0.0.1:${l.port}/token`)
    expect(session.status).toBe(400)
    expect(session.body.error).toBe('ERR_URL_NOT_ALLOWED')
    expect(l.connections).toBe(0)
  })

  test('the odd spellings of loopback, private ranges and the metadata address are refused before connecting', async () => {
    const l = listener()
    const s = await setup(`http://127.0.0.1:${l.port}`)
    for (const host of [
      'localhost',
      '0x7f000001',
      '2130706433',
      '127.1',
      '0177.0.0.1',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[::1]',
      '0.0.0.0',
      '10.0.0.1',
      '192.168.0.1',
      '172.16.0.1',
      '100.64.0.1',
      '169.254.169.254',
      '[fd00::1]',
      '[fe80::1]',
    ]) {
      const url = `http://${host}:${l.port}/hook`
      const err = await guardedFetch(s.h.deps, url, { method: 'POST', body: '{}' }).then(
        () => null,
        (e: unknown) => e,
      )
      expect({ url, refused: err instanceof OutboundError && err.refused }).toEqual({ url, refused: true })
    }
    for (const url of ['file:///etc/passwd', 'ftp://example.com/', 'not a url']) {
      const err = await guardedFetch(s.h.deps, url).catch((e: unknown) => e)
      expect({ url, refused: err instanceof OutboundError && err.refused }).toEqual({ url, refused: true })
    }
    expect(l.connections).toBe(0)
  })

  test('with BALCAO_ALLOW_PRIVATE_URLS=1 every kind reaches the listener', async () => {
    const l = listener()
    const s = await setup(`http://127.0.0.1:${l.port}`)
    allowPrivate(s.h, true)
    for (const [kind, bot, id] of s.bots) {
      const before = l.connections
      await outcome(bot, s, id)
      expect({ kind, reached: l.connections > before }).toEqual({ kind, reached: true })
    }
    let before = l.connections
    const audio = await s.audio()
    expect(audio.status).toBe(502)
    expect(l.connections).toBeGreaterThan(before)
    before = l.connections
    const session = await s.testSession(`http://localhost:${l.port}/token`)
    expect(session.status).toBe(502)
    expect(l.connections).toBeGreaterThan(before)
    // what the listener wrote (SECRET) is not in either answer: only the status class
    for (const res of [audio, session]) {
      expect(JSON.stringify(res.body)).not.toContain(SECRET)
      expect(res.body.message).toContain('5xx')
    }
  })

  test('a redirect to another host or port is not followed: the key never reaches it', async () => {
    const stolen: (string | null)[] = []
    const other = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        stolen.push(req.headers.get('authorization'))
        return Response.json({ text: 'stolen', choices: [{ message: { content: 'stolen' } }] })
      },
    })
    stops.push(() => other.stop(true))
    const redirecting = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: (req) =>
        new Response(null, {
          status: 302,
          headers: { location: `http://127.0.0.1:${other.port}${new URL(req.url).pathname}` },
        }),
    })
    stops.push(() => redirecting.stop(true))
    const s = await setup(`http://127.0.0.1:${redirecting.port}`)
    allowPrivate(s.h, true)
    const audio = await s.audio()
    expect(audio.status).toBe(502)
    expect(audio.body.message).toContain('redirect')
    for (const [kind, bot, id] of s.bots) {
      const result = await outcome(bot, s, id)
      expect({ kind, followed: result === 'answered' }).toEqual({ kind, followed: false })
    }
    expect(stolen).toEqual([])
  })

  test('a name is fetched at the address it was checked at, with its own Host header', async () => {
    const hosts: (string | null)[] = []
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        hosts.push(req.headers.get('host'))
        return new Response('ok')
      },
    })
    stops.push(() => server.stop(true))
    const h = await createHarness()
    const deps = { ...h.deps, env: { BALCAO_ALLOW_PRIVATE_URLS: '1' } }
    const res = await guardedFetch(deps, `http://localhost:${server.port}/x`)
    expect(res.status).toBe(200)
    expect(res.text()).toBe('ok')
    expect(hosts).toEqual([`localhost:${server.port}`])
  })

  test('credentials in the URL become Basic authorization; the URL sent carries none', async () => {
    const seen: { auth: string | null; url: string }[] = []
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch(req) {
        seen.push({ auth: req.headers.get('authorization'), url: req.url })
        return new Response('ok')
      },
    })
    stops.push(() => server.stop(true))
    const h = await createHarness()
    const deps = { ...h.deps, env: { BALCAO_ALLOW_PRIVATE_URLS: '1' } }
    await guardedFetch(deps, `http://n8n:s%C3%AAnha@127.0.0.1:${server.port}/hook`)
    await guardedFetch(deps, `http://x:%zz@127.0.0.1:${server.port}/hook`)
    expect(seen[0]!.auth).toBe(`Basic ${Buffer.from('n8n:sênha').toString('base64')}`)
    expect(seen[1]!.auth).toBe(`Basic ${Buffer.from('x:%zz').toString('base64')}`)
    expect(seen.every((s) => !s.url.includes('@'))).toBe(true)
  })
})
