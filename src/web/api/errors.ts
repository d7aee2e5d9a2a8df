/**
 * The shared error handler (spec section 8): translate the server's code when a translation exists,
 * else show the server's message, else 'An error occurred!'.
 */

import type { FieldError } from '../../shared/errors'
import i18n from '../i18n'
import { toast } from '../state/toast'
import { ApiError } from './client'

/**
 * ERR_OTHER_OPEN_TICKET carries, in `error`, the JSON text of the ticket that holds the contact (its holder and
 * queue at least): forwarding and scheduling get it too, and say who has the conversation.
 */
function heldTicketMessage(err: ApiError): string | null {
  if (err.status !== 409 || !err.code?.startsWith('{')) return null
  try {
    const held = JSON.parse(err.code) as { user?: { name?: string } | null; queue?: { name?: string } | null }
    if (!held || typeof held !== 'object') return null
    return i18n.t('contacts.otherOpenTicket', {
      user: held.user?.name || '—',
      queue: held.queue?.name || i18n.t('contacts.noQueue'),
    })
  } catch {
    return null
  }
}

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    const held = heldTicketMessage(err)
    if (held) return held
    for (const code of [err.code, err.textCode]) {
      if (!code) continue
      const key = `errors.${code}`
      if (i18n.exists(key)) return i18n.t(key, { ...err.details, seconds: err.retryAfter ?? '' })
    }
    if (err.message) return err.message
  } else if (err instanceof Error && err.name !== 'AbortError' && err.message) {
    // Network failure (fetch TypeError) and the like.
    return i18n.t('errors.network')
  }
  return i18n.t('errors.generic')
}

/**
 * The text to show under a field the server refused: the translation of the answer's code when the code is
 * specific to the rule (ERR_QUEUE_COLOR_ALREADY_EXISTS…), else the server's own message.
 */
export function fieldMessage(err: ApiError, field: FieldError): string {
  if (err.code && err.code !== 'ERR_VALIDATION' && i18n.exists(`errors.${err.code}`)) return errorMessage(err)
  return field.message
}

export function toastError(err: unknown): void {
  if (err instanceof Error && err.name === 'AbortError') return
  toast.error(errorMessage(err))
}
