/**
 * Profile pictures, asked of the channel after a message commits: for a new contact, when WhatsApp says the
 * picture changed, and otherwise at most once a day per contact (`contacts.profile_pic_checked_at`). One ask at
 * a time per server (WhatsApp rate-limits these queries); each contact once in the queue. The contact's
 * change is published live.
 */
import type { Deps } from '../../context'
import { refreshProfilePicture } from '../contacts/picture'

/** A contact's picture is asked again after this long. */
export const PICTURE_TTL_MS = 24 * 60 * 60 * 1000
/** After a failed ask, the next one waits this long. */
const RETRY_AFTER_ERROR_MS = 10 * 60 * 1000

export class PictureRefresher {
  private readonly queue = new Map<number, number>()
  private running: Promise<void> | undefined

  constructor(private readonly deps: Deps) {}

  /**
   * A message of this contact arrived through this connection: refresh its picture if due (or `force`d).
   * `checkedAt`, when the caller has the contact's row, spares the lookup.
   */
  maybeRefresh(contactId: number, whatsappId: number, force = false, checkedAt?: number | null) {
    if (this.queue.has(contactId)) return
    if (!force) {
      const checked =
        checkedAt !== undefined
          ? checkedAt
          : this.deps.sqlite
              .query<{ at: number | null }, [number]>(
                'SELECT profile_pic_checked_at AS at FROM contacts WHERE id = ?',
              )
              .get(contactId)?.at
      if (checked != null && this.deps.clock.now() - checked < PICTURE_TTL_MS) return
    }
    this.queue.set(contactId, whatsappId)
    this.running ??= this.drain().finally(() => {
      this.running = undefined
    })
  }

  async idle() {
    while (this.running) await this.running
  }

  private async drain() {
    for (;;) {
      const next = this.queue.entries().next()
      if (next.done) return
      const [contactId, whatsappId] = next.value
      try {
        await this.refresh(contactId, whatsappId)
      } catch (err) {
        this.deps.log.info('inbound: profile picture not refreshed', {
          contactId,
          error: (err as Error).message,
        })
        // not asked again on every message: in 10 minutes at the earliest
        this.deps.sqlite
          .query('UPDATE contacts SET profile_pic_checked_at = ? WHERE id = ?')
          .run(this.deps.clock.now() - PICTURE_TTL_MS + RETRY_AFTER_ERROR_MS, contactId)
      }
      this.queue.delete(contactId)
    }
  }

  /** The contacts area asks, downloads, stores and signs the picture (a WhatsApp URL would not load under the CSP). */
  private async refresh(contactId: number, whatsappId: number) {
    if (this.deps.channels.session(whatsappId)?.status !== 'CONNECTED') return
    await refreshProfilePicture(this.deps, contactId, { force: true })
  }
}
