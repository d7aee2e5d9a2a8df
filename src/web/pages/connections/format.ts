const pad = (n: number) => String(n).padStart(2, '0')

/** The spec's times: HH:mm today, else dd/MM/yyyy HH:mm. */
export function formatUpdatedAt(iso: string | null | undefined, now: Date = new Date()): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`
  const today =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()
  return today ? time : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()} ${time}`
}

/** Remaining time as mm:ss (never negative). */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000))
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`
}

/** 'ABCD1234' -> 'ABCD 1234' (WhatsApp shows the pairing code in two groups of four). */
export function spacedCode(code: string | null | undefined): string {
  const c = (code ?? '').replace(/[\s-]/g, '').toUpperCase()
  return c.length === 8 ? `${c.slice(0, 4)} ${c.slice(4)}` : c
}

/** Digits of a phone number ('+55 (11) 99999-0001' -> '5511999990001'). */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '')
}

/** A stored number shown as '+5511999990001'. */
export function formatNumber(number: string | null | undefined): string {
  if (!number) return ''
  const d = digitsOnly(number.split(/[:@]/)[0] ?? '')
  return d ? `+${d}` : number
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
]

/** 'há 3 min', '3 min ago', 'hace 3 min' in the given language; under a minute, 'agora' ('now'). */
export function relativeTime(iso: string, language: string, now: number = Date.now()): string {
  const ms = Date.parse(iso) - now
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto', style: 'short' })
  for (const [unit, size] of UNITS)
    if (Math.abs(ms) >= size || unit === 'minute') return format.format(Math.round(ms / size), unit)
  return ''
}
