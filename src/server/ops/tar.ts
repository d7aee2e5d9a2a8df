/**
 * A streaming tar (ustar) writer and reader, gzip-compressed, for backups: entries go to disk as they are read,
 * so a data folder of many gigabytes never sits in memory, and the caller sees progress byte by byte.
 * (Bun.Archive builds and reads archives in memory; node-tar would bring a dependency tree for what is two
 * hundred lines of a format that has not changed since 1988.)
 */
import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, mkdirSync, openSync, type WriteStream } from 'node:fs'
import { dirname, join, normalize, sep } from 'node:path'
import { createGunzip, createGzip, type Gzip } from 'node:zlib'

const BLOCK = 512
const MAX_SIZE = 8 * 1024 ** 3 - 1 // what 11 octal digits hold

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`
}

function header(name: string, size: number, mtime: number): Buffer {
  const block = Buffer.alloc(BLOCK)
  const bytes = Buffer.from(name, 'utf8')
  if (bytes.length > 100) throw new Error(`name too long for the archive: ${name}`)
  if (size > MAX_SIZE) throw new Error(`file too large for the archive: ${name}`)
  bytes.copy(block, 0)
  block.write(octal(0o600, 8), 100, 'ascii')
  block.write(octal(0, 8), 108, 'ascii')
  block.write(octal(0, 8), 116, 'ascii')
  block.write(octal(size, 12), 124, 'ascii')
  block.write(octal(Math.floor(mtime / 1000), 12), 136, 'ascii')
  block.write('        ', 148, 'ascii')
  block.write('0', 156, 'ascii')
  block.write('ustar\0', 257, 'ascii')
  block.write('00', 263, 'ascii')
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii')
  return block
}

export type EntryDigest = { name: string; bytes: number; sha256: string }

/** Writes a .tar.gz entry by entry. */
export class TarWriter {
  private readonly gzip: Gzip
  private readonly out: WriteStream
  private readonly closed: Promise<void>
  /** Uncompressed bytes of file content written so far. */
  written = 0

  constructor(
    file: string,
    private readonly onProgress?: (bytes: number) => void,
  ) {
    this.gzip = createGzip({ level: 6 })
    this.out = createWriteStream(file, { mode: 0o600 })
    this.closed = new Promise((resolve, reject) => {
      this.out.on('close', resolve)
      this.out.on('error', reject)
      this.gzip.on('error', reject)
    })
    this.gzip.pipe(this.out)
  }

  private async push(chunk: Buffer) {
    if (!this.gzip.write(chunk)) await new Promise((resolve) => this.gzip.once('drain', resolve))
  }

  /** Adds bytes held in memory (the manifest). */
  async addBuffer(name: string, content: Buffer, mtime = Date.now()): Promise<EntryDigest> {
    await this.push(header(name, content.length, mtime))
    await this.push(content)
    await this.pad(content.length)
    this.written += content.length
    this.onProgress?.(this.written)
    return { name, bytes: content.length, sha256: createHash('sha256').update(content).digest('hex') }
  }

  /**
   * Adds a file from disk, streamed: the first `size` bytes (its size when listed). A file that is gone by now
   * is skipped (null); once opened, removing it does not matter.
   */
  async addFile(name: string, path: string, size: number, mtime: number): Promise<EntryDigest | null> {
    let fd: number
    try {
      fd = openSync(path, 'r')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
    await this.push(header(name, size, mtime))
    const hash = createHash('sha256')
    let copied = 0
    const source = createReadStream(path, { fd, end: size > 0 ? size - 1 : 0, autoClose: true })
    for await (const chunk of source as AsyncIterable<Buffer>) {
      const part = size === 0 ? Buffer.alloc(0) : chunk.subarray(0, Math.max(0, size - copied))
      if (!part.length) continue
      hash.update(part)
      await this.push(part)
      copied += part.length
      this.written += part.length
      this.onProgress?.(this.written)
    }
    if (copied !== size) throw new Error(`${path} changed while it was being archived`)
    await this.pad(size)
    return { name, bytes: size, sha256: hash.digest('hex') }
  }

  private async pad(size: number) {
    const rest = size % BLOCK
    if (rest) await this.push(Buffer.alloc(BLOCK - rest))
  }

  async finish() {
    await this.push(Buffer.alloc(BLOCK * 2))
    this.gzip.end()
    await this.closed
  }
}

/** A path inside the archive that stays inside the folder it is extracted to. */
export function safeEntryName(name: string): string | null {
  if (!name || name.includes('\0') || name.startsWith('/') || name.includes('\\')) return null
  const clean = normalize(name)
  if (clean.startsWith('..') || clean.split(sep).includes('..') || clean === '.') return null
  return clean
}

function readOctal(block: Buffer, offset: number, width: number): number {
  const text = block
    .toString('ascii', offset, offset + width)
    .replace(/\0.*$/, '')
    .trim()
  if (!/^[0-7]*$/.test(text)) throw new Error('not a tar archive (bad number field)')
  return text ? Number.parseInt(text, 8) : 0
}

function checksumOk(block: Buffer): boolean {
  let sum = 0
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : (block[i] ?? 0)
  return sum === readOctal(block, 148, 8)
}

/**
 * Extracts a .tar.gz written by TarWriter into `dir`, refusing anything else (links, devices, absolute or
 * escaping names, bad header checksums), and answers each file's size and SHA-256.
 */
export async function extractTarGz(
  file: string,
  dir: string,
  onProgress?: (bytes: number) => void,
): Promise<EntryDigest[]> {
  const entries: EntryDigest[] = []
  let pending: Buffer = Buffer.alloc(0)
  let current: {
    name: string
    size: number
    left: number
    hash: ReturnType<typeof createHash>
    out: WriteStream
  } | null = null
  let padding = 0
  let ended = false
  let done = 0
  const finishEntry = async () => {
    if (!current) return
    const entry = current
    current = null
    await new Promise<void>((resolve, reject) =>
      entry.out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    )
    entries.push({ name: entry.name, bytes: entry.size, sha256: entry.hash.digest('hex') })
  }
  const open = (target: string) => {
    const out = createWriteStream(target, { mode: 0o600 })
    // A failure surfaces through end() or write(); without a listener it would crash the process.
    out.on('error', () => {})
    return out
  }
  const gunzip = createGunzip()
  const stream = createReadStream(file).pipe(gunzip)
  try {
    await readEntries()
  } catch (err) {
    // Stop writing before the caller removes the folder the file was being written to.
    const left = current as { out: WriteStream } | null
    if (left) await new Promise((resolve) => left.out.destroy().once('close', resolve))
    gunzip.destroy()
    throw err
  }
  if (current) throw new Error('the archive is cut short')
  if (!ended) throw new Error('the archive is cut short (no end marker)')
  return entries

  async function readEntries() {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk
      while (!ended) {
        if (current) {
          if (!pending.length) break
          const part = pending.subarray(0, current.left)
          pending = pending.subarray(part.length)
          current.hash.update(part)
          if (!current.out.write(part)) await new Promise((resolve) => current?.out.once('drain', resolve))
          current.left -= part.length
          done += part.length
          onProgress?.(done)
          if (current.left === 0) {
            padding = (BLOCK - (current.size % BLOCK)) % BLOCK
            await finishEntry()
          }
          continue
        }
        if (padding) {
          const skip = Math.min(padding, pending.length)
          pending = pending.subarray(skip)
          padding -= skip
          if (padding) break
          continue
        }
        if (pending.length < BLOCK) break
        const block = pending.subarray(0, BLOCK)
        pending = pending.subarray(BLOCK)
        if (block.every((b) => b === 0)) {
          ended = true
          break
        }
        if (!checksumOk(block)) throw new Error('not a Balcão backup (a tar header checksum fails)')
        const type = String.fromCharCode(block[156] ?? 0)
        if (type !== '0' && type !== '\0')
          throw new Error('the archive holds something other than plain files')
        const raw = block.toString('utf8', 0, 100).replace(/\0.*$/s, '')
        const name = safeEntryName(raw)
        if (!name) throw new Error(`the archive holds an unsafe path: ${JSON.stringify(raw)}`)
        const size = readOctal(block, 124, 12)
        const target = join(dir, name)
        mkdirSync(dirname(target), { recursive: true, mode: 0o700 })
        current = { name, size, left: size, hash: createHash('sha256'), out: open(target) }
        if (size === 0) await finishEntry()
      }
    }
  }
}
