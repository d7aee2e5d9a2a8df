import { describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { contacts, signupCodes, tickets } from '../../db/schema'
import { createHarness, type Harness } from '../../test/harness'
import { companySettings } from '../settings/service'
import { codeHash } from './codes'

const form = (code: string, fields: Record<string, unknown> = {}) => ({
  name: 'Maria Souza',
  companyName: 'Padaria Central',
  email: 'maria@padaria.test',
  password: 'Segredo1',
  phone: '(11) 91234-5678',
  code,
  ...fields,
})

/** A code from the super user, as `POST /api/signup/codes` answers it. */
async function superCode(h: Harness, phone?: string) {
  const root = await h.as(h.superAdmin.email)
  const res = await root.post('/signup/codes', phone ? { phone } : {})
  expect(res.status).toBe(201)
  return res.body as { code: string; expiresAt: string; phone: string | null }
}

/** Each sign-up from its own address, so the per-address limit does not get in the way of the test. */
let address = 0
const fromNewAddress = () => ({ 'x-forwarded-for': `10.0.${Math.floor(++address / 250)}.${address % 250}` })

function cadastro(h: Harness, body: unknown, headers: Record<string, string> = fromNewAddress()) {
  return h.call('POST', '/companies/cadastro', { body, headers })
}

describe('sign-up codes', () => {
  test('the super user issues a code: six digits, 15 minutes, kept only as a hash', async () => {
    const h = await createHarness()
    const issued = await superCode(h)
    expect(issued.code).toMatch(/^\d{6}$/)
    expect(Date.parse(issued.expiresAt) - h.clock.now()).toBe(15 * 60 * 1000)
    const rows = h.db.select().from(signupCodes).all()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.codeHash).toBe(codeHash(h.deps.secrets, 'signup', issued.code))
    expect(JSON.stringify(rows)).not.toContain(issued.code)
  })

  test('only the super user issues codes', async () => {
    const h = await createHarness()
    for (const email of [h.a.admin, h.a.attendant]) {
      const client = await h.as(email)
      expect((await client.post('/signup/codes', {})).status).toBe(403)
    }
    expect((await h.call('POST', '/signup/codes', { body: {} })).status).toBe(401)
    expect(h.db.select().from(signupCodes).all()).toHaveLength(0)
  })

  test('a visitor asks for a code: sent through the platform default connection when it is connected, no ticket', async () => {
    const h = await createHarness()
    const connection = h.makeConnection(h.platform.id, { isDefault: true })
    await h.deps.channels.start(connection)
    const session = h.sessions.get(connection.id)!
    await session.emit({ t: 'status', status: 'CONNECTED' })
    const res = await h.call('POST', '/signup/code', { body: { phone: '(11) 91234-5678' } })
    expect(res.status).toBe(202)
    await h.clock.tick(0)
    const sent = session.calls.find((c) => c.method === 'send')
    expect(sent?.args[0]).toEqual({ jid: '5511912345678@s.whatsapp.net', pn: '5511912345678' })
    const body = (sent!.args[1] as { body: string }).body
    const code = body.match(/\b(\d{6})\b/)?.[1]
    expect(code).toBeDefined()
    // No contact and no ticket for the number the code went to.
    expect(h.db.select().from(contacts).all()).toHaveLength(0)
    expect(h.db.select().from(tickets).all()).toHaveLength(0)
    // The code works for that phone, and the phone is bound to it.
    expect(h.db.select().from(signupCodes).get()?.phone).toBe('5511912345678')
    // Asking again sends a new code, and the first one stops working.
    expect((await h.call('POST', '/signup/code', { body: { phone: '11912345678' } })).status).toBe(202)
    await h.clock.tick(0)
    const second = (session.calls.filter((c) => c.method === 'send')[1]!.args[1] as { body: string }).body
    const newer = second.match(/\b(\d{6})\b/)![1]!
    if (newer !== code) {
      const old = await cadastro(h, form(code!, { planId: h.plan.id }))
      expect(old.body.error).toBe('ERR_SIGNUP_INVALID_CODE')
    }
    const done = await cadastro(h, form(newer, { planId: h.plan.id }))
    expect(done.status).toBe(201)
  })

  test('through a real (sandbox) session too: the code goes out, and no contact or ticket appears', async () => {
    const h = await createHarness({ sandbox: true })
    const root = await h.as(h.superAdmin.email)
    const { body: connection } = await root.post('/whatsapp', {
      name: 'Plataforma',
      provider: 'sandbox',
      isDefault: true,
    })
    expect((await root.post(`/sandbox/connections/${connection.id}/pair`)).status).toBeLessThan(300)
    await h.clock.tick(5000)
    expect(h.deps.channels.session(connection.id)?.status).toBe('CONNECTED')
    expect((await h.call('POST', '/signup/code', { body: { phone: '11912345678' } })).status).toBe(202)
    await h.clock.tick(5000)
    await h.inbound.idle()
    const sent = h.deps.sandboxNetwork!.outbound(connection.id)
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ to: '5511912345678@s.whatsapp.net', kind: 'text' })
    expect(sent[0]!.body).toMatch(/seu código de cadastro é \d{6}/)
    expect(h.db.select().from(signupCodes).get()?.phone).toBe('5511912345678')
    expect(h.db.select().from(contacts).all()).toHaveLength(0)
    expect(h.db.select().from(tickets).all()).toHaveLength(0)
  })

  test('without a connected platform connection the answer is the same 202 and nothing is sent or issued', async () => {
    const h = await createHarness()
    const warnings: string[] = []
    h.deps.log.warn = (msg) => warnings.push(msg)
    const connection = h.makeConnection(h.platform.id, { isDefault: true })
    await h.deps.channels.start(connection) // started but never CONNECTED (a QR waiting)
    const res = await h.call('POST', '/signup/code', { body: { phone: '+5511912345678' } })
    expect(res.status).toBe(202)
    await h.clock.tick(0)
    expect(h.sessions.get(connection.id)!.calls.some((c) => c.method === 'send')).toBe(false)
    expect(h.db.select().from(signupCodes).all()).toHaveLength(0)
    expect(warnings.join(' ')).toContain('no connected default WhatsApp connection')
  })

  test('a failing send is logged, and still answered 202', async () => {
    const h = await createHarness()
    const warnings: string[] = []
    h.deps.log.warn = (msg, fields) => warnings.push(`${msg} ${JSON.stringify(fields)}`)
    const connection = h.makeConnection(h.platform.id, { isDefault: true })
    await h.deps.channels.start(connection)
    const session = h.sessions.get(connection.id)!
    await session.emit({ t: 'status', status: 'CONNECTED' })
    session.send = async () => {
      throw new Error('boom')
    }
    const res = await h.call('POST', '/signup/code', { body: { phone: '5511912345678' } })
    expect(res.status).toBe(202)
    await h.clock.tick(0)
    expect(warnings.join(' ')).toContain('sign-up code not sent')
    expect(warnings.join(' ')).toContain('boom')
    expect(warnings.join(' ')).not.toContain('5511912345678')
  })

  test('code requests are throttled per phone and per address', async () => {
    const h = await createHarness()
    const ask = (phone: string, ip: string) =>
      h.call('POST', '/signup/code', { body: { phone }, headers: { 'x-forwarded-for': ip } })
    for (let i = 0; i < 3; i++) expect((await ask('11912345678', `10.1.1.${i}`)).status).toBe(202)
    // The fourth for the same phone, from yet another address: refused.
    const fourth = await ask('(11) 91234-5678', '10.1.1.99')
    expect(fourth.status).toBe(429)
    expect(fourth.body.error).toBe('ERR_TOO_MANY_ATTEMPTS')
    expect(Number(fourth.headers.get('retry-after'))).toBeGreaterThan(0)
    // One address asking for many phones: 10, then refused.
    for (let i = 0; i < 10; i++) expect((await ask(`1193456000${i}`, '10.2.2.2')).status).toBe(202)
    expect((await ask('11934569999', '10.2.2.2')).status).toBe(429)
    // After the window, asking works again.
    h.clock.advance(15 * 60 * 1000 + 1)
    expect((await ask('11912345678', '10.1.1.99')).status).toBe(202)
  })
})

describe('POST /companies/cadastro', () => {
  test('signs a company up with a code: MENSAL, 7-day trial, active, campaigns on, the chosen plan, its admin', async () => {
    const h = await createHarness()
    const plan = h.deps.db
      .insert((await import('../../db/schema')).plans)
      .values({
        name: 'Pro',
        valueCents: 9990,
        users: 5,
        connections: 2,
        queues: 4,
        createdAt: 1,
        updatedAt: 1,
      })
      .returning()
      .get()
    const { code } = await superCode(h)
    const res = await cadastro(h, {
      ...form(code, { planId: plan.id }),
      // What the spec's client also sends is decided by the server.
      recurrence: 'ANUAL',
      dueDate: '2099-01-01',
      status: false,
      campaignsEnabled: false,
    })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      name: 'Padaria Central',
      email: 'maria@padaria.test',
      phone: '(11) 91234-5678',
      planId: plan.id,
      recurrence: 'MENSAL',
      status: true,
      dueDate: '2026-11-28',
      trialExpiration: '2026-11-28',
    })
    const settings = companySettings(h.db, res.body.id)
    expect(settings.find((s) => s.key === 'campaignsEnabled')?.value).toBe('true')
    // The first admin signs in with the form's name, e-mail and password, and sees the trial.
    const login = await h.call('POST', '/auth/login', {
      body: { email: 'maria@padaria.test', password: 'Segredo1' },
    })
    expect(login.status).toBe(200)
    expect(login.body.user).toMatchObject({ name: 'Maria Souza', profile: 'admin', super: false })
    expect(login.body.user.company).toMatchObject({ id: res.body.id, trialExpiration: '2026-11-28' })
    expect(h.db.select().from(signupCodes).get()).toMatchObject({ companyId: res.body.id })
  })

  test('a wrong code is refused with the spec text; a used code is refused the second time', async () => {
    const h = await createHarness()
    const { code } = await superCode(h)
    const wrong = code === '000000' ? '000001' : '000000'
    const bad = await cadastro(h, form(wrong, { planId: h.plan.id }))
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('ERR_SIGNUP_INVALID_CODE')
    expect(bad.body.message).toBe('Código de validação inválido. Não foi possível registrar.')
    expect((await cadastro(h, form(code, { planId: h.plan.id }))).status).toBe(201)
    const again = await cadastro(
      h,
      form(code, { planId: h.plan.id, email: 'outra@padaria.test', companyName: 'Outra Padaria' }),
    )
    expect(again.status).toBe(400)
    expect(again.body.error).toBe('ERR_SIGNUP_INVALID_CODE')
  })

  test('an expired code is refused (15 minutes on the clock)', async () => {
    const h = await createHarness()
    const { code } = await superCode(h)
    h.clock.advance(15 * 60 * 1000)
    const res = await cadastro(h, form(code, { planId: h.plan.id }))
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('ERR_SIGNUP_INVALID_CODE')
  })

  test('a code bound to a phone signs up only that phone', async () => {
    const h = await createHarness()
    const { code, phone } = await superCode(h, '+55 11 91234-5678'.replace(/\s|-/g, ''))
    expect(phone).toBe('5511912345678')
    const other = await cadastro(h, form(code, { planId: h.plan.id, phone: '(21) 98765-4321' }))
    expect(other.status).toBe(400)
    expect(other.body.error).toBe('ERR_SIGNUP_INVALID_CODE')
    // The same phone written the Brazilian way is the same phone.
    expect((await cadastro(h, form(code, { planId: h.plan.id, phone: '(11) 91234-5678' }))).status).toBe(201)
  })

  test('a sign-up refused for another reason keeps the code for a corrected form', async () => {
    const h = await createHarness()
    const { code } = await superCode(h)
    const taken = await cadastro(h, form(code, { planId: h.plan.id, email: h.a.admin }))
    expect(taken.status).toBe(409)
    expect(taken.body.error).toBe('ERR_EMAIL_ALREADY_EXISTS')
    const noPlan = await cadastro(h, form(code, { planId: 999 }))
    expect(noPlan.status).toBe(404)
    expect(noPlan.body.error).toBe('ERR_NO_PLAN_FOUND')
    const sameName = await cadastro(h, form(code, { planId: h.plan.id, companyName: 'Alpha' }))
    expect(sameName.status).toBe(409)
    expect((await cadastro(h, form(code, { planId: h.plan.id }))).status).toBe(201)
  })

  test('a sign-up that fails while it is written leaves no company behind and the code usable', async () => {
    const h = await createHarness()
    const { code } = await superCode(h)
    // The last write of a sign-up (linking the code to its company) fails once.
    h.deps.sqlite.run(`CREATE TRIGGER fail_link BEFORE UPDATE OF company_id ON signup_codes
      BEGIN SELECT RAISE(ABORT, 'disk full'); END`)
    const failed = await cadastro(h, form(code, { planId: h.plan.id }))
    expect(failed.status).toBe(500)
    const named = () =>
      h.deps.sqlite
        .query<{ id: number; trial: string | null }, [string]>(
          'SELECT id, trial_expiration AS trial FROM companies WHERE name = ?',
        )
        .all('Padaria Central')
    expect(named()).toEqual([])
    expect(h.db.select().from(signupCodes).get()).toMatchObject({ usedAt: null, companyId: null })
    h.deps.sqlite.run('DROP TRIGGER fail_link')
    expect((await cadastro(h, form(code, { planId: h.plan.id }))).status).toBe(201)
    expect(named()).toEqual([{ id: expect.any(Number), trial: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }])
  })

  test('the form rules: name and company name 2 to 50, password 5 to 50, e-mail, phone patterns up to 15', async () => {
    const h = await createHarness()
    const { code } = await superCode(h)
    const fields = (res: { body: { fields?: { field: string }[] } }) => res.body.fields?.map((f) => f.field)
    for (const [patch, field] of [
      [{ name: 'M' }, 'name'],
      [{ name: 'x'.repeat(51) }, 'name'],
      [{ companyName: 'P' }, 'companyName'],
      [{ companyName: 'x'.repeat(51) }, 'companyName'],
      [{ password: '1234' }, 'password'],
      [{ password: 'x'.repeat(51) }, 'password'],
      [{ email: 'not-an-email' }, 'email'],
      [{ phone: '' }, 'phone'],
      [{ phone: '12345' }, 'phone'],
      [{ phone: '(11) 91234-56789' }, 'phone'],
      [{ phone: '+5511912345678901' }, 'phone'],
      [{ planId: 0 }, 'planId'],
      [{ code: '12345' }, 'code'],
      [{ code: 'abcdef' }, 'code'],
    ] as const) {
      const res = await cadastro(h, form(code, { planId: h.plan.id, ...patch }))
      expect({ patch, status: res.status, fields: fields(res) }).toEqual({
        patch,
        status: 400,
        fields: [field],
      })
    }
    // None of these spent the code.
    expect((await cadastro(h, form(code, { planId: h.plan.id }))).status).toBe(201)
  })

  test('failed sign-ups are throttled per address', async () => {
    const h = await createHarness()
    const headers = { 'x-forwarded-for': '10.9.9.9' }
    for (let i = 0; i < 10; i++) {
      const res = await cadastro(h, form('123456', { planId: h.plan.id }), headers)
      expect(res.status).toBe(400)
    }
    const { code } = await superCode(h)
    const refused = await cadastro(h, form(code, { planId: h.plan.id }), headers)
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe('ERR_TOO_MANY_ATTEMPTS')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another address is not held back by this one.
    expect((await cadastro(h, form(code, { planId: h.plan.id }))).status).toBe(201)
  })

  test('failed sign-ups across many addresses are capped too', async () => {
    const h = await createHarness()
    for (let i = 0; i < 100; i++)
      expect((await cadastro(h, form('123456', { planId: h.plan.id }))).status).toBe(400)
    const { code } = await superCode(h)
    expect((await cadastro(h, form(code, { planId: h.plan.id }))).status).toBe(429)
    h.clock.advance(15 * 60 * 1000 + 1)
    expect((await cadastro(h, form(code, { planId: h.plan.id }))).status).toBe(400) // expired meanwhile
  })
})

describe('GET /companies/listPlan/{companyId}', () => {
  test("the company's users and the super user see it with its plan; others get 404", async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const mine = await admin.get(`/companies/listPlan/${h.a.id}`)
    expect(mine.status).toBe(200)
    expect(mine.body).toMatchObject({
      id: h.a.id,
      name: 'Alpha',
      plan: { id: h.plan.id, name: 'Plano Padrão' },
    })
    expect(mine.body.plan).toHaveProperty('users')
    expect(mine.body.plan).toHaveProperty('useCampaigns')
    const root = await h.as(h.superAdmin.email)
    expect((await root.get(`/companies/listPlan/${h.b.id}`)).body.id).toBe(h.b.id)
    expect((await admin.get(`/companies/listPlan/${h.b.id}`)).status).toBe(404)
    // Attendants read their own company's plan flags (the spec's menu), never another's.
    const agent = await h.as(h.a.attendant)
    const flags = await agent.get(`/companies/listPlan/${h.a.id}`)
    expect(flags.status).toBe(200)
    expect(flags.body.plan).toMatchObject({ id: h.plan.id, useKanban: true })
    expect((await agent.get(`/companies/listPlan/${h.b.id}`)).status).toBe(404)
    expect((await h.call('GET', `/companies/listPlan/${h.a.id}`)).status).toBe(401)
    expect((await root.get('/companies/listPlan/99999')).status).toBe(404)
  })

  test('the companies area still needs the super user (the public routes opened nothing else)', async () => {
    const h = await createHarness()
    expect((await h.call('GET', '/companies')).status).toBe(401)
    expect((await h.call('POST', '/companies', { body: {} })).status).toBe(401)
    const admin = await h.as(h.a.admin)
    expect((await admin.get('/companies')).status).toBe(403)
    expect(h.db.select().from(signupCodes).where(eq(signupCodes.id, 1)).all()).toHaveLength(0)
  })
})
