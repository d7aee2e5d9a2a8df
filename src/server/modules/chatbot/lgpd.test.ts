/**
 * Through the sandbox: a connection's LGPD consent (asked once, answered, waited for), its collective vacation
 * on every new conversation (also before an external bot) and its own service hours (scheduleType 'connection').
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../../test/harness'
import { registerBot } from '../bots/dispatch'
import type { BotAnswer, BotTurn } from '../bots/types'
import { startChatbot } from './index'
import { CONSENT_HINT, CONSENT_REFUSED, consentAnswer } from './machine'

/** Monday 2026-11-23 10:00 in São Paulo. */
const MONDAY_10 = Date.parse('2026-11-23T13:00:00Z')
const DAY = 86_400_000

const undo: (() => void)[] = []
afterEach(() => {
  for (const u of undo.splice(0)) u()
})

async function setup(connection: Record<string, unknown> = {}, queues = 2) {
  const h = await createHarness({ sandbox: true })
  h.clock.set(MONDAY_10)
  const bot = startChatbot(h.deps)
  const admin = await h.as(h.a.admin)
  const sales = h.makeQueue(h.a.id, { name: 'Vendas', greetingMessage: 'Vendas aqui', orderQueue: 1 })
  const support = h.makeQueue(h.a.id, { name: 'Suporte', greetingMessage: 'Suporte aqui', orderQueue: 2 })
  const created = await admin.post('/whatsapp', {
    name: 'Atendimento',
    provider: 'sandbox',
    greetingMessage: 'Olá, escolha um setor:',
    queueIds: [sales.id, support.id].slice(0, queues),
    ...connection,
  })
  expect(created.status).toBe(201)
  const conn = created.body as { id: number }
  await admin.post(`/sandbox/connections/${conn.id}/pair`)
  return { h, admin, bot, conn }
}
type Ctx = Awaited<ReturnType<typeof setup>>

async function write(t: Ctx, body: string, from = '5511988887777') {
  await t.h.deps.sandboxNetwork!.inject(t.conn.id, { from, name: 'Maria Souza', body })
  for (let i = 0; i < 5; i++) {
    await t.bot.runner.idle()
    await Bun.sleep(1)
    await t.h.clock.tick(10)
  }
}

const received = (t: Ctx): string[] => t.h.deps.sandboxNetwork!.outbound(t.conn.id).map((o) => o.body ?? '')

function lastTicket(h: Harness) {
  return h.deps.sqlite
    .query<{ id: number; status: string; userId: number | null; queueId: number | null }, [number]>(
      'SELECT id, status, user_id AS userId, queue_id AS queueId FROM tickets WHERE company_id = ? ORDER BY id DESC LIMIT 1',
    )
    .get(h.a.id)!
}

function consentOf(h: Harness) {
  return h.deps.sqlite
    .query<{ lgpdConsent: string | null; lgpdConsentAt: number | null }, [number]>(
      `SELECT lgpd_consent AS lgpdConsent, lgpd_consent_at AS lgpdConsentAt FROM contacts
        WHERE company_id = ? AND number = '5511988887777'`,
    )
    .get(h.a.id)!
}

/** Closes the customer's ticket as an admin would (a new message then opens a new conversation). */
async function close(t: Ctx) {
  const { id } = lastTicket(t.h)
  const admin = await t.h.as(t.h.a.admin)
  expect((await admin.put(`/tickets/${id}`, { status: 'closed' })).status).toBe(200)
}

const LGPD = {
  enableLGPD: true,
  lgpdMessage: 'Precisamos do seu consentimento para tratar seus dados.',
  lgpdLink: 'https://loja.example/privacidade',
}

describe('the consent answer convention', () => {
  test("'1', 'sim', 'aceito' accept; '2', 'não', 'recuso' refuse (any case, accents, a final dot); the rest is neither", () => {
    for (const yes of ['1', 'Sim', 'SIM.', 's', 'aceito', 'Concordo!'])
      expect(consentAnswer(yes)).toBe('accepted')
    for (const no of ['2', 'não', 'NAO', 'Não.', 'recuso', 'n']) expect(consentAnswer(no)).toBe('refused')
    for (const other of ['', 'oi', '12', 'sim, mas', '1 quero comprar'])
      expect(consentAnswer(other)).toBeNull()
  })
})

describe('LGPD consent through the sandbox', () => {
  test('required: asked on the first conversation, the bot waits, the answer is recorded, never asked again', async () => {
    const t = await setup({ ...LGPD, lgpdConsent: true })
    await write(t, 'Oi')
    expect(received(t)).toHaveLength(1)
    const question = received(t)[0]!
    expect(question).toContain(LGPD.lgpdMessage)
    expect(question).toContain('Política de privacidade: https://loja.example/privacidade')
    expect(question).toContain(CONSENT_HINT)
    expect(consentOf(t.h).lgpdConsent).toBeNull()

    // anything but an answer: the question again, no menu
    await write(t, '1 quero comprar')
    expect(received(t)).toHaveLength(2)
    expect(received(t)[1]).toContain(CONSENT_HINT)
    expect(received(t).some((b) => b.includes('Vendas'))).toBe(false)

    t.h.clock.advance(60_000)
    await write(t, 'Sim')
    const answered = consentOf(t.h)
    expect(answered.lgpdConsent).toBe('accepted')
    expect(answered.lgpdConsentAt).toBeGreaterThanOrEqual(MONDAY_10 + 60_000)
    expect(answered.lgpdConsentAt).toBeLessThanOrEqual(t.h.clock.now())
    // the menu follows the acceptance in the same turn
    expect(received(t)).toHaveLength(3)
    expect(received(t)[2]).toContain('*[ 1 ]* - Vendas')

    await close(t)
    await write(t, 'Oi de novo')
    const after = received(t).slice(3)
    expect(after.some((b) => b.includes(CONSENT_HINT))).toBe(false)
    expect(after.at(-1)).toContain('*[ 1 ]* - Vendas')
  })

  test('required: a refusal is recorded, the bot stops and the ticket waits for a person', async () => {
    const t = await setup({ ...LGPD, lgpdConsent: true })
    await write(t, 'Oi')
    await write(t, 'não')
    expect(consentOf(t.h).lgpdConsent).toBe('refused')
    expect(received(t).at(-1)).toBe(CONSENT_REFUSED)
    await write(t, '1')
    expect(received(t)).toHaveLength(2)
    expect(lastTicket(t.h)).toMatchObject({ status: 'pending', userId: null })
  })

  test('notice mode: sent once, before the menu, only on the first conversation; nothing waits', async () => {
    const t = await setup(LGPD)
    await write(t, 'Oi')
    expect(received(t)).toHaveLength(2)
    expect(received(t)[0]).toContain('https://loja.example/privacidade')
    expect(received(t)[0]).not.toContain(CONSENT_HINT)
    expect(received(t)[1]).toContain('*[ 1 ]* - Vendas')
    await write(t, 'xyz')
    expect(received(t).filter((b) => b.includes('privacidade'))).toHaveLength(1)
    await close(t)
    await write(t, 'Oi de novo')
    expect(received(t).filter((b) => b.includes('privacidade'))).toHaveLength(1)
  })

  test('off: no consent message', async () => {
    const t = await setup({ ...LGPD, enableLGPD: false })
    await write(t, 'Oi')
    expect(received(t)).toHaveLength(1)
    expect(received(t)[0]).toContain('*[ 1 ]* - Vendas')
  })

  test('the connection keeps the fields; consent mode needs a message; the link must be http(s)', async () => {
    const t = await setup({ ...LGPD, lgpdConsent: true })
    const got = await t.admin.get(`/whatsapp/${t.conn.id}`)
    expect(got.body).toMatchObject({ ...LGPD, lgpdConsent: true })
    const empty = await t.admin.put(`/whatsapp/${t.conn.id}`, { lgpdMessage: '' })
    expect(empty.status).toBe(400)
    expect(JSON.stringify(empty.body)).toContain('lgpdMessage')
    const bad = await t.admin.put(`/whatsapp/${t.conn.id}`, { lgpdLink: 'javascript:alert(1)' })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain('lgpdLink')
  })
})

describe('collective vacation through the sandbox', () => {
  const vacation = {
    collectiveVacationStart: '2026-11-20',
    collectiveVacationEnd: '2026-11-30',
    collectiveVacationMessage: 'Estamos em férias coletivas até 30/11.',
  }

  test('every new conversation within the dates gets the vacation message; none outside them', async () => {
    const t = await setup(vacation)
    await write(t, 'Oi')
    expect(received(t)).toEqual([vacation.collectiveVacationMessage])
    await close(t)
    // another customer, and the first one again in a new conversation
    await write(t, 'Bom dia', '5511977776666')
    await write(t, 'Olá?')
    expect(received(t)).toEqual([
      vacation.collectiveVacationMessage,
      vacation.collectiveVacationMessage,
      vacation.collectiveVacationMessage,
    ])
    // December 1st: over
    t.h.clock.set(MONDAY_10 + 8 * DAY)
    await close(t)
    await write(t, 'Voltaram?')
    expect(received(t)).toHaveLength(4)
    expect(received(t)[3]).toContain('*[ 1 ]* - Vendas')
  })

  test('a connection with an external bot: the vacation message first, the bot after the vacation', async () => {
    const turns: BotTurn[] = []
    undo.push(
      registerBot('webhook', {
        kind: 'webhook',
        answer: async (_deps, turn): Promise<BotAnswer> => {
          turns.push(turn)
          return { replies: [{ body: 'Sou o robô' }] }
        },
      }),
    )
    const t = await setup(vacation, 0)
    const integration = (
      await t.admin.post('/queueIntegration', {
        type: 'webhook',
        name: 'Gancho',
        urlN8N: 'http://127.0.0.1:9/x',
      })
    ).body as { id: number }
    expect((await t.admin.put(`/whatsapp/${t.conn.id}`, { integrationId: integration.id })).status).toBe(200)
    await write(t, 'Oi')
    expect(received(t)).toEqual([vacation.collectiveVacationMessage])
    expect(turns).toHaveLength(0)
    t.h.clock.set(MONDAY_10 + 8 * DAY)
    await close(t)
    await write(t, 'Oi de novo')
    expect(turns.map((x) => x.text)).toEqual(['Oi de novo'])
    expect(received(t)).toEqual([vacation.collectiveVacationMessage, 'Sou o robô'])
  })
})

describe("the connection's service hours (scheduleType 'connection')", () => {
  const setting = (h: Harness, value: string) =>
    h.deps.sqlite
      .query("UPDATE settings SET value = ? WHERE company_id = ? AND key = 'scheduleType'")
      .run(value, h.a.id)
  const hours = (start: string, end: string) =>
    ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => ({
      weekday: d,
      weekdayEn: d,
      startTime: start,
      endTime: end,
    }))

  test("outside the connection's hours the out-of-hours message; inside, the menu", async () => {
    const t = await setup({
      outOfHoursMessage: 'Fechado agora, volte às 14h.',
      schedules: hours('14:00', '18:00'),
    })
    const got = await t.admin.get(`/whatsapp/${t.conn.id}`)
    expect((got.body as { schedules: { startTime: string }[] }).schedules[0]!.startTime).toBe('14:00')
    setting(t.h, 'connection')
    await write(t, 'Oi') // 10:00 local
    expect(received(t)).toEqual(['Fechado agora, volte às 14h.'])
    t.h.clock.advance(5 * 3_600_000) // 15:00 local
    await write(t, 'E agora?')
    expect(received(t).at(-1)).toContain('*[ 1 ]* - Vendas')
  })

  test("the company's hours do not decide under 'connection', nor the connection's under 'company'", async () => {
    const t = await setup({ outOfHoursMessage: 'Fechado.', schedules: hours('14:00', '18:00') })
    setting(t.h, 'company') // the company's default hours: Monday 08–18, open at 10:00
    await write(t, 'Oi')
    expect(received(t)[0]).toContain('*[ 1 ]* - Vendas')
  })

  test('bad hours are a 400 naming the field', async () => {
    const t = await setup()
    const res = await t.admin.put(`/whatsapp/${t.conn.id}`, {
      schedules: [{ weekday: 'x', weekdayEn: 'monday', startTime: '25:00', endTime: '18:00' }],
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain('schedules')
  })
})
