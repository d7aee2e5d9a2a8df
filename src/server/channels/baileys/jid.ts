/**
 * JID helpers shared by the Baileys adapter, the normalizer and the sandbox.
 *
 * Conventions of `ContactRef` (types.ts) as produced here:
 * - `jid`: what we send to, normalized (no device suffix): `<digits>@s.whatsapp.net`, `<id>@lid` or `<id>@g.us`;
 * - `pn`: the phone number, digits only;
 * - `lid`: the full LID JID, `<id>@lid` (a LID is not a phone number, so it keeps its server part).
 */
import { isJidGroup, isLidUser, isPnUser, jidDecode, jidNormalizedUser } from '@whiskeysockets/baileys'
import { numberForms } from '../../../shared/numbers'
import type { ContactRef } from '../types'

export const PN_SERVER = 's.whatsapp.net'
export const LID_SERVER = 'lid'

/** `5511999990000` (or `+55 11 99999-0000`) -> `5511999990000@s.whatsapp.net`. */
export function pnToJid(phone: string): string {
  return `${digitsOnly(phone)}@${PN_SERVER}`
}

/** `123456789` or `123456789@lid` -> `123456789@lid`. */
export function toLidJid(lid: string): string {
  return lid.includes('@') ? jidNormalizedUser(lid) : `${lid}@${LID_SERVER}`
}

export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '')
}

/** The user part of a JID without device or agent: `5511...:3@s.whatsapp.net` -> `5511...`. */
export function jidUser(jid: string | undefined | null): string | undefined {
  if (!jid) return undefined
  return jidDecode(jid)?.user || undefined
}

/** Phone digits of a PN JID, or of plain digits; undefined for LIDs, groups and others. */
export function pnFromJid(jid: string | undefined | null): string | undefined {
  if (!jid) return undefined
  if (!jid.includes('@')) {
    const digits = digitsOnly(jid)
    return digits || undefined
  }
  if (isPnUser(jid) || jid.endsWith('@c.us')) return jidUser(jid)
  return undefined
}

export function normalizeJid(jid: string): string {
  return jidNormalizedUser(jid) || jid
}

export function isGroupJid(jid: string | undefined | null): boolean {
  return !!jid && !!isJidGroup(jid)
}

/**
 * Builds the ContactRef of a JID, filling `pn`/`lid` from the JID itself, its alternative form (`remoteJidAlt`,
 * `participantAlt`) and, for a LID without alternative, the resolver.
 */
export function contactRef(
  jid: string,
  alt?: string | null,
  resolvePn?: (lid: string) => string | undefined,
): ContactRef {
  const main = normalizeJid(jid)
  if (isGroupJid(main)) return { jid: main }
  const ref: ContactRef = { jid: main }
  const altJid = alt ? normalizeJid(alt) : undefined
  if (isLidUser(main)) {
    ref.lid = main
    const pn = pnFromJid(altJid) ?? pnFromResolver(main, resolvePn)
    if (pn) ref.pn = pn
  } else if (isPnUser(main) || main.endsWith('@c.us')) {
    const pn = pnFromJid(main)
    if (pn) ref.pn = pn
    if (altJid && isLidUser(altJid)) ref.lid = altJid
  }
  return ref
}

function pnFromResolver(lid: string, resolvePn?: (lid: string) => string | undefined): string | undefined {
  if (!resolvePn) return undefined
  const resolved = resolvePn(lid)
  if (!resolved) return undefined
  return resolved.includes('@') ? pnFromJid(resolved) : digitsOnly(resolved) || undefined
}

/** The JID to send to for a ContactRef: its `jid`, or the PN JID when only `pn` is set. */
export function sendJid(to: ContactRef): string {
  if (to.jid) return normalizeJid(to.jid)
  if (to.pn) return pnToJid(to.pn)
  if (to.lid) return toLidJid(to.lid)
  throw new Error('ContactRef without jid')
}

/** How WhatsApp addresses a one-to-one chat: by the person's phone number or by their LID. */
export type ChatAddressing = 'pn' | 'lid'

/** The addressing a chat's JID shows (`undefined` for groups and others). */
export function addressingOf(jid: string | undefined | null): ChatAddressing | undefined {
  if (!jid) return undefined
  if (isLidUser(jid)) return 'lid'
  if (isPnUser(jid) || jid.endsWith('@c.us')) return 'pn'
  return undefined
}

/**
 * The JID a reply goes to: the chat's own addressing, so the company's phone and WhatsApp Web keep one chat
 * per person (a reply by LID to a chat WhatsApp addresses by number opens a second chat there). A person is
 * written to by phone number unless the chat is LID-addressed (`addressing`, as WhatsApp last wrote in it) or
 * no number is known; a group by its id.
 */
export function chatJid(to: ContactRef, addressing?: ChatAddressing): string {
  const main = to.jid ? normalizeJid(to.jid) : undefined
  if (main && isGroupJid(main)) return main
  const pn = to.pn ?? pnFromJid(main)
  const lid = to.lid ? toLidJid(to.lid) : main && isLidUser(main) ? main : undefined
  if (addressing === 'lid' && lid) return lid
  if (pn) return pnToJid(pn)
  return sendJid(to)
}

/**
 * Every spelling of a number WhatsApp treats as one account, the given one first, so a number check matches
 * the canonical JID WhatsApp answers with: both forms of a Brazilian mobile (`numberForms`: older accounts keep
 * the 8-digit JID), Mexican mobiles with and without the 1 after 52, Argentinian ones with and without the 9
 * after 54.
 */
export function whatsappNumberForms(digits: string): string[] {
  const forms = numberForms(digits)
  const mexico = /^52(1?)(\d{10})$/.exec(digits)
  if (mexico) forms.push(mexico[1] ? `52${mexico[2]}` : `521${mexico[2]}`)
  const argentina = /^54(9?)(\d{10})$/.exec(digits)
  if (argentina) forms.push(argentina[1] ? `54${argentina[2]}` : `549${argentina[2]}`)
  return forms
}
