import type { ClientFrame } from '../../shared/live'

/**
 * Client frames are a few dozen bytes; anything longer is not one of them and is not worth parsing.
 * Bun refuses frames past `MAX_FRAME_BYTES` itself (see socket.ts) and closes that socket with 1009.
 */
const MAX_FRAME_CHARS = 1024
export const MAX_FRAME_BYTES = 16 * 1024

/**
 * Reads one client frame into a known shape, or null for anything else: binary data, text that is not JSON,
 * JSON that is not an object (`null`, `1`, `[]`, `"x"`), an unknown event or bad data. Never throws.
 */
export function parseClientFrame(message: string | Buffer): ClientFrame | null {
  if (typeof message !== 'string' || message.length > MAX_FRAME_CHARS) return null
  let value: unknown
  try {
    value = JSON.parse(message)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null
  const { event, data } = value as { event?: unknown; data?: unknown }
  switch (event) {
    case 'userStatus':
      return { event }
    case 'joinChatBox':
    case 'leaveChatBox': {
      const ticketId = positiveId(data)
      return ticketId === null ? null : { event, data: ticketId }
    }
    default:
      return null
  }
}

/** The original client sends ticket ids as numbers or as digit strings (taken from the URL). */
function positiveId(data: unknown): number | null {
  const n =
    typeof data === 'number' ? data : typeof data === 'string' && /^\d{1,15}$/.test(data) ? +data : NaN
  return Number.isSafeInteger(n) && n > 0 ? n : null
}
