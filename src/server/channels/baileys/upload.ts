/**
 * Media uploads to WhatsApp's media hosts, for Baileys's `sendMessage` (its `upload` option). Baileys on Bun
 * uploads with `fetch` and a streamed body (`uploadWithFetch`, Utils/messages-media.js): no Content-Length
 * (chunked), and no time limit unless the caller passes `mediaUploadTimeoutMs`, so one stuck upload holds the
 * connection's outbound line for good. This one sends the encrypted file as a file body (Bun sets its length)
 * and gives up after a timeout, trying the next host as Baileys does; the media connection (hosts, auth) is
 * still Baileys's own (`refreshMediaConn`).
 */
import { Boom } from '@hapi/boom'
import type { MediaConnInfo, WAMediaUploadFunction } from '@whiskeysockets/baileys'
import { DEFAULT_ORIGIN, MEDIA_PATH_MAP } from '@whiskeysockets/baileys/lib/Defaults/index.js'
import { encodeBase64EncodedStringForUpload } from '@whiskeysockets/baileys/lib/Utils/messages-media.js'
import type { Logger } from '../../logger'

/** How long one upload to one host may take (a voice note takes a second; a 100 MB video on a slow link, more). */
export const MEDIA_UPLOAD_TIMEOUT_MS = 120_000

type UploadAnswer = { url?: string; direct_path?: string; meta_hmac?: string; fbid?: number; ts?: number }

export function mediaUploader(
  refreshMediaConn: (forceGet?: boolean) => Promise<MediaConnInfo>,
  options: { timeoutMs?: number | undefined; log: Logger; connectionId: number },
): WAMediaUploadFunction {
  return async (filePath, { mediaType, fileEncSha256B64, timeoutMs }) => {
    let conn = await refreshMediaConn(false)
    const token = encodeBase64EncodedStringForUpload(fileEncSha256B64)
    const limit = timeoutMs ?? options.timeoutMs ?? MEDIA_UPLOAD_TIMEOUT_MS
    const failures: string[] = []
    for (const { hostname } of conn.hosts) {
      const url = `https://${hostname}${MEDIA_PATH_MAP[mediaType]}/${token}?auth=${encodeURIComponent(conn.auth)}&token=${token}`
      const file = Bun.file(filePath)
      try {
        const response = await fetch(url, {
          method: 'POST',
          body: file,
          headers: {
            'Content-Type': 'application/octet-stream',
            'Content-Length': String(file.size),
            Origin: DEFAULT_ORIGIN,
          },
          signal: AbortSignal.timeout(limit),
        })
        const answer = (await response.json().catch(() => undefined)) as UploadAnswer | undefined
        if (answer?.url || answer?.direct_path) {
          return {
            mediaUrl: answer.url ?? '',
            directPath: answer.direct_path ?? '',
            ...(answer.meta_hmac ? { meta_hmac: answer.meta_hmac } : {}),
            ...(answer.fbid !== undefined ? { fbid: answer.fbid } : {}),
            ...(answer.ts !== undefined ? { ts: answer.ts } : {}),
          }
        }
        failures.push(`${hostname}: HTTP ${response.status}`)
        // A refused upload may be a stale auth: the next host gets a fresh one.
        conn = await refreshMediaConn(true)
      } catch (err) {
        const reason =
          (err as Error).name === 'TimeoutError' ? `no answer in ${limit} ms` : (err as Error).message
        failures.push(`${hostname}: ${reason}`)
      }
    }
    options.log.warn('baileys: media upload failed', { connectionId: options.connectionId, failures })
    throw new Boom(`Media upload failed (${failures.join('; ') || 'no media host'})`, { statusCode: 500 })
  }
}
