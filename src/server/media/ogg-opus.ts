/**
 * Voice notes: WhatsApp plays a voice note only as Ogg/Opus. Browsers record Opus too, but Chrome and Edge
 * put it in WebM (`audio/webm;codecs=opus`); Firefox can record Ogg/Opus directly. The Opus packets are the
 * same in both containers, so a WebM recording is rewrapped here as Ogg (RFC 7845) without decoding or
 * re-encoding anything and without ffmpeg. Anything else (AAC in MP4 from Safari, MP3) is not a voice note
 * and is sent as an audio file.
 */

const ID = {
  EBML: 0x1a45dfa3,
  Segment: 0x18538067,
  Tracks: 0x1654ae6b,
  TrackEntry: 0xae,
  TrackNumber: 0xd7,
  CodecID: 0x86,
  CodecPrivate: 0x63a2,
  CodecDelay: 0x56aa,
  Audio: 0xe1,
  Channels: 0x9f,
  Cluster: 0x1f43b675,
  SimpleBlock: 0xa3,
  BlockGroup: 0xa0,
  Block: 0xa1,
} as const

/** Elements whose children are read in line (sizes are often "unknown" in recordings, so never skipped). */
const CONTAINERS = new Set<number>([
  ID.Segment,
  ID.Tracks,
  ID.TrackEntry,
  ID.Cluster,
  ID.BlockGroup,
  ID.Audio,
])

type Vint = { value: number; length: number; unknown: boolean }

function readId(b: Uint8Array, at: number): Vint | null {
  const first = b[at]
  if (first === undefined || first === 0) return null
  const length = Math.clz32(first) - 23
  if (length > 4 || at + length > b.length) return null
  let value = 0
  for (let i = 0; i < length; i++) value = value * 256 + b[at + i]!
  return { value, length, unknown: false }
}

function readSize(b: Uint8Array, at: number): Vint | null {
  const first = b[at]
  if (first === undefined || first === 0) return null
  const length = Math.clz32(first) - 23
  if (length > 8 || at + length > b.length) return null
  let value = first & (0xff >> length)
  let allOnes = value === 0xff >> length
  for (let i = 1; i < length; i++) {
    const byte = b[at + i]!
    if (byte !== 0xff) allOnes = false
    value = value * 256 + byte
  }
  return { value, length, unknown: allOnes }
}

function uint(b: Uint8Array) {
  let v = 0
  for (const byte of b) v = v * 256 + byte
  return v
}

type Track = { number: number; codec: string; head?: Uint8Array; delayNs: number; channels: number }

/** The Opus packets of a WebM file and its Opus header; null when it is not WebM with one Opus track. */
export function readWebmOpus(b: Uint8Array): { head: Uint8Array; packets: Uint8Array[] } | null {
  const tracks: Track[] = []
  let track: Track | null = null
  const blocks: { track: number; data: Uint8Array }[] = []
  let at = 0
  while (at < b.length) {
    const id = readId(b, at)
    if (!id) break
    const size = readSize(b, at + id.length)
    if (!size) break
    const start = at + id.length + size.length
    if (id.value === ID.TrackEntry) {
      track = { number: 0, codec: '', delayNs: 0, channels: 1 }
      tracks.push(track)
    }
    if (CONTAINERS.has(id.value)) {
      at = start
      continue
    }
    if (size.unknown) return null
    const end = start + size.value
    if (end > b.length) {
      // A recording cut short: keep what is complete.
      break
    }
    const data = b.subarray(start, end)
    switch (id.value) {
      case ID.TrackNumber:
        if (track) track.number = uint(data)
        break
      case ID.CodecID:
        if (track) track.codec = new TextDecoder().decode(data)
        break
      case ID.CodecPrivate:
        if (track) track.head = data
        break
      case ID.CodecDelay:
        if (track) track.delayNs = uint(data)
        break
      case ID.Channels:
        if (track) track.channels = uint(data)
        break
      case ID.SimpleBlock:
      case ID.Block: {
        const trackNo = readSize(data, 0)
        if (!trackNo) return null
        const flags = data[trackNo.length + 2] ?? 0
        if (flags & 0x06) return null // laced blocks: not what browsers write
        blocks.push({ track: trackNo.value, data: data.subarray(trackNo.length + 3) })
        break
      }
    }
    at = end
  }
  const opus = tracks.filter((t) => t.codec === 'A_OPUS')
  if (opus.length !== 1) return null
  const only = opus[0]!
  const head = only.head && startsWith(only.head, 'OpusHead') ? only.head : opusHead(only)
  const packets = blocks.filter((x) => x.track === only.number && x.data.length > 0).map((x) => x.data)
  if (!packets.length) return null
  return { head, packets }
}

function startsWith(b: Uint8Array, text: string) {
  for (let i = 0; i < text.length; i++) if (b[i] !== text.charCodeAt(i)) return false
  return true
}

/** An OpusHead for a track that carries none (RFC 7845 §5.1, channel mapping family 0). */
function opusHead(t: Track) {
  const head = new Uint8Array(19)
  head.set(new TextEncoder().encode('OpusHead'))
  const view = new DataView(head.buffer)
  head[8] = 1
  head[9] = Math.min(2, Math.max(1, t.channels))
  view.setUint16(10, Math.round((t.delayNs * 48_000) / 1e9), true)
  view.setUint32(12, 48_000, true)
  return head
}

/** Samples (at 48 kHz) in one Opus packet, from its TOC byte (RFC 6716 §3.1). */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0] ?? 0
  const config = toc >> 3
  let frame: number // in 48 kHz samples
  if (config < 12) frame = [480, 960, 1920, 2880][config % 4]!
  else if (config < 16) frame = [480, 960][config % 2]!
  else frame = [120, 240, 480, 960][config % 4]!
  const code = toc & 3
  const frames = code === 0 ? 1 : code < 3 ? 2 : (packet[1] ?? 0) & 0x3f
  return frame * frames
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let i = 0; i < 256; i++) {
    let r = i << 24
    for (let j = 0; j < 8; j++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1
    table[i] = r >>> 0
  }
  return table
})()

/** Ogg's CRC-32 (polynomial 0x04c11db7, no reflection, initial 0). */
export function oggCrc(b: Uint8Array) {
  let crc = 0
  for (const byte of b) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0
  return crc >>> 0
}

function oggPage(
  packets: Uint8Array[],
  granule: bigint,
  serial: number,
  sequence: number,
  flags: number,
): Uint8Array {
  const lacing: number[] = []
  for (const p of packets) {
    let left = p.length
    while (left >= 255) {
      lacing.push(255)
      left -= 255
    }
    lacing.push(left)
  }
  const bodyLength = packets.reduce((n, p) => n + p.length, 0)
  const page = new Uint8Array(27 + lacing.length + bodyLength)
  const view = new DataView(page.buffer)
  page.set([0x4f, 0x67, 0x67, 0x53]) // OggS
  page[5] = flags
  view.setBigInt64(6, granule, true)
  view.setUint32(14, serial, true)
  view.setUint32(18, sequence, true)
  page[26] = lacing.length
  page.set(lacing, 27)
  let at = 27 + lacing.length
  for (const p of packets) {
    page.set(p, at)
    at += p.length
  }
  view.setUint32(22, oggCrc(page), true)
  return page
}

/** Packets of an Opus stream as an Ogg file: the header page, the tags page, then audio pages. */
export function writeOggOpus(head: Uint8Array, packets: Uint8Array[], serial = 0x42414c43): Uint8Array {
  const vendor = new TextEncoder().encode('Balcao')
  const tags = new Uint8Array(8 + 4 + vendor.length + 4)
  tags.set(new TextEncoder().encode('OpusTags'))
  new DataView(tags.buffer).setUint32(8, vendor.length, true)
  tags.set(vendor, 12)
  const pages: Uint8Array[] = [oggPage([head], 0n, serial, 0, 0x02), oggPage([tags], 0n, serial, 1, 0)]
  const preSkip = head.length >= 12 ? new DataView(head.buffer, head.byteOffset).getUint16(10, true) : 0
  let granule = BigInt(preSkip)
  let sequence = 2
  let batch: Uint8Array[] = []
  let segments = 0
  for (let i = 0; i < packets.length; i++) {
    const packet = packets[i]!
    const needed = Math.floor(packet.length / 255) + 1
    if (batch.length && (segments + needed > 255 || batch.length >= 50)) {
      pages.push(oggPage(batch, granule, serial, sequence++, 0))
      batch = []
      segments = 0
    }
    batch.push(packet)
    segments += needed
    granule += BigInt(opusPacketSamples(packet))
  }
  pages.push(oggPage(batch, granule, serial, sequence, 0x04))
  const out = new Uint8Array(pages.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of pages) {
    out.set(p, at)
    at += p.length
  }
  return out
}

/** A WebM/Opus recording rewrapped as Ogg/Opus, or null when it is not one. */
export function webmOpusToOgg(bytes: Uint8Array): Uint8Array | null {
  try {
    const stream = readWebmOpus(bytes)
    return stream ? writeOggOpus(stream.head, stream.packets) : null
  } catch {
    return null
  }
}
