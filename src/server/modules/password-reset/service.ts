/**
 * Password recovery (spec 3): `POST /forgetpassword/{email}` e-mails a six-digit code, and
 * `POST /resetpasswords/{email}/{token}/{password}` sets the new password with it. One code per user (a new
 * request replaces the old one), valid for 30 minutes, single-use, kept as an HMAC; a code guessed wrong
 * `MAX_ATTEMPTS` times is spent. A reset ends every session of the user.
 */
import { AppError } from '../../../shared/errors'
import { RESET_PASSWORD, RESET_TOKEN } from '../../../shared/schemas/signup'
import type { Deps, SystemActor } from '../../context'
import { transact } from '../../context'
import type { PasswordResetRow, UserRow } from '../../db/schema'
import { stmt } from '../../db/statements'
import { escapeHtml, requireMailSettings, sendMail } from '../../mail/mailer'
import { codeHash, newCode } from '../signup/codes'
import { endOtherSessions, hashPassword } from '../users/service'

export const RESET_CODE_TTL_MS = 30 * 60 * 1000
export const MAX_ATTEMPTS = 5

/** The spec's texts (the web shows their translations). */
export const EMAIL_NOT_FOUND = 'Email não encontrado'
export const WEAK_PASSWORD =
  'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.'
const INVALID_TOKEN = 'Código inválido ou expirado. Peça um novo código.'

function userByEmail(deps: Deps, email: string) {
  return stmt<Pick<UserRow, 'id' | 'companyId' | 'name' | 'email'>, [string]>(
    deps.sqlite,
    'SELECT id, company_id AS companyId, name, email FROM users WHERE email = ?',
  ).get(email)
}

export function recoveryMail(name: string, code: string) {
  const minutes = RESET_CODE_TTL_MS / 60_000
  const subject = `Seu código para redefinir a senha: ${code}`
  const text = [
    `Olá, ${name}!`,
    '',
    'Recebemos um pedido para redefinir a senha da sua conta no Balcão.',
    '',
    `Seu código de verificação é: ${code}`,
    '',
    `Ele vale por ${minutes} minutos e só pode ser usado uma vez.`,
    'Se você não pediu a troca de senha, ignore este e-mail: sua senha continua a mesma.',
    '',
    'Balcão',
  ].join('\n')
  const html = `<!doctype html>
<html lang="pt-BR"><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#1f2937;line-height:1.5">
<p>Olá, ${escapeHtml(name)}!</p>
<p>Recebemos um pedido para redefinir a senha da sua conta no Balcão.</p>
<p>Seu código de verificação é:</p>
<p style="font-size:28px;font-weight:600;letter-spacing:6px;margin:8px 0 16px">${code}</p>
<p>Ele vale por ${minutes} minutos e só pode ser usado uma vez.</p>
<p style="color:#6b7280">Se você não pediu a troca de senha, ignore este e-mail: sua senha continua a mesma.</p>
<p>Balcão</p>
</body></html>`
  return { subject, text, html }
}

/**
 * `POST /forgetpassword/{email}`. Without mail settings: ERR_MAIL_NOT_CONFIGURED (checked first, so the
 * answer says nothing about the e-mail). An unknown e-mail: 404. Otherwise a new code replaces the user's
 * previous one and goes by e-mail.
 */
export async function requestPasswordReset(deps: Deps, email: string): Promise<{ status: 'ok' }> {
  const settings = requireMailSettings(deps)
  const user = userByEmail(deps, email)
  if (!user) throw new AppError('ERR_NO_USER_FOUND', EMAIL_NOT_FOUND)
  const code = newCode()
  const now = deps.clock.now()
  const row = {
    userId: user.id,
    codeHash: codeHash(deps.secrets, 'password-reset', code),
    createdAt: now,
    expiresAt: now + RESET_CODE_TTL_MS,
    usedAt: null,
    attempts: 0,
  }
  stmt<unknown, [number, string, number, number, null, number]>(
    deps.sqlite,
    `INSERT INTO password_resets (user_id, code_hash, created_at, expires_at, used_at, attempts)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)
     ON CONFLICT (user_id) DO UPDATE SET user_id = ?1, code_hash = ?2, created_at = ?3, expires_at = ?4,
       used_at = ?5, attempts = ?6`,
  ).run(row.userId, row.codeHash, row.createdAt, row.expiresAt, row.usedAt, row.attempts)
  await sendMail(deps, settings, { to: user.email, ...recoveryMail(user.name, code) })
  deps.log.info('password recovery code sent', { userId: user.id })
  return { status: 'ok' }
}

/**
 * `POST /resetpasswords/{email}/{token}/{password}`: the spec's password rule, then the code (wrong, expired,
 * used or worn out by guesses: ERR_INVALID_RESET_TOKEN); on success the password changes, the code is spent
 * and every session of the user ends.
 */
export async function resetPasswordWithCode(deps: Deps, email: string, token: string, password: string) {
  if (!RESET_PASSWORD.test(password))
    throw new AppError('ERR_VALIDATION', WEAK_PASSWORD, undefined, [
      { field: 'password', message: WEAK_PASSWORD },
    ])
  const invalid = () =>
    new AppError('ERR_INVALID_RESET_TOKEN', INVALID_TOKEN, undefined, [
      { field: 'token', message: INVALID_TOKEN },
    ])
  const user = userByEmail(deps, email)
  if (!user || !RESET_TOKEN.test(token)) throw invalid()
  // Checked and spent in one step: two requests with the right code cannot both pass.
  const now = deps.clock.now()
  const hash = codeHash(deps.secrets, 'password-reset', token)
  const accepted = transact(deps, (sqlite) => {
    const reset = stmt<Omit<PasswordResetRow, 'userId' | 'createdAt'>, [number]>(
      sqlite,
      `SELECT code_hash AS codeHash, expires_at AS expiresAt, used_at AS usedAt, attempts
       FROM password_resets WHERE user_id = ?`,
    ).get(user.id)
    if (!reset || reset.usedAt != null || reset.expiresAt <= now || reset.attempts >= MAX_ATTEMPTS)
      return false
    if (reset.codeHash !== hash) {
      stmt<unknown, [number, number]>(
        sqlite,
        'UPDATE password_resets SET attempts = ? WHERE user_id = ?',
      ).run(reset.attempts + 1, user.id)
      return false
    }
    stmt<unknown, [number, number]>(sqlite, 'UPDATE password_resets SET used_at = ? WHERE user_id = ?').run(
      now,
      user.id,
    )
    return true
  })
  if (!accepted) throw invalid()
  const passwordHash = await hashPassword(password)
  const actor: SystemActor = { kind: 'system', companyId: user.companyId }
  transact(deps, (sqlite, events) => {
    stmt<unknown, [string, number, number]>(
      sqlite,
      'UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?',
    ).run(passwordHash, deps.clock.now(), user.id)
    endOtherSessions({ ...deps, actor }, sqlite, events, user.id, null)
  })
  deps.log.info('password reset with a recovery code', { userId: user.id })
  return { status: 'ok' as const }
}
