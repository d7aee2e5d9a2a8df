/**
 * What kind of address an IP is, for the guarded fetch (guarded-fetch.ts): only `public` addresses are reached
 * for a tenant, `private` kinds too when the operator allows them (BALCAO_ALLOW_PRIVATE_URLS), the rest never.
 *
 * Input is an address as `dns.lookup` or the WHATWG URL parser writes it (dotted IPv4, IPv6 with or without
 * brackets). The URL parser already turns the odd IPv4 spellings (`0x7f000001`, `2130706433`, `127.1`, octal
 * parts) into dotted form, and `classifyHost` runs a host through it first. IPv6 forms that carry an IPv4
 * address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged
 * by that address, so `[::ffff:7f00:1]` is loopback like `127.0.0.1`.
 */

export type AddressKind =
  | 'public'
  | 'loopback'
  | 'private'
  /** 100.64.0.0/10, carrier-grade NAT: inside a provider's network. */
  | 'shared'
  | 'unique-local'
  | 'link-local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  /** Documentation, benchmarking, protocol assignments, Teredo, anything outside global unicast; and junk. */
  | 'reserved'

/** The kinds `BALCAO_ALLOW_PRIVATE_URLS=1` opens (a model server on the same host or network). Link-local stays shut: it is where cloud metadata answers. */
export const PRIVATE_KINDS: ReadonlySet<AddressKind> = new Set([
  'loopback',
  'private',
  'shared',
  'unique-local',
])

function ipv4Bytes(text: string): number[] | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  const bytes: number[] = []
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null
    const n = Number(part)
    if (n > 255) return null
    bytes.push(n)
  }
  return bytes
}

function ipv6Bytes(text: string): number[] | null {
  if (!/^[0-9a-f:.]+$/i.test(text)) return null
  let head = text
  let tail: number[] = []
  // a trailing dotted IPv4 (`::ffff:127.0.0.1`) is the last two groups
  const lastColon = text.lastIndexOf(':')
  if (text.slice(lastColon + 1).includes('.')) {
    const v4 = ipv4Bytes(text.slice(lastColon + 1))
    if (!v4) return null
    tail = v4
    head = text.slice(0, lastColon + 1)
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1)
  }
  const halves = head.split('::')
  if (halves.length > 2) return null
  const groups = (s: string) => (s ? s.split(':') : [])
  const left = groups(halves[0]!)
  const right = halves.length === 2 ? groups(halves[1]!) : []
  const given = (left.length + right.length) * 2 + tail.length
  if (halves.length === 1 && given !== 16) return null
  if (given > 16 || (halves.length === 2 && given === 16)) return null
  const toBytes = (gs: string[]) => {
    const out: number[] = []
    for (const g of gs) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null
      const n = Number.parseInt(g, 16)
      out.push(n >> 8, n & 0xff)
    }
    return out
  }
  const l = toBytes(left)
  const r = toBytes(right)
  if (!l || !r) return null
  return [...l, ...new Array(16 - given).fill(0), ...r, ...tail]
}

/** The 4 or 16 bytes of an IP address (IPv6 with or without brackets), or null when it is not one. */
export function ipBytes(text: string): number[] | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text
  return bare.includes(':') ? ipv6Bytes(bare) : ipv4Bytes(bare)
}

function classifyV4([a, b, c]: number[]): AddressKind {
  const x = a!
  const y = b!
  if (x === 0) return 'unspecified'
  if (x === 127) return 'loopback'
  if (x === 10 || (x === 172 && y >= 16 && y <= 31) || (x === 192 && y === 168)) return 'private'
  if (x === 100 && y >= 64 && y <= 127) return 'shared'
  if (x === 169 && y === 254) return 'link-local'
  if (x >= 224 && x <= 239) return 'multicast'
  if (x === 255 && y === 255 && c === 255) return 'broadcast'
  if (x >= 240) return 'reserved'
  if (x === 192 && y === 0 && (c === 0 || c === 2)) return 'reserved'
  if (x === 192 && y === 88 && c === 99) return 'reserved'
  if (x === 198 && (y === 18 || y === 19)) return 'reserved'
  if ((x === 198 && y === 51 && c === 100) || (x === 203 && y === 0 && c === 113)) return 'reserved'
  return 'public'
}

function classifyV6(b: number[]): AddressKind {
  const zeros = (from: number, to: number) => b.slice(from, to).every((v) => v === 0)
  if (zeros(0, 16)) return 'unspecified'
  if (zeros(0, 15) && b[15] === 1) return 'loopback'
  // IPv4-mapped ::ffff:0:0/96 and the old IPv4-compatible ::/96 carry an IPv4 address
  if (zeros(0, 10) && ((b[10] === 0xff && b[11] === 0xff) || (b[10] === 0 && b[11] === 0)))
    return classifyV4(b.slice(12))
  // NAT64 64:ff9b::/96 reaches the IPv4 address it embeds
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12))
    return classifyV4(b.slice(12))
  // 6to4 2002::/16 embeds an IPv4 address in its next 32 bits
  if (b[0] === 0x20 && b[1] === 0x02) return classifyV4(b.slice(2, 6))
  if (b[0] === 0xff) return 'multicast'
  if ((b[0]! & 0xfe) === 0xfc) return 'unique-local'
  if (b[0] === 0xfe && (b[1]! & 0xc0) === 0x80) return 'link-local'
  // only 2000::/3 is global unicast; within it, Teredo 2001::/32 and documentation 2001:db8::/32 are not for us
  if ((b[0]! & 0xe0) !== 0x20) return 'reserved'
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return 'reserved'
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0x0d && b[3] === 0xb8) return 'reserved'
  return 'public'
}

/** The kind of an IP address; text that is not an IP address is `reserved` (never reached). */
export function classifyAddress(ip: string): AddressKind {
  const bytes = ipBytes(ip)
  if (!bytes) return 'reserved'
  return bytes.length === 4 ? classifyV4(bytes) : classifyV6(bytes)
}

/**
 * A URL host as the WHATWG parser normalises it (`0x7f000001` → `127.0.0.1`, `[::ffff:127.0.0.1]` →
 * `[::ffff:7f00:1]`), or null when it is not a valid host.
 */
export function normalizeHost(host: string): string | null {
  try {
    return new URL(`http://${host}/`).hostname
  } catch {
    return null
  }
}

/** The kind of a host that is an IP address in any spelling the URL parser accepts; null for a name (resolve it). */
export function classifyHost(host: string): AddressKind | null {
  const normalized = normalizeHost(host)
  if (normalized == null) return 'reserved'
  return ipBytes(normalized) ? classifyAddress(normalized) : null
}

/** Whether a request may reach an address of this kind. */
export function isAllowedKind(kind: AddressKind, allowPrivate: boolean): boolean {
  return kind === 'public' || (allowPrivate && PRIVATE_KINDS.has(kind))
}
