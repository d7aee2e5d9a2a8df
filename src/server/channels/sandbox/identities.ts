/**
 * Deterministic identities of the sandbox network: customer names, LIDs, avatars, the company numbers of
 * connections, QR strings and pairing codes. Everything derives from a SHA-256 of a stable seed, so a demo
 * looks the same on every run and tests can predict it.
 */
import { createHash } from 'node:crypto'

export const PN_SUFFIX = '@s.whatsapp.net'
export const LID_SUFFIX = '@lid'
export const GROUP_SUFFIX = '@g.us'

function digest(seed: string) {
  return createHash('sha256').update(seed).digest()
}

/** A 32-bit unsigned number from a seed. */
export function hash32(seed: string) {
  return digest(seed).readUInt32BE(0)
}

/** A phone number as WhatsApp writes it: 8 to 15 digits, no '+'. */
export function isPhone(value: string) {
  return /^\d{8,15}$/.test(value)
}

/** The stable LID (digits only) of a phone number: 15 digits starting with 1, like WhatsApp's. */
export function lidOf(pn: string) {
  const n = digest(`lid:${pn}`).readBigUInt64BE(0) % 10n ** 14n
  return `1${n.toString().padStart(14, '0')}`
}

/** The company number the sandbox gives a connection that pairs by QR: 55 11 98 + the id on 7 digits. */
export function companyPhoneOf(connectionId: number) {
  return `551198${String(connectionId % 10_000_000).padStart(7, '0')}`
}

const FIRST_NAMES = [
  'Maria',
  'João',
  'Ana',
  'Pedro',
  'Juliana',
  'Lucas',
  'Fernanda',
  'Gabriel',
  'Beatriz',
  'Rafael',
  'Camila',
  'Mateus',
  'Larissa',
  'Felipe',
  'Patrícia',
  'Thiago',
  'Aline',
  'Bruno',
  'Carla',
  'Diego',
  'Renata',
  'Gustavo',
  'Sofia',
  'Eduardo',
]
const LAST_NAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
]
const COLOURS = [
  '#0f766e',
  '#1d4ed8',
  '#7c3aed',
  '#be185d',
  '#b45309',
  '#15803d',
  '#b91c1c',
  '#0369a1',
  '#4d7c0f',
  '#9333ea',
  '#c2410c',
  '#334155',
]

/** The deterministic display name of a virtual customer. */
export function customerNameOf(pn: string) {
  const h = hash32(`name:${pn}`)
  return `${FIRST_NAMES[h % FIRST_NAMES.length]} ${LAST_NAMES[(h >>> 8) % LAST_NAMES.length]}`
}

/** Up to two initials of a name ("Maria Silva" → "MS"); '?' when there are none. */
export function initialsOf(name: string) {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => /\p{L}|\p{N}/u.test(w))
  const first = words[0]?.match(/\p{L}|\p{N}/u)?.[0] ?? ''
  const last = words.length > 1 ? (words[words.length - 1]?.match(/\p{L}|\p{N}/u)?.[0] ?? '') : ''
  return (first + last).toUpperCase() || '?'
}

function escapeXml(text: string) {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** A 128×128 SVG avatar (initials on a colour picked from the seed) as a `data:` URL. */
export function avatarDataUrl(seed: string, name: string) {
  const colour = COLOURS[hash32(`colour:${seed}`) % COLOURS.length]
  const svg =
    '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">' +
    `<rect width="128" height="128" fill="${colour}"/>` +
    '<text x="64" y="64" dy=".35em" text-anchor="middle" font-family="system-ui,sans-serif" ' +
    `font-size="52" font-weight="600" fill="#ffffff">${escapeXml(initialsOf(name))}</text></svg>`
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
}

/** Numbers ending in 0 are not on WhatsApp. */
export function existsOnWhatsApp(pn: string) {
  return isPhone(pn) && !pn.endsWith('0')
}

/** Numbers ending in 9 hide their profile picture. */
export function hasPicture(pn: string) {
  return !pn.endsWith('9')
}

/**
 * A QR string shaped like Baileys' `ref,noiseKeyB64,identityKeyB64,advSecretB64,platform`. The keys are
 * stable per connection (they belong to the credentials being registered); the ref changes with each QR.
 */
export function qrStringOf(connectionId: number, round: number, attempt: number) {
  const key = (label: string) => digest(`${label}:${connectionId}`).toString('base64')
  const ref = `2@${digest(`ref:${connectionId}:${round}:${attempt}`).toString('base64')}${digest(`ref2:${connectionId}:${round}:${attempt}`).toString('base64').slice(0, 20)}`
  return [ref, key('noise'), key('identity'), key('adv'), 'sandbox'].join(',')
}

/** Baileys' pairing-code alphabet (no 0, O, I, U). */
const CODE_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTVWXYZ'

/** A deterministic 8-character pairing code for a connection and a phone. */
export function pairingCodeOf(connectionId: number, phone: string) {
  const bytes = digest(`pairing:${connectionId}:${phone}`)
  let code = ''
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[bytes[i]! % CODE_ALPHABET.length]
  return code
}
