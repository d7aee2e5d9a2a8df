/**
 * The platform's e-mail (password recovery): SMTP through nodemailer, configured by `BALCAO_SMTP_URL` and
 * `BALCAO_SMTP_FROM` or by the super user in Settings (platform settings `smtpUrl`, `smtpFrom`). nodemailer
 * is loaded only when a message is sent.
 */
import { AppError } from '../../shared/errors'
import type { Deps } from '../context'
import { platformSetting } from '../modules/platform-settings/service'

export type Mail = { to: string; subject: string; text: string; html: string }

export type MailSettings = { url: string; from: string }

type Reader = Pick<Deps, 'sqlite' | 'secrets' | 'env' | 'log'>

const HOW_TO =
  'set BALCAO_SMTP_URL (smtp://user:pass@host:587, or smtps:// for TLS) and BALCAO_SMTP_FROM (e.g. "Balcão <no-reply@example.com>"), or fill in the SMTP fields in Settings as the super user'

/** The SMTP settings in force, or null (with the reason in the log) when they are missing or unusable. */
export function mailSettings(deps: Reader): MailSettings | null {
  const url = platformSetting(deps, 'smtpUrl')
  const from = platformSetting(deps, 'smtpFrom')
  if (!url || !from) {
    deps.log.warn('mail is not configured', {
      missing: [!url && 'BALCAO_SMTP_URL', !from && 'BALCAO_SMTP_FROM'].filter(Boolean),
      fix: HOW_TO,
    })
    return null
  }
  if (!/^smtps?:\/\/[^\s]+$/i.test(url) || !hostOf(url)) {
    // The URL holds the password: the log says what is wrong, never the URL itself.
    deps.log.warn(
      'mail is not configured: BALCAO_SMTP_URL must be a valid smtp:// or smtps:// URL with a host',
      { fix: HOW_TO },
    )
    return null
  }
  return { url, from }
}

/** The host and port of an SMTP URL (for the log: never its user or password), or null when it cannot be read. */
function hostOf(url: string): { host: string; port: string | null } | null {
  try {
    const parsed = new URL(url)
    return parsed.hostname ? { host: parsed.hostname, port: parsed.port || null } : null
  } catch {
    return null
  }
}

/** Throws ERR_MAIL_NOT_CONFIGURED (503) when there are no usable settings. */
export function requireMailSettings(deps: Reader): MailSettings {
  const settings = mailSettings(deps)
  if (!settings)
    throw new AppError('ERR_MAIL_NOT_CONFIGURED', 'E-mail is not configured on this server; contact support')
  return settings
}

/** Sends one message; ERR_MAIL_SEND_FAILED (502) when the SMTP server refuses it or cannot be reached. */
export async function sendMail(deps: Reader, settings: MailSettings, mail: Mail): Promise<void> {
  const { createTransport } = await import('nodemailer')
  const where = hostOf(settings.url)
  let transport: ReturnType<typeof createTransport> | undefined
  try {
    transport = createTransport({
      url: settings.url,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    })
    await transport.sendMail({ from: settings.from, ...mail })
  } catch (err) {
    const password = passwordOf(settings.url)
    const message = String((err as Error)?.message ?? err)
    deps.log.error('mail not sent', {
      host: where?.host ?? null,
      port: where?.port ?? null,
      error: password ? message.replaceAll(password, '***') : message,
    })
    throw new AppError('ERR_MAIL_SEND_FAILED', 'The e-mail could not be sent; try again later')
  } finally {
    transport?.close()
  }
}

function passwordOf(url: string): string | null {
  try {
    const parsed = new URL(url)
    return parsed.password ? decodeURIComponent(parsed.password) : null
  } catch {
    return null
  }
}

/** Escapes text for the HTML part. */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )
}
