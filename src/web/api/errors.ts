/**
 * The shared error handler (spec section 8): translate the server's code when a translation exists,
 * else show the server's message, else 'An error occurred!'.
 */
import i18n from '../i18n'
import { toast } from '../state/toast'
import { ApiError } from './client'

export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code) {
      const key = `errors.${err.code}`
      if (i18n.exists(key)) return i18n.t(key, { ...err.details, seconds: err.retryAfter ?? '' })
    }
    if (err.message) return err.message
  } else if (err instanceof Error && err.name !== 'AbortError' && err.message) {
    // Network failure (fetch TypeError) and the like.
    return i18n.t('errors.network')
  }
  return i18n.t('errors.generic')
}

export function toastError(err: unknown): void {
  if (err instanceof Error && err.name === 'AbortError') return
  toast.error(errorMessage(err))
}
