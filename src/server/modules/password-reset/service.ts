/**
 * Password recovery (spec 3): `POST /forgetpassword/{email}` e-mails a six-digit code, and
 * `POST /resetpasswords/{email}/{token}/{password}` sets the new password with it. One code per user (a new
 * request replaces the old one), valid for 30 minutes, single-use, kept as an HMAC; a code guessed wrong
 * `MAX_ATTEMPTS` times is spent. A reset ends every session of the user.
 */
import { eq } from 'drizzle-orm'
import { AppError } from '../../../shared/errors'
import { RESET_PASSWORD, RESET_TOKEN } from '../../../shared/schemas/signup'
import type { Deps, SystemActor } from '../../context'
import { transact } from '../../context'
import { passwordResets, users } from '../../db/schema'
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
  return deps.db.select().from(users).where(eq(users.email, email)).get()
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
  deps.db
    .insert(passwordResets)
    .values(row)
    .onConflictDoUpdate({ target: passwordResets.userId, set: row })
    .run()
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
  const accepted = transact(deps, (tx) => {
    const reset = tx.select().from(passwordResets).where(eq(passwordResets.userId, user.id)).get()
    if (!reset || reset.usedAt != null || reset.expiresAt <= now || reset.attempts >= MAX_ATTEMPTS)
      return false
    if (reset.codeHash !== hash) {
      tx.update(passwordResets)
        .set({ attempts: reset.attempts + 1 })
        .where(eq(passwordResets.userId, user.id))
        .run()
      return false
    }
    tx.update(passwordResets).set({ usedAt: now }).where(eq(passwordResets.userId, user.id)).run()
    return true
  })
  if (!accepted) throw invalid()
  const passwordHash = await hashPassword(password)
  const actor: SystemActor = { kind: 'system', companyId: user.companyId }
  transact(deps, (tx, events) => {
    tx.update(users).set({ passwordHash, updatedAt: deps.clock.now() }).where(eq(users.id, user.id)).run()
    endOtherSessions({ ...deps, actor }, tx, events, user.id, null)
  })
  deps.log.info('password reset with a recovery code', { userId: user.id })
  return { status: 'ok' as const }
}
