/** Junk on every public route of sign-up and password recovery (and the super user's code route): never a 500. */
import { describe, expect, test } from 'bun:test'
import { signupCodes } from '../../db/schema'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  JUNK_VALUES,
  mutations,
} from '../../test/probe'

const form = {
  name: 'Maria Souza',
  companyName: 'Padaria Central',
  email: 'maria@padaria.test',
  password: 'Segredo1',
  phone: '(11) 91234-5678',
  planId: 1,
  code: '123456',
}

describe('sign-up and recovery: probes', () => {
  test('junk bodies and field values on POST /signup/code, /signup/codes and /companies/cadastro', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    for (const path of ['/signup/code', '/signup/codes', '/companies/cadastro'])
      await expectJunkBodiesRefused(h, root.token, 'POST', path)
    for (const value of JUNK_VALUES) {
      const label = JSON.stringify(value)?.slice(0, 40)
      expectNo500(`code ${label}`, await h.call('POST', '/signup/code', { body: { phone: value } }))
      expectNo500(`codes ${label}`, await root.post('/signup/codes', { phone: value }))
    }
    for (const body of mutations({ ...form, planId: h.plan.id }))
      expectNo500(JSON.stringify(body).slice(0, 80), await h.call('POST', '/companies/cadastro', { body }))
    for (const phone of [
      '+',
      '()',
      '(11)',
      '٠١٢٣٤٥٦٧٨٩',
      '１１９１２３４５６７８',
      '11 9 1234 5678 9',
      '+0011912345678',
    ])
      expectRefused(phone, await h.call('POST', '/signup/code', { body: { phone } }), 400)
    // A code issued for junk never exists: only the super user's valid requests issued any.
    expect(
      h.db
        .select()
        .from(signupCodes)
        .all()
        .every((r) => r.phone === null || /^\d{8,15}$/.test(r.phone)),
    ).toBe(true)
  })

  test('junk ids on GET /companies/listPlan/{id} answer 404', async () => {
    const h = await createHarness()
    for (const email of [h.a.admin, h.superAdmin.email]) {
      const client = await h.as(email)
      await expectJunkIds404(h, client.token, [['GET', '/companies/listPlan/:id']], 'ERR_NO_COMPANY_FOUND')
    }
  })

  test('junk e-mails, tokens and passwords in the recovery paths', async () => {
    const h = await createHarness()
    h.deps.env = { BALCAO_SMTP_URL: 'smtp://127.0.0.1:1', BALCAO_SMTP_FROM: 'x@balcao.test' }
    const junk = [
      '',
      '%20',
      '%00',
      'a',
      'x'.repeat(500),
      '%F0%9F%91%8B%F0%9F%8F%BD%E2%80%AE',
      '..',
      '%2F..%2F',
      'a%40b',
      '%E0%A4%A',
      '__proto__',
      'constructor',
      'null',
      '1e999',
    ]
    for (const value of junk) {
      const headers = { 'x-forwarded-for': `10.5.5.${junk.indexOf(value)}` }
      expectNo500(`forget ${value}`, await h.call('POST', `/forgetpassword/${value}`, { headers }))
      for (const path of [
        `/resetpasswords/${value}/123456/NovaSenha1`,
        `/resetpasswords/${encodeURIComponent(h.a.admin)}/${value}/NovaSenha1`,
        `/resetpasswords/${encodeURIComponent(h.a.admin)}/123456/${value}`,
      ])
        expectNo500(path.slice(0, 80), await h.call('POST', path, { headers }))
    }
    // Other methods are not routes.
    expect((await h.call('GET', `/forgetpassword/${h.a.admin}`)).status).toBe(404)
    expect((await h.call('GET', '/signup/code')).status).toBe(404)
  })
})
