/** How the conversation writes times, days, sizes and the content of location and contact messages. */

export { dayKey, dayLabel } from '../../../lib/dates'

const pad = (n: number) => String(n).padStart(2, '0')

/** HH:mm of a message (the user's clock). */
export function messageTime(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** 1536 -> '1,5 KB' (pt) / '1.5 KB' (en). */
export function fileSize(bytes: number | null | undefined, locale: string): string {
  if (bytes == null || !Number.isFinite(bytes) || bytes < 0) return ''
  const units = ['B', 'KB', 'MB', 'GB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  const digits = unit === 0 || value >= 10 ? 0 : 1
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value)} ${units[unit]}`
}

/** mm:ss of a recording's length. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`
}

export type Location = { latitude: number; longitude: number; name?: string; address?: string }

const coordinate = (v: unknown) =>
  typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN

/**
 * A location message's place. The body holds JSON `{ latitude, longitude, name?, address? }`, or a map link,
 * or "lat,lng" (older rows); null when no coordinates can be read.
 */
export function parseLocation(body: string): Location | null {
  const text = body.trim()
  if (text.startsWith('{')) {
    try {
      const o = JSON.parse(text) as Record<string, unknown>
      const latitude = coordinate(o.latitude ?? o.lat ?? o.degreesLatitude)
      const longitude = coordinate(o.longitude ?? o.lng ?? o.degreesLongitude)
      if (Number.isFinite(latitude) && Number.isFinite(longitude))
        return {
          latitude,
          longitude,
          name: typeof o.name === 'string' && o.name ? o.name : undefined,
          address: typeof o.address === 'string' && o.address ? o.address : undefined,
        }
    } catch {
      // not JSON: try the other forms
    }
  }
  // "name\naddress\nhttps://maps.google.com/maps?q=lat%2Clng" (what the inbound pipeline writes), or "lat,lng".
  let decoded = text
  try {
    decoded = decodeURIComponent(text)
  } catch {
    decoded = text.replace(/%2C/gi, ',')
  }
  const lines = decoded
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  const url = lines.find((l) => /^https?:\/\//i.test(l))
  const m =
    (url && /[?&](?:q|query|ll)=(-?\d{1,3}(?:\.\d+)?),\s*(-?\d{1,3}(?:\.\d+)?)/.exec(url)) ||
    /(-?\d{1,3}\.\d+)\s*,\s*(-?\d{1,3}\.\d+)/.exec(decoded)
  if (!m) return null
  const latitude = Number(m[1])
  const longitude = Number(m[2])
  if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180) return null
  const words = lines.filter((l) => l !== url && !l.includes(m[0]))
  return { latitude, longitude, name: words[0] || undefined, address: words[1] || undefined }
}

/** The map link of a place (opens the map in a new tab). */
export function mapUrl(loc: Location): string {
  return `https://www.google.com/maps/search/?api=1&query=${loc.latitude},${loc.longitude}`
}

export type SharedContact = { name: string; numbers: string[] }

/** The people in a contact message: vCard text (one or more cards) or JSON `[{ displayName, vcard }]`. */
export function parseVcards(body: string): SharedContact[] {
  const text = body.trim()
  if (!text) return []
  if (text.startsWith('[') || text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as unknown
      const list = Array.isArray(parsed) ? parsed : [parsed]
      return list.flatMap((c) => {
        const o = c as { displayName?: string; vcard?: string; name?: string; number?: string }
        if (o.vcard) {
          const cards = parseVcards(o.vcard)
          return cards.map((card) => ({ ...card, name: card.name || o.displayName || '' }))
        }
        return [{ name: o.displayName ?? o.name ?? '', numbers: o.number ? [o.number] : [] }]
      })
    } catch {
      // not JSON: read it as vCard text
    }
  }
  const cards = text.split(/END:VCARD/i).filter((c) => /BEGIN:VCARD/i.test(c))
  if (cards.length === 0) return [{ name: text.split('\n')[0] ?? '', numbers: [] }]
  return cards.map((card) => {
    // Folded lines (RFC 6350: a line starting with a space continues the previous one).
    const lines = card.replace(/\r?\n[ \t]/g, '').split(/\r?\n/)
    let name = ''
    const numbers: string[] = []
    for (const line of lines) {
      const at = line.indexOf(':')
      if (at === -1) continue
      const key = line.slice(0, at).toUpperCase()
      const value = line.slice(at + 1).trim()
      if (key === 'FN' || key.startsWith('FN;')) name = value
      else if (!name && (key === 'N' || key.startsWith('N;')))
        name = value.split(';').filter(Boolean).join(' ')
      else if (key.startsWith('TEL') || key.includes('.TEL')) {
        const waid = /waid=(\d+)/i.exec(key)?.[1]
        numbers.push(value || waid || '')
      }
    }
    return { name, numbers: numbers.filter(Boolean) }
  })
}
