/**
 * Pix "copia e cola" codes (BR Code): the EMV QR Code merchant-presented payload the Banco Central's "Manual de
 * Padrões para Iniciação do Pix" defines, built here for the checkout and read back by `parseBrCode`.
 *
 * A code is a list of TLV fields, each `ID` (2 digits) + `length` (2 digits) + `value`:
 *
 * | ID | Field                          | Value here                                                        |
 * |----|--------------------------------|-------------------------------------------------------------------|
 * | 00 | Payload Format Indicator       | `01`                                                              |
 * | 26 | Merchant Account Information   | 00 GUI `br.gov.bcb.pix`, 01 the Pix key, 02 a description (opt.)  |
 * | 52 | Merchant Category Code         | `0000`                                                            |
 * | 53 | Transaction Currency           | `986` (BRL)                                                       |
 * | 54 | Transaction Amount             | `99.90` (two decimals; left out when zero: the payer types it)    |
 * | 58 | Country Code                   | `BR`                                                              |
 * | 59 | Merchant Name                  | at most 25 characters, plain ASCII                                |
 * | 60 | Merchant City                  | at most 15 characters, plain ASCII, upper case                    |
 * | 62 | Additional Data Field Template | 05 the txid (at most 25 letters and digits; `***` when none)      |
 * | 63 | CRC                            | CRC16-CCITT-FALSE over everything before it, `6304` included      |
 *
 * Names and cities lose their accents and any character outside printable ASCII (the manual's advice, so every
 * bank's app reads them alike); the city is also upper-cased. The merchant name keeps its case, as in the
 * manual's own example ('Fulano de Tal').
 */

export const PIX_GUI = 'br.gov.bcb.pix'
export const PIX_NAME_MAX = 25
export const PIX_CITY_MAX = 15
export const PIX_TXID_MAX = 25
/** Key 77 characters at most (an e-mail), as the DICT allows. */
export const PIX_KEY_MAX = 77

/** CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR) of the UTF-8 bytes, as 4 upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

/** One TLV field; a value longer than 99 characters cannot be encoded. */
function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`BR Code field ${id} is longer than 99 characters`)
  return `${id}${String(value.length).padStart(2, '0')}${value}`
}

/** Accents removed, anything outside printable ASCII dropped, spaces collapsed, cut to `max`. */
export function pixText(value: string, max: number): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim()
}

/** Letters and digits only, at most 25; '***' when nothing is left (the manual's "no identifier"). */
export function pixTxid(value: string | null | undefined): string {
  const txid = (value ?? '').replace(/[^A-Za-z0-9]/g, '').slice(0, PIX_TXID_MAX)
  return txid || '***'
}

/**
 * A key as the BR Code carries it: a CPF or CNPJ typed with its mask loses the punctuation, a phone its
 * spaces, dashes and parentheses (keeping the '+'), an e-mail or a random key (UUID) becomes lower case.
 */
export function normalizePixKey(value: string): string {
  const key = value.trim()
  if (/^[\d.\-/ ]+$/.test(key) && /^(\d{11}|\d{14})$/.test(key.replace(/\D/g, '')))
    return key.replace(/\D/g, '')
  if (/^\+[\d\s()-]+$/.test(key)) return key.replace(/[\s()-]/g, '')
  if (key.includes('@')) return key.toLowerCase()
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)) return key.toLowerCase()
  return key
}

export type BrCodeInput = {
  /** The receiver's Pix key. */
  key: string
  merchantName: string
  merchantCity: string
  /** In cents; 0 or absent leaves the amount out (the payer types it). */
  amountCents?: number
  /** Letters and digits, at most 25 ('***' when absent). */
  txid?: string | null
  /** A message to the payer, inside field 26 (cut to fit). */
  description?: string | null
}

/** Cents as the BR Code writes them: '99.90'. */
export function formatPixAmount(cents: number): string {
  return (cents / 100).toFixed(2)
}

/** Builds a static BR Code ("Pix copia e cola"). Throws on a missing key, name or city, or a bad amount. */
export function buildBrCode(input: BrCodeInput): string {
  const key = normalizePixKey(input.key)
  if (!key || key.length > PIX_KEY_MAX || /[^\x21-\x7e]/.test(key)) throw new Error('Invalid Pix key')
  const name = pixText(input.merchantName, PIX_NAME_MAX)
  const city = pixText(input.merchantCity, PIX_CITY_MAX).toUpperCase()
  if (!name) throw new Error('The Pix merchant name is empty')
  if (!city) throw new Error('The Pix merchant city is empty')
  const cents = input.amountCents ?? 0
  if (!Number.isSafeInteger(cents) || cents < 0 || cents > 99_999_999_99)
    throw new Error('Invalid Pix amount')

  const account = field('00', PIX_GUI) + field('01', key)
  // Field 26 holds at most 99 characters: the description gets what the GUI and the key leave.
  const room = 99 - account.length - 4
  const description = room > 0 ? pixText(input.description ?? '', room) : ''
  const merchantAccount = account + (description ? field('02', description) : '')

  const payload =
    field('00', '01') +
    field('26', merchantAccount) +
    field('52', '0000') +
    field('53', '986') +
    (cents > 0 ? field('54', formatPixAmount(cents)) : '') +
    field('58', 'BR') +
    field('59', name) +
    field('60', city) +
    field('62', field('05', pixTxid(input.txid))) +
    '6304'
  return payload + crc16(payload)
}

export type ParsedBrCode = {
  /** Top-level fields by id, in order of appearance. */
  fields: Record<string, string>
  /** The Pix key (26.01), or null in a dynamic code (which has a URL in 26.25 instead). */
  key: string | null
  /** The payload location of a dynamic code (26.25), or null. */
  url: string | null
  description: string | null
  /** '99.90', or null when the payer types the amount. */
  amount: string | null
  merchantName: string
  merchantCity: string
  /** The txid (62.05), '***' included. */
  txid: string | null
  crc: string
}

export class BrCodeError extends Error {
  override name = 'BrCodeError'
}

/** TLV fields of `text`, in order; throws on a length that runs past the end. */
function readFields(text: string): [string, string][] {
  const out: [string, string][] = []
  let at = 0
  while (at < text.length) {
    const head = text.slice(at, at + 4)
    if (!/^\d{4}$/.test(head)) throw new BrCodeError(`Malformed field at position ${at}`)
    const length = Number(head.slice(2))
    const value = text.slice(at + 4, at + 4 + length)
    if (value.length !== length) throw new BrCodeError(`Field ${head.slice(0, 2)} runs past the end`)
    out.push([head.slice(0, 2), value])
    at += 4 + length
  }
  return out
}

/**
 * Reads a BR Code back, checking its structure and its CRC: throws `BrCodeError` on a code that is malformed,
 * whose CRC does not match, or that is not a Pix code (no `br.gov.bcb.pix` account in field 26).
 */
export function parseBrCode(code: string): ParsedBrCode {
  const text = code.trim()
  if (text.length > 512) throw new BrCodeError('Too long for a BR Code')
  const crcAt = text.length - 8
  if (crcAt < 0 || text.slice(crcAt, crcAt + 4) !== '6304') throw new BrCodeError('No CRC field at the end')
  const crc = text.slice(crcAt + 4)
  if (crc16(text.slice(0, crcAt + 4)) !== crc.toUpperCase()) throw new BrCodeError('CRC mismatch')
  const list = readFields(text)
  if (list[0]?.[0] !== '00' || list[0][1] !== '01')
    throw new BrCodeError('Payload format indicator is not 01')
  const fields: Record<string, string> = {}
  for (const [id, value] of list) {
    if (Object.hasOwn(fields, id)) throw new BrCodeError(`Field ${id} appears twice`)
    fields[id] = value
  }
  // Merchant account templates are ids 26 to 51; the Pix one carries the GUI br.gov.bcb.pix.
  let account: Record<string, string> | null = null
  for (let id = 26; id <= 51 && !account; id++) {
    const value = fields[String(id)]
    if (value === undefined) continue
    const sub = Object.fromEntries(readFields(value))
    if (sub['00']?.toLowerCase() === PIX_GUI) account = sub
  }
  if (!account) throw new BrCodeError('Not a Pix code (no br.gov.bcb.pix account)')
  const additional = fields['62'] !== undefined ? Object.fromEntries(readFields(fields['62'])) : {}
  if (fields['59'] === undefined || fields['60'] === undefined)
    throw new BrCodeError('Merchant name or city missing')
  return {
    fields,
    key: account['01'] ?? null,
    url: account['25'] ?? null,
    description: account['02'] ?? null,
    amount: fields['54'] ?? null,
    merchantName: fields['59'],
    merchantCity: fields['60'],
    txid: additional['05'] ?? null,
    crc: crc.toUpperCase(),
  }
}
