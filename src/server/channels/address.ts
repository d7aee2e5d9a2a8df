/** A contact row's address on a channel: what a sender hands the session to write to that person or group. */
import type { ContactRow } from '../db/schema'
import type { ContactRef } from './types'

/**
 * The JID to send to. A group: `<id>@g.us`. A person WhatsApp has moved to LID addressing: `<lid>@lid`. We learn
 * a LID only from WhatsApp (a LID-addressed message, a mapping it sent), which it does once it addresses that
 * person by LID, and v7 sessions (Baileys) encrypt to LIDs anyway, so a known LID wins; otherwise the number,
 * as WhatsApp last wrote it (a Brazilian mobile in the form its account uses). Throws for a contact with neither.
 */
export function contactJid(contact: Pick<ContactRow, 'number' | 'lid' | 'isGroup'>): string {
  if (contact.isGroup) {
    if (!contact.number) throw new Error('a group contact without its id')
    return `${contact.number}@g.us`
  }
  if (contact.lid) return `${contact.lid}@lid`
  if (contact.number) return `${contact.number}@s.whatsapp.net`
  throw new Error('a contact without a number or a LID cannot be written to')
}

/** The channel's view of a contact: the JID to send to (`contactJid`), with the number and LID when known. */
export function contactRef(contact: Pick<ContactRow, 'number' | 'lid' | 'isGroup'>): ContactRef {
  const ref: ContactRef = { jid: contactJid(contact) }
  if (!contact.isGroup && contact.number) ref.pn = contact.number
  if (!contact.isGroup && contact.lid) ref.lid = contact.lid
  return ref
}
