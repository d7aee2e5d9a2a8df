import { contactRef } from '../../channels/address'
import type { ContactRef, MsgRef } from '../../channels/types'

/**
 * `messages.provider_data`: JSON of what the provider needs to act on a message later. Known keys:
 * - `raw`: the provider's message (Baileys: WebMessageInfo encoded with proto) as base64, for forwarding and
 *   quoting;
 * - `forwardOf`: on an outbound row, the id of the message it forwards (sent with the channel's forward when
 *   that message's `raw` is known, else as a copy of its content).
 * Other keys are kept as they are.
 */
export type ProviderData = { raw?: string; forwardOf?: number; [key: string]: unknown }

export function readProviderData(text: string | null | undefined): ProviderData {
  if (!text) return {}
  try {
    const data = JSON.parse(text) as unknown
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as ProviderData) : {}
  } catch {
    return {}
  }
}

/** The raw provider message kept on a row, if any. */
export function rawOf(text: string | null | undefined): Uint8Array | undefined {
  const raw = readProviderData(text).raw
  if (typeof raw !== 'string' || !raw) return undefined
  const bytes = Buffer.from(raw, 'base64')
  return bytes.length ? new Uint8Array(bytes) : undefined
}

/** A stored message as the network keys it; null when it never reached the network (no wid). */
export function msgRefOf(
  row: {
    wid: string | null
    remoteJid: string | null
    fromMe: number | boolean
    participant?: string | null
  },
  fallbackJid: string | null,
): MsgRef | null {
  const chatJid = row.remoteJid ?? fallbackJid
  if (!row.wid || !chatJid) return null
  const ref: MsgRef = { id: row.wid, chatJid, fromMe: !!row.fromMe }
  if (row.participant) ref.participant = row.participant
  return ref
}

type ContactAddress = { number: string | null; lid: string | null; isGroup: number | boolean }

/**
 * Where to send to a ticket's contact: the contacts area's one rule (`contactRef`: the LID once WhatsApp has
 * moved the person to LID addressing, else the number; a group by its id). Null: no address at all.
 */
export function chatRefOf(contact: ContactAddress): ContactRef | null {
  try {
    return contactRef({ number: contact.number, lid: contact.lid, isGroup: !!contact.isGroup })
  } catch {
    return null
  }
}
