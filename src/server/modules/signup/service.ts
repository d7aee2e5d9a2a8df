/**
 * Public sign-up (spec 3): validation codes the server issues and checks, and the company it creates.
 *
 * The spec's client-held list of codes is replaced by codes kept here: six digits, single-use, valid for
 * 15 minutes, stored as an HMAC (codes.ts). A visitor asks for one by WhatsApp (`requestSignupCode`: sent
 * through the platform company's default connection when it is connected, bound to that phone); otherwise
 * the operator issues one (`balcao signup-code create`, or the super user: `POST /api/signup/codes`).
 */
import type { CompanyWithPlanDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import { type IssuedSignupCode, normalizePhone, type SignupInput } from '../../../shared/schemas/signup'
import { isoDate, isoString } from '../../clock'
import type { Ctx, Deps, SystemActor } from '../../context'
import { transact } from '../../context'
import { stmt } from '../../db/statements'
import { assertMayReadCompany, createCompany, getCompany } from '../companies/service'
import { doorOf } from '../outbound/door'
import { getPlanRow, toPlanDto } from '../plans/service'
import { codeHash, newCode } from './codes'

export const SIGNUP_CODE_TTL_MS = 15 * 60 * 1000
/** Spec 3: a signed-up company has 7 days of trial, recurrence MENSAL. */
export const TRIAL_DAYS = 7
const DAY_MS = 24 * 60 * 60 * 1000

export type SignupCodeSource = 'whatsapp' | 'super' | 'terminal'

/** The spec's text for a wrong code (the web shows its translation). */
const INVALID_CODE = 'Código de validação inválido. Não foi possível registrar.'

/** The platform company: the one its super users belong to (the bootstrap's). */
export function platformCompanyId(deps: Pick<Deps, 'sqlite'>): number | null {
  return (
    stmt<{ companyId: number }, []>(
      deps.sqlite,
      'SELECT company_id AS companyId FROM users WHERE super = 1 ORDER BY id LIMIT 1',
    ).get()?.companyId ?? null
  )
}

/** Issues a code (optionally bound to a phone, digits with the country code) and answers it once, in clear. */
export function issueSignupCode(
  deps: Deps,
  source: SignupCodeSource,
  phone: string | null = null,
): IssuedSignupCode {
  const now = deps.clock.now()
  const expiresAt = now + SIGNUP_CODE_TTL_MS
  const code = transact(deps, (sqlite) => {
    // Codes that ended a day ago are of no use to anyone: they go here, a few at a time.
    stmt<unknown, [number]>(
      sqlite,
      'DELETE FROM signup_codes WHERE expires_at < ? AND company_id IS NULL',
    ).run(now - DAY_MS)
    // A visitor who asks again gets a new code, and the one sent before stops working.
    if (phone && source === 'whatsapp')
      stmt<unknown, [number, string, number]>(
        sqlite,
        `UPDATE signup_codes SET expires_at = ?
          WHERE phone = ? AND source = 'whatsapp' AND used_at IS NULL AND expires_at > ?`,
      ).run(now, phone, now)
    for (;;) {
      const candidate = newCode()
      const hash = codeHash(deps.secrets, 'signup', candidate)
      // Two live codes with the same digits would be one code for two people.
      const clash = stmt<{ id: number }, [string, number]>(
        sqlite,
        'SELECT id FROM signup_codes WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?',
      ).get(hash, now)
      if (clash) continue
      stmt<unknown, [string, string | null, SignupCodeSource, number, number]>(
        sqlite,
        'INSERT INTO signup_codes (code_hash, phone, source, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      ).run(hash, phone, source, now, expiresAt)
      return candidate
    }
  })
  return { code, expiresAt: isoString(expiresAt), phone }
}

/** The platform company's default connection, when its session is connected now. */
function sendingConnection(deps: Deps) {
  const companyId = platformCompanyId(deps)
  if (companyId == null) return null
  const row = stmt<{ id: number }, [number]>(
    deps.sqlite,
    'SELECT id FROM whatsapps WHERE company_id = ? AND is_default = 1',
  ).get(companyId)
  if (!row || deps.channels.session(row.id)?.status !== 'CONNECTED') return null
  return row
}

/** The last four digits only, for the log. */
const maskedPhone = (phone: string) => `${'*'.repeat(Math.max(0, phone.length - 4))}${phone.slice(-4)}`

/**
 * `POST /api/signup/code`: issues a code bound to the phone and sends it by WhatsApp through the platform's
 * default connection. The visitor is answered the same way whatever happens; the returned promise (which
 * never rejects) settles when the message went or failed, and the log says why a code was not sent.
 * A plain send to a JID opens no contact and no ticket (our own send's echo is not an inbound message).
 */
export function requestSignupCode(deps: Deps, rawPhone: string): Promise<void> {
  const phone = normalizePhone(rawPhone)
  if (!phone) return Promise.resolve()
  const connection = sendingConnection(deps)
  if (!connection) {
    deps.log.warn(
      'sign-up code not sent: the platform company has no connected default WhatsApp connection',
      {
        phone: maskedPhone(phone),
        fix: 'connect the platform company default connection, or issue a code with `balcao signup-code create` or as the super user in Settings',
      },
    )
    return Promise.resolve()
  }
  const issued = issueSignupCode(deps, 'whatsapp', phone)
  const body =
    `Balcão: seu código de cadastro é ${issued.code}.\n` +
    'Ele vale por 15 minutos e só pode ser usado uma vez. Não o compartilhe com ninguém.'
  // Through the connection's door, in line with its other senders; the code's row is its record (no message
  // row: a code that did not go is asked for again).
  const to = { jid: `${phone}@s.whatsapp.net`, pn: phone }
  return doorOf(deps, connection.id)
    .turn('conversation', (turn) => {
      const hand = turn.connected ? turn.claim(() => true) : null
      if (!hand) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection is not connected')
      return hand.send(to, { kind: 'text', body })
    })
    .then(() => {
      deps.log.info('sign-up code sent by WhatsApp', {
        connectionId: connection.id,
        phone: maskedPhone(phone),
      })
    })
    .catch((err: unknown) => {
      deps.log.warn('sign-up code not sent', {
        connectionId: connection.id,
        phone: maskedPhone(phone),
        error: (err as Error).message,
      })
    })
}

/** Takes a live code (the phone's own first, then an unbound one) so nobody else can use it meanwhile. */
function claimCode(deps: Deps, code: string, phone: string): number {
  const now = deps.clock.now()
  const hash = codeHash(deps.secrets, 'signup', code)
  return transact(deps, (sqlite) => {
    // The phone's own code sorts before an unbound one (NULLs last when descending).
    const row = stmt<{ id: number }, [string, number, string]>(
      sqlite,
      `SELECT id FROM signup_codes
        WHERE code_hash = ? AND used_at IS NULL AND expires_at > ? AND (phone IS NULL OR phone = ?)
        ORDER BY phone DESC`,
    ).get(hash, now, phone)
    if (!row)
      throw new AppError('ERR_SIGNUP_INVALID_CODE', INVALID_CODE, undefined, [
        { field: 'code', message: INVALID_CODE },
      ])
    stmt<unknown, [number, number]>(sqlite, 'UPDATE signup_codes SET used_at = ? WHERE id = ?').run(
      now,
      row.id,
    )
    return row.id
  })
}

/**
 * `POST /api/companies/cadastro`: checks the code, then creates the company as spec 3 says (recurrence
 * MENSAL, due date and trial 7 days ahead, active, default settings with campaignsEnabled 'true', the
 * chosen plan) with its first admin. The code is spent only when the company exists: a sign-up refused
 * for another reason (a taken e-mail or name) may be corrected and sent again with the same code.
 */
export async function signUp(deps: Deps, input: SignupInput) {
  const phone = normalizePhone(input.phone)
  if (!phone)
    throw new AppError('ERR_VALIDATION', 'Invalid phone number', undefined, [
      { field: 'phone', message: 'Invalid phone number' },
    ])
  const codeId = claimCode(deps, input.code, phone)
  const now = deps.clock.now()
  const trialEnd = isoDate(now + TRIAL_DAYS * DAY_MS)
  const actor: SystemActor = { kind: 'system', companyId: platformCompanyId(deps) ?? 0 }
  let companyId: number
  try {
    const company = await createCompany(
      { ...deps, actor },
      {
        name: input.companyName,
        userName: input.name,
        email: input.email,
        password: input.password,
        phone: input.phone,
        planId: input.planId,
        recurrence: 'MENSAL',
        dueDate: trialEnd,
        status: true,
      },
      // In the company's own transaction: a company never exists without its trial or its code's link.
      (sqlite, id) => {
        stmt<unknown, [string, number]>(sqlite, 'UPDATE companies SET trial_expiration = ? WHERE id = ?').run(
          trialEnd,
          id,
        )
        stmt<unknown, [number, number]>(sqlite, 'UPDATE signup_codes SET company_id = ? WHERE id = ?').run(
          id,
          codeId,
        )
      },
    )
    companyId = company.id
  } catch (err) {
    stmt<unknown, [number]>(deps.sqlite, 'UPDATE signup_codes SET used_at = NULL WHERE id = ?').run(codeId)
    throw err
  }
  deps.log.info('company signed up', { companyId, planId: input.planId })
  return getCompany({ ...deps, actor }, companyId)
}

/**
 * `GET /api/companies/listPlan/{companyId}`: the company with its whole plan; its own users (the spec's menu reads
 * the plan's flags for attendants too) or the super user.
 */
export function getCompanyWithPlan(ctx: Ctx, companyId: number): CompanyWithPlanDto {
  assertMayReadCompany(ctx, companyId, 'users')
  const company = getCompany(ctx, companyId)
  return { ...company, plan: toPlanDto(getPlanRow(ctx.sqlite, company.planId)) }
}
