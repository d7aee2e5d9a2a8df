import type { ConnectionStatusReason } from '../../shared/connection-status'

/**
 * Why a session closed, from the close code both providers speak (Baileys' DisconnectReason): what a person
 * is told, while the code itself only goes to the log.
 */
export function reasonOfClose(code: number | undefined): ConnectionStatusReason {
  switch (code) {
    case 401:
      return 'logged_out'
    case 403:
      return 'banned'
    case 411:
      return 'incompatible'
    case 440:
      return 'replaced'
    // Baileys maps socket errors (ENOTFOUND, ETIMEDOUT...) to 408; 428 is a closed connection; a close
    // without an error is the socket going away.
    case undefined:
    case 408:
    case 428:
      return 'no_network'
    default:
      return 'unavailable'
  }
}
