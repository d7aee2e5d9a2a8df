import { describe, expect, test } from 'bun:test'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { ManualClock } from '../clock'
import { generateSecrets } from '../secrets'
import { oggCrc, opusPacketSamples, readWebmOpus, webmOpusToOgg } from './ogg-opus'
import { parseRange } from './routes'
import { checkMediaLink, signedMediaUrl } from './sign'
import { mediaFilePath, storeMedia } from './store'
import { bytesOf, opusHead, opusPackets, samples, webmOpus } from './testing'
import { sniffFormat } from './types'

describe('the allow-list reads the type from the bytes', () => {
  test('known formats are recognised whatever the name or declared type says', () => {
    expect(sniffFormat(samples.jpeg(), 'application/pdf', 'x.pdf')?.mime).toBe('image/jpeg')
    expect(sniffFormat(samples.png(), '', 'photo')?.ext).toBe('png')
    expect(sniffFormat(samples.pdf(), 'image/png', 'a.png')?.mime).toBe('application/pdf')
    expect(sniffFormat(samples.mp4(), 'video/mp4', 'v.mp4')?.category).toBe('video')
    expect(sniffFormat(samples.mp4(), 'audio/mp4', 'a.m4a')?.mime).toBe('audio/mp4')
    expect(sniffFormat(samples.mp3(), 'audio/mpeg', 'a.mp3')?.mime).toBe('audio/mpeg')
    expect(sniffFormat(samples.text(), 'text/plain', 'lista.txt')?.mime).toBe('text/plain')
  })

  test('anything else is refused: executables, SVG (scripts), binary "text"', () => {
    expect(sniffFormat(samples.exe(), 'application/pdf', 'nota.pdf')).toBeNull()
    expect(sniffFormat(samples.svg(), 'image/svg+xml', 'a.svg')).toBeNull()
    expect(sniffFormat(bytesOf([0, 1, 2, 3, 0, 0]), 'text/plain', 'a.txt')).toBeNull()
  })

  test('Ogg with an OpusHead is a voice note; WebM audio is a browser recording', () => {
    const ogg = webmOpusToOgg(webmOpus(opusPackets(3)))!
    expect(sniffFormat(ogg, '', 'voice.ogg')).toMatchObject({ mime: 'audio/ogg', opus: true })
    expect(sniffFormat(webmOpus(opusPackets(3)), 'audio/webm;codecs=opus', 'rec.webm')?.ext).toBe('weba')
    expect(sniffFormat(webmOpus(opusPackets(3)), '', 'rec.webm')?.ext).toBe('weba')
    expect(sniffFormat(webmOpus(opusPackets(3)), 'video/webm', 'clip.webm')?.ext).toBe('weba')
    const video = webmOpus(opusPackets(3))
    video.set(new TextEncoder().encode('V_VP8'), 40)
    expect(sniffFormat(video, 'audio/webm', 'clip.webm')?.ext).toBe('webm')
  })
})

describe('a WebM/Opus recording becomes an Ogg/Opus voice note without re-encoding', () => {
  test('the packets, the header and the timing carry over', () => {
    const packets = opusPackets(120)
    const ogg = webmOpusToOgg(webmOpus(packets, opusHead(312)))!
    expect(new TextDecoder().decode(ogg.subarray(0, 4))).toBe('OggS')
    // Walk the pages: each checksum is right, the first is the head, the last ends the stream.
    const pages: { flags: number; granule: bigint; packets: Uint8Array[] }[] = []
    let at = 0
    let pending: number[] = []
    while (at < ogg.length) {
      const view = new DataView(ogg.buffer, ogg.byteOffset + at)
      expect(new TextDecoder().decode(ogg.subarray(at, at + 4))).toBe('OggS')
      const count = ogg[at + 26]!
      const lacing = [...ogg.subarray(at + 27, at + 27 + count)]
      const length = 27 + count + lacing.reduce((a, b) => a + b, 0)
      const page = ogg.slice(at, at + length)
      const stored = view.getUint32(22, true)
      page.fill(0, 22, 26)
      expect(oggCrc(page)).toBe(stored)
      const found: Uint8Array[] = []
      let p = at + 27 + count
      for (const l of lacing) {
        pending.push(...ogg.subarray(p, p + l))
        p += l
        if (l < 255) {
          found.push(Uint8Array.from(pending))
          pending = []
        }
      }
      pages.push({ flags: ogg[at + 5]!, granule: view.getBigInt64(6, true), packets: found })
      at += length
    }
    expect(pages[0]!.flags).toBe(0x02)
    expect(new TextDecoder().decode(pages[0]!.packets[0]!.subarray(0, 8))).toBe('OpusHead')
    expect(new TextDecoder().decode(pages[1]!.packets[0]!.subarray(0, 8))).toBe('OpusTags')
    expect(pages.at(-1)!.flags).toBe(0x04)
    const audio = pages.slice(2).flatMap((p) => p.packets)
    expect(audio).toEqual(packets)
    expect(pages.at(-1)!.granule).toBe(BigInt(312 + 120 * 960))
  })

  test('packet durations follow the TOC byte', () => {
    expect(opusPacketSamples(Uint8Array.of(0xf8))).toBe(960) // CELT 20 ms
    expect(opusPacketSamples(Uint8Array.of(0x08))).toBe(960) // SILK 20 ms
    expect(opusPacketSamples(Uint8Array.of(0xf9))).toBe(1920) // two frames
    expect(opusPacketSamples(Uint8Array.of(0xfb, 0x03))).toBe(2880) // code 3, three frames
  })

  test('not WebM, or WebM without Opus: left as it is', () => {
    expect(webmOpusToOgg(samples.mp3())).toBeNull()
    expect(readWebmOpus(samples.jpeg())).toBeNull()
  })
})

describe('stored files and signed links', () => {
  const deps = () => ({
    mediaDir: `/tmp/balcao-test-media/${crypto.randomUUID()}`,
    secrets: generateSecrets(),
    clock: new ManualClock(),
  })

  test('files get random names under the company folder, mode 600', () => {
    const d = deps()
    const a = storeMedia(d, 7, samples.jpeg(), { mime: 'image/jpeg', name: '../../etc/passwd' })
    const b = storeMedia(d, 7, samples.jpeg(), { mime: 'image/jpeg' })
    expect(a.path).toMatch(/^[A-Za-z0-9_-]{24}\.jpg$/)
    expect(a.path).not.toBe(b.path)
    const file = mediaFilePath(d, 7, a.path)!
    expect(file.startsWith(`${d.mediaDir}/7/`)).toBe(true)
    expect(readFileSync(file)).toEqual(Buffer.from(samples.jpeg()))
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(storeMedia(d, 7, bytesOf('x'), { mime: 'application/x-msdownload' }).path).toMatch(/\.bin$/)
  })

  test('a path that is not a stored name never resolves to a file', () => {
    const d = deps()
    for (const bad of ['../secrets.json', '..%2Fx.jpg', 'a/b.jpg', 'short.jpg', '.jpg', ''])
      expect(mediaFilePath(d, 7, bad)).toBeNull()
    expect(existsSync(d.mediaDir)).toBe(false)
  })

  test('a link is valid until it expires, for that file and company only', () => {
    const d = deps()
    const url = new URL(signedMediaUrl(d, 3, 'abcdefghijklmnopqrstuvwx.jpg', 60_000), 'http://x')
    const exp = url.searchParams.get('exp')!
    const sig = url.searchParams.get('sig')!
    expect(url.pathname).toBe('/api/media/3/abcdefghijklmnopqrstuvwx.jpg')
    expect(checkMediaLink(d, 3, 'abcdefghijklmnopqrstuvwx.jpg', exp, sig)).toBe('ok')
    expect(checkMediaLink(d, 4, 'abcdefghijklmnopqrstuvwx.jpg', exp, sig)).toBe('invalid')
    expect(checkMediaLink(d, 3, 'bbcdefghijklmnopqrstuvwx.jpg', exp, sig)).toBe('invalid')
    expect(checkMediaLink(d, 3, 'abcdefghijklmnopqrstuvwx.jpg', String(Number(exp) + 3600), sig)).toBe(
      'invalid',
    )
    const flipped = `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`
    expect(checkMediaLink(d, 3, 'abcdefghijklmnopqrstuvwx.jpg', exp, flipped)).toBe('invalid')
    d.clock.advance(2 * 60 * 60 * 1000)
    expect(checkMediaLink(d, 3, 'abcdefghijklmnopqrstuvwx.jpg', exp, sig)).toBe('expired')
    expect(
      checkMediaLink({ ...d, secrets: generateSecrets() }, 3, 'abcdefghijklmnopqrstuvwx.jpg', exp, sig),
    ).toBe('invalid')
  })

  test('range headers', () => {
    expect(parseRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 })
    expect(parseRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 })
    expect(parseRange('bytes=500-5000', 1000)).toEqual({ start: 500, end: 999 })
    expect(parseRange('bytes=1000-', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=5-1', 1000)).toBe('unsatisfiable')
    expect(parseRange('bytes=0-1,5-6', 1000)).toBeNull()
    expect(parseRange('items=0-1', 1000)).toBeNull()
    expect(parseRange(undefined, 1000)).toBeNull()
  })
})
