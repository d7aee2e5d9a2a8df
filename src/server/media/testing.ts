/** Test bytes: small files of each kind the allow-list knows, and a browser-like WebM/Opus recording. */

const enc = new TextEncoder()

export function bytesOf(...parts: (number[] | string | Uint8Array)[]): Uint8Array<ArrayBuffer> {
  const arrays = parts.map((p) =>
    typeof p === 'string' ? enc.encode(p) : p instanceof Uint8Array ? p : new Uint8Array(p),
  )
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0))
  let at = 0
  for (const a of arrays) {
    out.set(a, at)
    at += a.length
  }
  return out
}

const filler = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff)

export const samples = {
  jpeg: () => bytesOf([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF', [0], filler(600)),
  png: () => bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], filler(300)),
  pdf: () => bytesOf('%PDF-1.4\n', filler(500), '\n%%EOF'),
  mp4: () => bytesOf([0, 0, 0, 0x18], 'ftypisom', [0, 0, 2, 0], 'isomiso2', filler(4000)),
  mp3: () => bytesOf('ID3', [4, 0, 0, 0, 0, 0, 0], filler(900)),
  text: () => bytesOf('Olá, segue a lista:\n1. arroz\n2. feijão\n'),
  /** A Windows executable: on no allow-list. */
  exe: () => bytesOf('MZ', [0x90, 0, 3, 0], filler(300)),
  svg: () => bytesOf('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
}

// --- a WebM/Opus recording as Chrome's MediaRecorder writes it (unknown-size Segment and Cluster) ---

function vintSize(n: number): number[] {
  if (n < 0x7f) return [0x80 | n]
  const out = [0x01]
  for (let i = 6; i >= 0; i--) out.push(Math.floor(n / 2 ** (8 * i)) & 0xff)
  return out
}

function el(id: number[], content: Uint8Array | number[] | string): Uint8Array {
  const body = bytesOf(content)
  return bytesOf(id, vintSize(body.length), body)
}

const UNKNOWN = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]

export function opusHead(preSkip = 312, channels = 1) {
  const head = new Uint8Array(19)
  head.set(enc.encode('OpusHead'))
  const view = new DataView(head.buffer)
  head[8] = 1
  head[9] = channels
  view.setUint16(10, preSkip, true)
  view.setUint32(12, 48_000, true)
  return head
}

/** `count` 20 ms Opus packets (TOC 0xf8: CELT fullband 20 ms, one frame = 960 samples). */
export function opusPackets(count: number): Uint8Array<ArrayBuffer>[] {
  return Array.from({ length: count }, (_, i) => bytesOf([0xf8], filler(40 + (i % 5) * 30, i)))
}

export function webmOpus(packets: Uint8Array[], head = opusHead()): Uint8Array<ArrayBuffer> {
  const ebml = el([0x1a, 0x45, 0xdf, 0xa3], bytesOf(el([0x42, 0x82], 'webm')))
  const track = el(
    [0xae],
    bytesOf(
      el([0xd7], [1]),
      el([0x83], [2]),
      el([0x86], 'A_OPUS'),
      el([0x63, 0xa2], head),
      el([0xe1], bytesOf(el([0x9f], [1]))),
    ),
  )
  const tracks = el([0x16, 0x54, 0xae, 0x6b], track)
  const blocks = packets.map((p, i) => el([0xa3], bytesOf([0x81, (i * 20) >> 8, (i * 20) & 0xff, 0x80], p)))
  const cluster = bytesOf([0x1f, 0x43, 0xb6, 0x75], UNKNOWN, el([0xe7], [0]), ...blocks)
  return bytesOf(ebml, [0x18, 0x53, 0x80, 0x67], UNKNOWN, tracks, cluster)
}
