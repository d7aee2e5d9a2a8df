/**
 * One password rule everywhere a person chooses a password (the spec's reset rule: 8 to 50 characters with an
 * upper-case letter, a lower-case letter and a digit): users, sign-up, a company's first admin, the operator.
 */
import { describe, expect, test } from 'bun:test'
import { PASSWORD_RULE } from '../../../shared/schemas/common'
import { generatePassword } from '../../bootstrap'
import { createHarness } from '../../test/harness'
import { runOperatorCommand } from '../operator/commands'

/** Each passes the old rule (5 to 50 characters) and fails the one rule. */
const WEAK = ['abcdefgh', 'ABCDEFG1', 'abcdefg1', 'Abcdefgh', 'Ab1']
const fieldsOf = (body: { fields?: { field: string }[] }) => (body.fields ?? []).map((f) => f.field)

describe('the one password rule', () => {
  test('users: create and update refuse a weak password with 400 naming it; a good one passes', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    for (const password of WEAK) {
      const created = await admin.post('/users', {
        name: 'Nova',
        email: 'nova@alpha.test',
        profile: 'user',
        password,
      })
      expect([password, created.status, fieldsOf(created.body)]).toEqual([password, 400, ['password']])
      const updated = await admin.put(`/users/${h.a.attendantId}`, { password })
      expect([password, updated.status, fieldsOf(updated.body)]).toEqual([password, 400, ['password']])
    }
    const ok = await admin.post('/users', {
      name: 'Nova',
      email: 'nova@alpha.test',
      profile: 'user',
      password: 'Forte123',
    })
    expect(ok.status).toBe(201)
    // Empty on update still keeps the current password.
    expect((await admin.put(`/users/${h.a.attendantId}`, { password: '' })).status).toBe(200)
  })

  test('sign-up and a company`s first admin refuse a weak password', async () => {
    const h = await createHarness()
    const root = await h.as(h.superAdmin.email)
    const { code } = (await root.post('/signup/codes', {})).body
    const signup = await h.call('POST', '/companies/cadastro', {
      body: {
        name: 'Maria Souza',
        companyName: 'Padaria Central',
        email: 'maria@padaria.test',
        password: 'abcdefgh',
        phone: '(11) 91234-5678',
        planId: h.plan.id,
        code,
      },
    })
    expect([signup.status, fieldsOf(signup.body)]).toEqual([400, ['password']])
    const company = await root.post('/companies', {
      name: 'Gamma',
      email: 'dona@gamma.test',
      planId: h.plan.id,
      password: 'abcdefgh',
    })
    expect([company.status, fieldsOf(company.body)]).toEqual([400, ['password']])
  })

  test('the operator`s user create and reset-password refuse a weak password', async () => {
    const h = await createHarness()
    for (const [name, input] of [
      ['user.reset-password', { user: h.a.admin, password: 'abcdefgh' }],
      [
        'user.create',
        { company: h.a.id, name: 'Nova', email: 'nova@alpha.test', profile: 'user', password: 'abcdefgh' },
      ],
    ] as const) {
      const err = await runOperatorCommand(h.deps, name, input).then(
        () => null,
        (e: { status: number; fields?: { field: string }[] }) => e,
      )
      expect([name, err?.status, err?.fields?.map((f) => f.field)]).toEqual([name, 400, ['password']])
    }
    await runOperatorCommand(h.deps, 'user.reset-password', { user: h.a.admin, password: 'Forte123' })
  })

  test('generated passwords (first start, demo, the CLI) always pass it', () => {
    for (let i = 0; i < 2000; i++) expect(PASSWORD_RULE.test(generatePassword())).toBe(true)
    for (let i = 0; i < 500; i++) expect(PASSWORD_RULE.test(generatePassword(12))).toBe(true)
  })
})
