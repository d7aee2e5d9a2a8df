/**
 * Inbound media, downloaded after the message commits (the message shows at once with mediaState 'pending'):
 *
 * - the first attempt uses the live download the channel handed over with the message; later ones (and every
 *   attempt after a restart) download from the message's stored `raw` through the connection's session;
 * - a file WhatsApp no longer holds (expired: 404/410) is asked of the phone again (`reuploadMedia`, Baileys'
 *   updateMediaMessage) and downloaded from its new address, at most twice per message;
 * - a failure retries with backoff (10 s, 1 min, 5 min, 30 min, 2 h); after the last one the message's media
 *   is 'failed' (the web shows ERR_WAPP_DOWNLOAD_MEDIA with a retry button: POST /api/messages/{id}/media/retry
 *   starts over);
 * - the state lives in rows (messages.media_state, media_downloads: attempts, next attempt), so downloads
 *   resume at boot; at most `concurrency` run at once.
 *
 * Each change publishes the message's `appMessage` update.
 */
import { AppError } from '../../../shared/errors'
import type { ChannelSession } from '../../channels/types'
import type { TimerHandle } from '../../clock'
import { type Deps, transact } from '../../context'
import { storeMedia } from '../../media/store'
import { publishMessageUpdates } from '../messages/live'
import { rawOf, readProviderData } from '../messages/refs'

/** Waits before attempts 2, 3, … (the last failure makes the media 'failed'). */
export const MEDIA_BACKOFF_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000]
/** Attempts in all. */
export const MEDIA_MAX_ATTEMPTS = MEDIA_BACKOFF_MS.length + 1
/** Re-uploads asked of the phone per message. */
export const MEDIA_MAX_REUPLOADS = 2
/**
 * Inbound files larger than this (as WhatsApp declares them) are not downloaded: the bytes pass through
 * memory. They show as failed at once (WhatsApp allows documents up to 2 GB; the phone still has them).
 */
export const INBOUND_MEDIA_MAX_BYTES = 100 * 1024 * 1024

type Job = {
  messageId: number
  companyId: number
  ticketId: number
  whatsappId: number | null
  attempts: number
  reuploads: number
  providerData: string | null
  mime: string | null
  name: string | null
  size: number | null
  state: string
}

export class MediaDownloader {
  private readonly running = new Set<number>()
  /** First-attempt downloads handed over by the channel with the live message. */
  private readonly live = new Map<number, () => Promise<Uint8Array>>()
  private timer: TimerHandle | undefined
  private timerAt = 0
  private stopped = false
  private readonly inFlight = new Set<Promise<void>>()

  constructor(
    private readonly deps: Deps,
    private readonly concurrency = 3,
  ) {}

  /** Boot: downloads that were due or waiting go on. */
  resume() {
    this.stopped = false
    this.pump()
  }

  stop() {
    this.stopped = true
    if (this.timer !== undefined) this.deps.clock.clearTimeout(this.timer)
    this.timer = undefined
  }

  /** A message with media was committed. */
  enqueue(messageId: number, download?: () => Promise<Uint8Array>) {
    if (download) this.live.set(messageId, download)
    this.pump()
  }

  /**
   * Starts a failed (or still pending) download over: attempts from zero, now. Returns false when the message
   * has no media to fetch (none, or already stored).
   */
  retry(companyId: number, messageId: number): boolean {
    const changed = transact(this.deps, (sqlite, events) => {
      const row = sqlite
        .query<{ ticketId: number; state: string }, [number, number]>(
          `SELECT ticket_id AS ticketId, media_state AS state FROM messages WHERE id = ? AND company_id = ?`,
        )
        .get(messageId, companyId)
      if (!row || (row.state !== 'failed' && row.state !== 'pending')) return false
      const now = this.deps.clock.now()
      const whatsappId =
        sqlite
          .query<{ w: number | null }, [number]>(
            `SELECT coalesce(d.whatsapp_id, t.whatsapp_id) AS w FROM messages m JOIN tickets t ON t.id = m.ticket_id
               LEFT JOIN media_downloads d ON d.message_id = m.id WHERE m.id = ?`,
          )
          .get(messageId)?.w ?? null
      sqlite
        .query(
          `INSERT INTO media_downloads (message_id, company_id, whatsapp_id, attempts, reuploads, next_attempt_at, updated_at)
           VALUES (?, ?, ?, 0, 0, ?, ?)
           ON CONFLICT (message_id) DO UPDATE SET attempts = 0, reuploads = 0, next_attempt_at = excluded.next_attempt_at,
             last_error = NULL, updated_at = excluded.updated_at`,
        )
        .run(messageId, companyId, whatsappId, now, now)
      if (row.state === 'failed') {
        sqlite
          .query(`UPDATE messages SET media_state = 'pending', updated_at = ? WHERE id = ?`)
          .run(now, messageId)
        publishMessageUpdates(this.deps, sqlite, events, row.ticketId, [messageId])
      }
      return true
    })
    if (changed) this.pump()
    return changed
  }

  /** Resolves when no download runs (tests). */
  async idle() {
    while (this.inFlight.size) await Promise.all([...this.inFlight])
  }

  /** Starts every due download there is room for, and sets the timer for the next one due. */
  private pump() {
    if (this.stopped) return
    const { sqlite, clock } = this.deps
    const now = clock.now()
    const room = this.concurrency - this.running.size
    if (room > 0) {
      const due = sqlite
        .query<{ id: number }, [number, number]>(
          `SELECT d.message_id AS id FROM media_downloads d JOIN messages m ON m.id = d.message_id
            WHERE m.media_state = 'pending' AND d.next_attempt_at <= ?
            ORDER BY d.next_attempt_at, d.message_id LIMIT ?`,
        )
        .all(now, room + this.running.size)
      for (const { id } of due) {
        if (this.running.size >= this.concurrency) break
        if (this.running.has(id)) continue
        this.running.add(id)
        const run = this.run(id).finally(() => {
          this.running.delete(id)
          this.inFlight.delete(run)
          this.pump()
        })
        this.inFlight.add(run)
      }
    }
    const next = sqlite
      .query<{ at: number | null }, []>(
        `SELECT min(d.next_attempt_at) AS at FROM media_downloads d JOIN messages m ON m.id = d.message_id
          WHERE m.media_state = 'pending'`,
      )
      .get()?.at
    if (next == null || next <= now) return
    if (this.timer !== undefined && this.timerAt <= next) return
    if (this.timer !== undefined) clock.clearTimeout(this.timer)
    this.timerAt = next
    this.timer = clock.setTimeout(() => {
      this.timer = undefined
      this.pump()
    }, next - now)
  }

  private job(messageId: number): Job | undefined {
    return (
      this.deps.sqlite
        .query<Job, [number]>(
          `SELECT m.id AS messageId, m.company_id AS companyId, m.ticket_id AS ticketId, d.whatsapp_id AS whatsappId,
                  d.attempts, d.reuploads, m.provider_data AS providerData, m.media_mime AS mime,
                  m.media_name AS name, m.media_size AS size, m.media_state AS state
             FROM media_downloads d JOIN messages m ON m.id = d.message_id WHERE d.message_id = ?`,
        )
        .get(messageId) ?? undefined
    )
  }

  private session(whatsappId: number | null): ChannelSession | undefined {
    if (whatsappId == null) return undefined
    const session = this.deps.channels.session(whatsappId)
    return session?.status === 'CONNECTED' ? session : undefined
  }

  private async run(messageId: number) {
    const job = this.job(messageId)
    if (job?.state !== 'pending') {
      this.live.delete(messageId)
      return
    }
    const live = this.live.get(messageId)
    this.live.delete(messageId)
    let reuploads = job.reuploads
    if ((job.size ?? 0) > INBOUND_MEDIA_MAX_BYTES) {
      const limit = `${INBOUND_MEDIA_MAX_BYTES / 1024 / 1024} MB`
      this.failed(job, reuploads, new AppError('ERR_WAPP_DOWNLOAD_MEDIA', `Larger than ${limit}`), true)
      return
    }
    try {
      let bytes: Uint8Array
      if (live && job.attempts === 0) {
        try {
          bytes = await live()
        } catch (err) {
          if (!isExpired(err)) throw err
          bytes = await this.fromRaw(job, (n) => (reuploads = n), true)
        }
      } else bytes = await this.fromRaw(job, (n) => (reuploads = n), false)
      this.stored(job, bytes)
    } catch (err) {
      this.failed(job, reuploads, err as Error)
    }
  }

  /** Downloads from the stored raw; an expired file is asked of the phone again (and the new raw kept). */
  private async fromRaw(job: Job, setReuploads: (n: number) => void, expired: boolean): Promise<Uint8Array> {
    const session = this.session(job.whatsappId)
    if (!session) throw new AppError('ERR_WAPP_NOT_INITIALIZED', 'The connection is not connected')
    let raw = rawOf(job.providerData)
    if (!raw)
      throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'The message holds no provider data to download from')
    if (!expired) {
      try {
        return await session.downloadMedia(raw)
      } catch (err) {
        if (!isExpired(err)) throw err
      }
    }
    if (job.reuploads >= MEDIA_MAX_REUPLOADS)
      throw new AppError('ERR_WAPP_DOWNLOAD_MEDIA', 'The media expired and was already asked for again')
    job.reuploads++
    setReuploads(job.reuploads)
    raw = await session.reuploadMedia(raw)
    const data = { ...readProviderData(job.providerData), raw: Buffer.from(raw).toString('base64') }
    job.providerData = JSON.stringify(data)
    this.deps.sqlite
      .query('UPDATE messages SET provider_data = ? WHERE id = ?')
      .run(job.providerData, job.messageId)
    return session.downloadMedia(raw)
  }

  private stored(job: Job, bytes: Uint8Array) {
    const file = storeMedia(this.deps, job.companyId, bytes, {
      mime: job.mime ?? 'application/octet-stream',
      name: job.name,
    })
    transact(this.deps, (sqlite, events) => {
      const now = this.deps.clock.now()
      const res = sqlite
        .query(
          `UPDATE messages SET media_state = 'stored', media_path = ?, media_size = ?, updated_at = ?
            WHERE id = ? AND media_state = 'pending'`,
        )
        .run(file.path, file.size, now, job.messageId)
      sqlite.query('DELETE FROM media_downloads WHERE message_id = ?').run(job.messageId)
      if (res.changes > 0) publishMessageUpdates(this.deps, sqlite, events, job.ticketId, [job.messageId])
    })
  }

  private failed(job: Job, reuploads: number, err: Error, final = false) {
    const attempts = job.attempts + 1
    const reason = err instanceof AppError ? `${err.code}: ${err.message}` : err.message
    const last = final || attempts >= MEDIA_MAX_ATTEMPTS
    transact(this.deps, (sqlite, events) => {
      const now = this.deps.clock.now()
      sqlite
        .query(
          `UPDATE media_downloads SET attempts = ?, reuploads = ?, next_attempt_at = ?, last_error = ?, updated_at = ?
            WHERE message_id = ?`,
        )
        .run(
          attempts,
          reuploads,
          now + (MEDIA_BACKOFF_MS[attempts - 1] ?? 0),
          reason.slice(0, 500),
          now,
          job.messageId,
        )
      if (!last) return
      const res = sqlite
        .query(
          `UPDATE messages SET media_state = 'failed', updated_at = ? WHERE id = ? AND media_state = 'pending'`,
        )
        .run(now, job.messageId)
      if (res.changes > 0) publishMessageUpdates(this.deps, sqlite, events, job.ticketId, [job.messageId])
    })
    this.deps.log[last ? 'warn' : 'info']('inbound: media download failed', {
      messageId: job.messageId,
      attempt: attempts,
      final: last,
      error: reason,
    })
  }
}

function isExpired(err: unknown): boolean {
  return err instanceof AppError && err.code === 'ERR_WAPP_DOWNLOAD_MEDIA' && err.details?.expired === true
}
