/**
 * The simulator's media host: what `mmg.whatsapp.net` and the `media_conn` upload hosts do for a companion.
 * - Uploads: `POST /mms/<type>/<token>?auth=<auth>&token=<token>` (the URL Baileys's `getWAUploadToServer` builds:
 *   the token is the base64url SHA-256 of the encrypted body). The body must hash to the token and the auth must
 *   be the one `media_conn` handed out; the answer is the JSON Baileys reads (`url`, `direct_path`, ...).
 * - Downloads: `GET <direct path>` (any query) answers the stored encrypted bytes, honouring `Range`.
 * - Failure modes per store: slow uploads (a delay), failing uploads (a status), stuck uploads (held until the
 *   client gives up or the test releases them).
 * `handleMediaRequest` answers null for any other path, so the server core can chain it before its own routes.
 */
import { randomBytes } from 'node:crypto'
import type { BinaryNode, MediaType } from '@whiskeysockets/baileys'
import { decryptMedia, encryptMedia, type MediaCheck, sha256 } from './crypto'
import { type HistoryBlobInput, historyBlob } from './history'

/** Where downloads point, as in WhatsApp's own answers (the product routes it to the simulator). */
export const DEFAULT_DOWNLOAD_HOST = 'mmg.whatsapp.net'
export const MEDIA_CONN_TTL_SECONDS = 21_600
export const MAX_UPLOAD_BYTES = 100 * 1024 * 1024

export type UploadBehaviour = {
  /** Answer every upload this much later (the body is read first). */
  delayMs?: number
  /** Answer every upload with this HTTP status and an error body instead of storing it. */
  failStatus?: number
  /** Hold every upload unanswered until `releaseUploads()` or until the client gives up. */
  stall?: boolean
}

export type StoredMedia = {
  /** The path alone, the key downloads are matched on. */
  pathname: string
  directPath: string
  url: string
  /** ciphertext || mac, as uploaded. */
  encrypted: Uint8Array
  /** The upload path segment (`image`, `video`, `audio`, `document`, `md-app-state`, ...). */
  bucket: string
  source: 'upload' | 'simulator'
}

export type UploadAttempt = {
  bucket: string
  bytes: number
  /** The HTTP status answered, or 0 while the upload is held or when the client went away first. */
  status: number
}

/** The media fields a message carries (imageMessage, audioMessage, documentMessage, ...). */
export type MediaFields = {
  url: string
  directPath: string
  mediaKey: Uint8Array
  fileEncSha256: Uint8Array
  fileSha256: Uint8Array
  fileLength: number
  mediaKeyTimestamp: number
  mimetype: string
}

/** What a message Balcão sent carries about its media (Uint8Array from protobuf, base64 from JSON). */
export type UploadedFields = MediaCheck & { directPath?: string | null; url?: string | null }

export type MediaStoreOptions = {
  /** Host of the `url` in answers and customer messages. Default `mmg.whatsapp.net`. */
  downloadHost?: string
  /** The `auth` media_conn hands out and uploads must carry. Default random. */
  auth?: string
  upload?: UploadBehaviour
  /** Seconds since the epoch, for mediaKeyTimestamp. */
  nowSeconds?: () => number
}

const UPLOAD_PATH = /^\/(mms|product|pps)\/([a-z-]+)\/([A-Za-z0-9_-]+)$/
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

export class MediaStore {
  readonly auth: string
  readonly downloadHost: string
  /** Every upload attempt, in order (failed and held ones included). */
  readonly uploads: UploadAttempt[] = []
  private behaviour: UploadBehaviour
  private readonly byPath = new Map<string, StoredMedia>()
  private readonly held = new Set<() => void>()
  private idleWaiters: (() => void)[] = []
  private heldWaiters: (() => void)[] = []
  private readonly nowSeconds: () => number

  constructor(options: MediaStoreOptions = {}) {
    this.auth = options.auth ?? randomBytes(24).toString('base64')
    this.downloadHost = options.downloadHost ?? DEFAULT_DOWNLOAD_HOST
    this.behaviour = { ...options.upload }
    this.nowSeconds = options.nowSeconds ?? (() => Math.floor(Date.now() / 1000))
  }

  /** Changes how uploads from now on are answered (`{}` restores normal uploads). */
  setUploadBehaviour(behaviour: UploadBehaviour) {
    this.behaviour = { ...behaviour }
  }

  /** Uploads being held (stalled or delayed) right now. */
  get uploadsInFlight(): number {
    return this.held.size
  }

  /** Resolves when no upload is held (after a release, or once their clients gave up). */
  idle(): Promise<void> {
    if (!this.held.size) return Promise.resolve()
    return new Promise((resolve) => this.idleWaiters.push(resolve))
  }

  /** Resolves once an upload is being held (now, or when the next one arrives). */
  uploadHeld(): Promise<void> {
    if (this.held.size) return Promise.resolve()
    return new Promise((resolve) => this.heldWaiters.push(resolve))
  }

  /** Lets every held upload go on (stored and answered as normal). */
  releaseUploads() {
    for (const release of [...this.held]) release()
  }

  /** The `media_conn` child of the iq result, carrying this store's auth. */
  mediaConnNode(host: string): BinaryNode {
    return mediaConnNode(host, { auth: this.auth })
  }

  /** Stores encrypted bytes under a fresh direct path (how WhatsApp names them: random, signed, expiring). */
  put(encrypted: Uint8Array, bucket: string, source: StoredMedia['source']): StoredMedia {
    const pathname = `/v/t62.7118-24/${randomBytes(16).toString('hex')}.enc`
    const query = `ccb=11-4&oh=${randomBytes(16).toString('hex')}&oe=${(this.nowSeconds() + 14 * 86_400).toString(16).toUpperCase()}&_nc_sid=5e03e0`
    const directPath = `${pathname}?${query}`
    const media: StoredMedia = {
      pathname,
      directPath,
      url: `https://${this.downloadHost}${directPath}&mms3=true`,
      encrypted,
      bucket,
      source,
    }
    this.byPath.set(pathname, media)
    return media
  }

  /** The stored media of a direct path or url (any host, any query). */
  get(pathOrUrl: string): StoredMedia | undefined {
    return this.byPath.get(new URL(pathOrUrl, 'https://media.invalid').pathname)
  }

  /** Forgets media (the next download is a 404, as for expired WhatsApp media). */
  forget(pathOrUrl: string): boolean {
    return this.byPath.delete(new URL(pathOrUrl, 'https://media.invalid').pathname)
  }

  async handleMediaRequest(req: Request): Promise<Response | null> {
    const url = new URL(req.url)
    if (req.method === 'POST') {
      const match = UPLOAD_PATH.exec(url.pathname)
      return match ? this.upload(req, url, match[2] as string, match[3] as string) : null
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (!url.pathname.startsWith('/v/')) return null
      const media = this.byPath.get(url.pathname)
      if (!media) return json(404, { error: 'media not found' })
      return rangeResponse(media.encrypted, req.headers.get('range'), req.method === 'HEAD')
    }
    return null
  }

  private async upload(req: Request, url: URL, bucket: string, token: string): Promise<Response> {
    const attempt: UploadAttempt = { bucket, bytes: 0, status: 0 }
    this.uploads.push(attempt)
    const body = new Uint8Array(await req.arrayBuffer())
    attempt.bytes = body.length
    const behaviour = this.behaviour
    if (behaviour.stall || behaviour.delayMs) {
      const released = await this.hold(req.signal, behaviour.stall ? undefined : behaviour.delayMs)
      if (!released) return json(499, { error: 'client went away' })
    }
    const answer = (status: number, payload: unknown) => {
      attempt.status = status
      return json(status, payload)
    }
    if (behaviour.failStatus) return answer(behaviour.failStatus, { error: 'simulated upload failure' })
    if (url.searchParams.get('auth') !== this.auth) return answer(401, { error: 'bad auth' })
    if (body.length > MAX_UPLOAD_BYTES) return answer(413, { error: 'too large' })
    if (Buffer.from(sha256(body)).toString('base64url') !== token)
      return answer(400, { error: 'the body does not hash to the token' })
    const media = this.put(body, bucket, 'upload')
    return answer(200, {
      url: media.url,
      direct_path: media.directPath,
      handle: null,
      object_id: randomBytes(8).readBigUInt64BE().toString(),
    })
  }

  /** Resolves true when released (after `ms`, or by releaseUploads), false when the client aborted first. */
  private hold(signal: AbortSignal, ms: number | undefined): Promise<boolean> {
    return new Promise((resolve) => {
      const finish = (released: boolean) => {
        this.held.delete(release)
        if (!this.held.size) for (const wake of this.idleWaiters.splice(0)) wake()
        clearTimeout(timer)
        signal.removeEventListener('abort', aborted)
        resolve(released)
      }
      const release = () => finish(true)
      const aborted = () => finish(false)
      const timer = ms === undefined ? undefined : setTimeout(release, ms)
      this.held.add(release)
      for (const wake of this.heldWaiters.splice(0)) wake()
      if (signal.aborted) aborted()
      else signal.addEventListener('abort', aborted)
    })
  }

  /**
   * Media a customer's phone sends: encrypted as a phone does, stored, and the fields its message carries.
   * `kind` is the media type the keys are derived for (`image`, `video`, `audio` for voice notes too,
   * `document`, `sticker`).
   */
  async uploadForCustomer(bytes: Uint8Array, kind: MediaType, mimetype: string): Promise<MediaFields> {
    const encrypted = await encryptMedia(bytes, kind)
    const media = this.put(encrypted.encrypted, kind, 'simulator')
    return {
      url: media.url,
      directPath: media.directPath,
      mediaKey: encrypted.mediaKey,
      fileEncSha256: encrypted.fileEncSha256,
      fileSha256: encrypted.fileSha256,
      fileLength: encrypted.fileLength,
      mediaKeyTimestamp: this.nowSeconds(),
      mimetype,
    }
  }

  /** A history chunk stored here; answers the HistorySyncNotification the phone sends (see history.ts). */
  historyBlob(input: HistoryBlobInput) {
    return historyBlob(this, input)
  }

  /**
   * The bytes a customer's device gets from media Balcão uploaded: found by the message's direct path (or url),
   * hashes and MAC checked, decrypted. Throws when the media is missing or would be refused by a device.
   */
  async decryptUploaded(fields: UploadedFields, kind: MediaType): Promise<Uint8Array> {
    const where = fields.directPath || fields.url
    if (!where) throw new Error('the message carries neither directPath nor url')
    const media = this.get(where)
    if (!media) throw new Error(`no media stored at ${where}`)
    return decryptMedia(media.encrypted, kind, fields)
  }
}

/**
 * The `media_conn` node of the `w:m` iq result, as Baileys's `refreshMediaConn` reads it (messages-send.js):
 * `auth`, `ttl` (seconds) and one `host` per upload host, each `hostname` (here `127.0.0.1:<port>`, to which
 * Baileys prefixes `https://`) and `maxContentLengthBytes`. The server core wraps it in the iq result.
 */
export function mediaConnNode(
  host: string,
  options: { auth: string; ttlSeconds?: number; maxContentLengthBytes?: number },
): BinaryNode {
  return {
    tag: 'media_conn',
    attrs: {
      auth: options.auth,
      ttl: String(options.ttlSeconds ?? MEDIA_CONN_TTL_SECONDS),
      auth_ttl: String(options.ttlSeconds ?? MEDIA_CONN_TTL_SECONDS),
      max_buckets: '12',
    },
    content: [
      {
        tag: 'host',
        attrs: {
          hostname: host,
          maxContentLengthBytes: String(options.maxContentLengthBytes ?? MAX_UPLOAD_BYTES),
        },
      },
    ],
  }
}

/** A 200 with the bytes, or a 206 for a satisfiable `Range: bytes=a-b` / `bytes=a-`, or a 416. */
function rangeResponse(bytes: Uint8Array, range: string | null, headOnly: boolean): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/octet-stream',
    'accept-ranges': 'bytes',
  }
  const match = range ? /^bytes=(\d+)-(\d*)$/.exec(range.trim()) : null
  if (!match) {
    headers['content-length'] = String(bytes.length)
    return new Response(headOnly ? null : new Uint8Array(bytes), { status: 200, headers })
  }
  const start = Number(match[1])
  const end = Math.min(match[2] ? Number(match[2]) : bytes.length - 1, bytes.length - 1)
  if (start >= bytes.length || end < start) {
    headers['content-range'] = `bytes */${bytes.length}`
    return new Response(null, { status: 416, headers })
  }
  const slice = bytes.subarray(start, end + 1)
  headers['content-range'] = `bytes ${start}-${end}/${bytes.length}`
  headers['content-length'] = String(slice.length)
  return new Response(headOnly ? null : new Uint8Array(slice), { status: 206, headers })
}
