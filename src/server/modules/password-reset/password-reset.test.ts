import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'
import { passwordResets } from '../../db/schema'
import { createHarness, type Harness, PASSWORD } from '../../test/harness'

/** A local SMTP server on 127.0.0.1 and a free port: what it receives stays in `inbox`. */
type Received = { from: string; to: string[]; raw: string }
const inbox: Received[] = []
let smtp: SMTPServer
let port = 0

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  port = (smtp.server.address() as AddressInfo).port
})

afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

/** The text of a message, its quoted-printable parts decoded (enough to read what we sent). */
function decoded(raw: string): string {
  const bytes: number[] = []
  const text = raw.replace(/=\r?\n/g, '')
  for (let i = 0; i < text.length; i++) {
    const hex = text[i] === '=' ? text.slice(i + 1, i + 3) : ''
    if (/^[0-9A-F]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16))
      i += 2
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'))
  }
  return Buffer.from(bytes).toString('utf8')
}

function withMail(h: Harness) {
  h.deps.env = {
    BALCAO_SMTP_URL: `smtp://127.0.0.1:${port}`,
    BALCAO_SMTP_FROM: 'Balcão <no-reply@balcao.test>',
  }
}

/** Each request from its own address: the per-address limits are tested on their own. */
let address = 0
const ip = () => ({ 'x-forwarded-for': `10.7.${Math.floor(++address / 250)}.${address % 250}` })

const forget = (h: Harness, email: string, headers = ip()) =>
  h.call('POST', `/forgetpassword/${encodeURIComponent(email)}`, { headers })
const reset = (h: Harness, email: string, token: string, password: string, headers = ip()) =>
  h.call(
    'POST',
    `/resetpasswords/${encodeURIComponent(email)}/${encodeURIComponent(token)}/${encodeURIComponent(password)}`,
    { headers },
  )

async function codeFor(h: Harness, email: string) {
  const before = inbox.length
  const res = await forget(h, email)
  expect(res.status).toBe(200)
  expect(inbox.length).toBe(before + 1)
  const mail = inbox.at(-1)!
  expect(mail.to).toEqual([email])
  const code = decoded(mail.raw).match(/Seu código de verificação é: (\d{6})/)?.[1]
  expect(code).toMatch(/^\d{6}$/)
  return { code: code!, mail }
}

describe('password recovery', () => {
  test('a code by e-mail (through a local SMTP server), the reset, and the new password signs in', async () => {
    const h = await createHarness()
    withMail(h)
    const oldToken = await h.login(h.a.attendant)
    const res = await forget(h, h.a.attendant)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ status: 'ok' })
    const mail = inbox.at(-1)!
    expect(mail.from).toBe('no-reply@balcao.test')
    const text = decoded(mail.raw)
    // In Portuguese, as plain text and as HTML.
    expect(text).toMatch(/^Subject: .+/m)
    expect(text).toContain('Content-Type: text/plain')
    expect(text).toContain('Content-Type: text/html')
    expect(text).toContain('Recebemos um pedido para redefinir a senha da sua conta no Balcão.')
    expect(text).toContain('Ele vale por 30 minutos e só pode ser usado uma vez.')
    const code = text.match(/Seu código de verificação é: (\d{6})/)![1]!
    // Kept only as a hash.
    expect(JSON.stringify(h.db.select().from(passwordResets).all())).not.toContain(code)

    const done = await reset(h, h.a.attendant, code, 'NovaSenha1')
    expect(done.status).toBe(200)
    expect(done.body).toEqual({ status: 'ok' })
    // The new password works, the old one does not, and the sessions that were open have ended.
    expect(
      (await h.call('POST', '/auth/login', { body: { email: h.a.attendant, password: PASSWORD } })).status,
    ).toBe(401)
    expect((await h.call('GET', '/auth/me', { token: oldToken })).status).toBe(401)
    const login = await h.call('POST', '/auth/login', {
      body: { email: h.a.attendant, password: 'NovaSenha1' },
    })
    expect(login.status).toBe(200)
    // The code is spent.
    const again = await reset(h, h.a.attendant, code, 'OutraSenha2')
    expect(again.status).toBe(400)
    expect(again.body.error).toBe('ERR_INVALID_RESET_TOKEN')
  })

  test('the e-mail in the path is read case-insensitively', async () => {
    const h = await createHarness()
    withMail(h)
    const { code } = await codeFor(h, h.a.admin)
    expect((await reset(h, h.a.admin.toUpperCase(), code, 'NovaSenha1')).status).toBe(200)
  })

  test('a wrong code, an expired code, and a code replaced by a newer request are refused', async () => {
    const h = await createHarness()
    withMail(h)
    const first = await codeFor(h, h.a.admin)
    const wrong = first.code === '000000' ? '000001' : '000000'
    const bad = await reset(h, h.a.admin, wrong, 'NovaSenha1')
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('ERR_INVALID_RESET_TOKEN')
    const second = await codeFor(h, h.a.admin)
    if (second.code !== first.code)
      expect((await reset(h, h.a.admin, first.code, 'NovaSenha1')).status).toBe(400)
    h.clock.advance(30 * 60 * 1000)
    const late = await reset(h, h.a.admin, second.code, 'NovaSenha1')
    expect(late.status).toBe(400)
    expect(late.body.error).toBe('ERR_INVALID_RESET_TOKEN')
    // Nothing changed.
    expect(
      (await h.call('POST', '/auth/login', { body: { email: h.a.admin, password: PASSWORD } })).status,
    ).toBe(200)
  })

  test('five wrong guesses spend the code', async () => {
    const h = await createHarness()
    withMail(h)
    const { code } = await codeFor(h, h.b.admin)
    const wrong = code === '111111' ? '222222' : '111111'
    for (let i = 0; i < 5; i++) expect((await reset(h, h.b.admin, wrong, 'NovaSenha1')).status).toBe(400)
    expect((await reset(h, h.b.admin, code, 'NovaSenha1')).status).toBe(400)
  })

  test("the spec's password rule: 8+ characters with upper, lower and a digit", async () => {
    const h = await createHarness()
    withMail(h)
    const { code } = await codeFor(h, h.a.admin)
    for (const weak of ['Curta1', 'semmaiuscula1', 'SEMMINUSCULA1', 'SemNumeros', `${'x'.repeat(51)}A1`]) {
      const res = await reset(h, h.a.admin, code, weak)
      expect({ weak, status: res.status, error: res.body.error }).toEqual({
        weak,
        status: 400,
        error: 'ERR_VALIDATION',
      })
      expect(res.body.message).toBe(
        'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
      )
    }
    // The weak tries did not spend the code.
    expect((await reset(h, h.a.admin, code, 'Forte123')).status).toBe(200)
  })

  test('an unknown e-mail is 404; a malformed one is 400', async () => {
    const h = await createHarness()
    withMail(h)
    const before = inbox.length
    const res = await forget(h, 'ninguem@nada.test')
    expect(res.status).toBe(404)
    expect(res.body).toMatchObject({ error: 'ERR_NO_USER_FOUND', message: 'Email não encontrado' })
    expect((await forget(h, 'not-an-email')).status).toBe(400)
    expect(inbox.length).toBe(before)
    expect((await reset(h, 'ninguem@nada.test', '123456', 'NovaSenha1')).status).toBe(400)
  })

  test('without mail settings: a clear 503 and a log line naming the variables; Settings work like the environment', async () => {
    const h = await createHarness()
    const warnings: string[] = []
    h.deps.log.warn = (msg, fields) => warnings.push(`${msg} ${JSON.stringify(fields)}`)
    const res = await forget(h, h.a.admin)
    expect(res.status).toBe(503)
    expect(res.body.error).toBe('ERR_MAIL_NOT_CONFIGURED')
    expect(warnings.join('\n')).toContain('BALCAO_SMTP_URL')
    expect(warnings.join('\n')).toContain('BALCAO_SMTP_FROM')
    // An unknown e-mail gets the same answer: nothing is said about the address.
    expect((await forget(h, 'ninguem@nada.test')).status).toBe(503)
    // A URL that is not smtp(s):// is not used.
    h.deps.env = { BALCAO_SMTP_URL: `http://127.0.0.1:${port}`, BALCAO_SMTP_FROM: 'x@y.test' }
    expect((await forget(h, h.a.admin)).status).toBe(503)
    // The super user's Settings.
    h.deps.env = {}
    const root = await h.as(h.superAdmin.email)
    expect((await root.put('/platform-settings/smtpUrl', { value: `smtp://127.0.0.1:${port}` })).status).toBe(
      200,
    )
    expect((await root.put('/platform-settings/smtpFrom', { value: 'suporte@balcao.test' })).status).toBe(200)
    const before = inbox.length
    expect((await forget(h, h.a.admin)).status).toBe(200)
    expect(inbox.length).toBe(before + 1)
    expect(inbox.at(-1)!.from).toBe('suporte@balcao.test')
  })

  test('an SMTP server that cannot be reached: 502, logged', async () => {
    const h = await createHarness()
    const errors: string[] = []
    h.deps.log.error = (msg) => errors.push(msg)
    const closed = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
    const deadPort = closed.port
    closed.stop(true)
    h.deps.env = { BALCAO_SMTP_URL: `smtp://127.0.0.1:${deadPort}`, BALCAO_SMTP_FROM: 'x@balcao.test' }
    const res = await forget(h, h.a.admin)
    expect(res.status).toBe(502)
    expect(res.body.error).toBe('ERR_MAIL_SEND_FAILED')
    expect(errors).toContain('mail not sent')
  })

  test('an SMTP URL that cannot be parsed: a 503 (never a 500), and neither the answer nor the log shows its password', async () => {
    const h = await createHarness()
    const lines: string[] = []
    const keep = (msg: string, fields?: unknown) => lines.push(`${msg} ${JSON.stringify(fields ?? {})}`)
    h.deps.log.warn = keep
    h.deps.log.error = keep
    for (const url of [
      'smtp://ana:S3gr3d0@mail.example:99999',
      'smtp://ana:S3gr3d0@[',
      'smtp://ana:S3gr3d0@',
    ]) {
      h.deps.env = { BALCAO_SMTP_URL: url, BALCAO_SMTP_FROM: 'x@balcao.test' }
      const res = await forget(h, h.a.admin)
      expect({ url, status: res.status, error: res.body.error }).toEqual({
        url,
        status: 503,
        error: 'ERR_MAIL_NOT_CONFIGURED',
      })
      expect(JSON.stringify(res.body)).not.toContain('S3gr3d0')
    }
    expect(lines.join('\n')).not.toContain('S3gr3d0')
  })

  test('requests are throttled per e-mail and per address; resets per e-mail', async () => {
    const h = await createHarness()
    withMail(h)
    for (let i = 0; i < 3; i++) expect((await forget(h, h.a.admin)).status).toBe(200)
    const refused = await forget(h, h.a.admin)
    expect(refused.status).toBe(429)
    expect(refused.body.error).toBe('ERR_TOO_MANY_ATTEMPTS')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // One address, many e-mails (known or not): 10, then refused.
    const one = { 'x-forwarded-for': '10.8.8.8' }
    for (let i = 0; i < 10; i++) expect((await forget(h, `x${i}@nada.test`, one)).status).toBe(404)
    expect((await forget(h, h.b.admin, one)).status).toBe(429)
    // Wrong resets of one e-mail from many addresses: 10, then refused even with any code.
    for (let i = 0; i < 10; i++)
      expect((await reset(h, h.b.attendant, '000000', 'NovaSenha1')).status).toBe(400)
    expect((await reset(h, h.b.attendant, '000000', 'NovaSenha1')).status).toBe(429)
    h.clock.advance(15 * 60 * 1000 + 1)
    expect((await forget(h, h.a.admin)).status).toBe(200)
  })
})
