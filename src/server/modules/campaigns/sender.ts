/**
 * The paced sender of one connection, shared by all its running campaigns (oldest campaign first): wait for the
 * connection, the sending window and room under the daily cap; check the numbers on WhatsApp (a batch at a
 * time: invalid ones are marked and never sent to); wait the pacing interval from the number's last send (the
 * "typing..." shown before a message is part of it); then, in one turn at the connection's door
 * (outbound/door.ts): "typing...", claim the row (pending -> sending, or -> confirmation_sending) and count it
 * in one transaction, send, the file list, and record delivered / confirmation_requested, or failed with why.
 *
 * - File list: right after a contact's main message (never after the confirmation message), each option of the
 *   list that has a file, the option's name as its caption, in the list's order, inside the same claim (a short
 *   gap between them). The row is settled only after the last of them: delivered (the main message went), with
 *   `error` naming any file that did not go.
 * - Restriction: a send WhatsApp refuses as restricted (463) is not sent: its row goes back to pending and every
 *   running campaign of the connection pauses until an admin resumes it. A restriction another sender of the
 *   number met (the door's state) pauses them the same way before anything is claimed.
 */

import type { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import type { CampaignWaitingReason } from '../../../shared/api'
import type { ContactRef, OutboundContent } from '../../channels/types'
import type { TimerHandle } from '../../clock'
import { type Deps, transact } from '../../context'
import { stmt } from '../../db/statements'
import { mediaFilePath } from '../../media/store'
import type { EventBuffer } from '../../realtime/hub'
import { countSends, dayOf, sentOn } from '../outbound/counters'
import { type ConnectionDoor, doorOf, type Hand, isRestriction, type Turn } from '../outbound/door'
import { companyTimeZone } from '../settings/service'
import {
  dailyCapOf,
  intervalAfter,
  msUntilNextDay,
  msUntilWindow,
  readPacing,
  readProtection,
  typingMsOf,
} from './pacing'

export type SenderOptions = {
  /** How often a waiting sender looks again (disconnected connection). */
  pollMs: number
  /** The longest the runner or a sender sleeps. */
  maxSleepMs: number
  /** Numbers checked on WhatsApp per call. */
  checkBatch: number
  /** 0 <= x < 1; tests pass a fixed one. */
  random: () => number
}

/** What a sender asks of the campaigns' runner (runner.ts), which owns the campaigns' states. */
export type SenderHost = {
  readonly deps: Deps
  readonly options: SenderOptions
  setWaiting(whatsappId: number, reason: CampaignWaitingReason | null): void
  finishDone(): void
  pauseRestricted(whatsappId: number, detail: string): void
  publish(companyId: number, campaignId: number, events: EventBuffer): void
}

/** The pause between a contact's main message and each file of the campaign's file list. */
export const FILE_GAP_MS = 1_000

export const MAX_ERROR = 500

type Shipping = {
  id: number
  campaignId: number
  companyId: number
  number: string
  jid: string | null
  state: string
  message: string
  confirmationMessage: string
  checkedAt: number | null
}

/** What a sender's turn did: sent (and the wait drawn for the next), or nothing (the loop looks again). */
type Sent = { gap: number } | null

/**
 * The paced sender of one connection: one loop at a time, sleeping on the clock between messages. Its state
 * in memory is only "how long after the number's last send the next message may go"; at start it is read back
 * from the number's last send (the door's) or the last claim.
 */
export class ConnectionSender {
  private loop: Promise<void> | null = null
  private timer: TimerHandle | null = null
  private wakeUp: (() => void) | null = null
  private stopped = false
  /** When the next message may go, counted from this sender's own last send (or the last claim, at start). */
  private nextAt: number | null = null
  /** The wait drawn after the last send: the next message keeps it after the number's last send, whoever's. */
  private gap = 0
  private readonly door: ConnectionDoor

  constructor(
    private readonly runner: SenderHost,
    readonly whatsappId: number,
  ) {
    this.door = doorOf(runner.deps, whatsappId)
  }

  private get deps() {
    return this.runner.deps
  }

  kick() {
    if (this.stopped) return
    if (this.loop) {
      this.interrupt()
      return
    }
    this.loop = this.work()
      .catch((err: Error) =>
        this.deps.log.error('campaign sender failed', { whatsappId: this.whatsappId, error: err.message }),
      )
      .finally(() => {
        this.loop = null
      })
  }

  stop() {
    this.stopped = true
    this.interrupt()
  }

  /** Ends a sleep early (something changed): the loop looks again. */
  interrupt() {
    if (this.timer != null) this.deps.clock.clearTimeout(this.timer)
    this.timer = null
    const wake = this.wakeUp
    this.wakeUp = null
    wake?.()
  }

  async settled() {
    await this.loop
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => {
      this.wakeUp = resolve
      this.timer = this.deps.clock.setTimeout(
        () => {
          this.timer = null
          this.wakeUp = null
          resolve()
        },
        Math.max(0, ms),
      )
    })
  }

  private async work() {
    const sqlite = this.deps.sqlite
    const clock = this.deps.clock
    while (!this.stopped) {
      const next = nextShipping(sqlite, this.whatsappId)
      if (!next) {
        this.runner.setWaiting(this.whatsappId, null)
        this.runner.finishDone()
        return
      }
      if (this.door.restriction) {
        // Another sender of the number met WhatsApp's restriction: the campaigns pause as if it had been theirs.
        this.runner.pauseRestricted(this.whatsappId, `ERR_WAPP_RESTRICTED: ${this.door.restriction.detail}`)
        continue
      }
      if (!this.door.connected) {
        this.runner.setWaiting(this.whatsappId, 'disconnected')
        await this.sleep(this.runner.options.pollMs)
        continue
      }
      const now = clock.now()
      const timeZone = companyTimeZone(sqlite, next.companyId)
      const protection = readProtection(this.deps, next.companyId)
      const windowWait = msUntilWindow(now, protection.window, timeZone)
      if (windowWait > 0) {
        this.runner.setWaiting(this.whatsappId, 'window')
        await this.sleep(Math.min(windowWait, this.runner.options.maxSleepMs))
        continue
      }
      const day = dayOf(now, timeZone)
      const sentToday = sentOn(sqlite, this.whatsappId, day)
      if (sentToday >= dailyCapOf(sqlite, this.whatsappId, day, protection)) {
        this.runner.setWaiting(this.whatsappId, 'daily_cap')
        await this.sleep(Math.min(msUntilNextDay(now, timeZone), this.runner.options.maxSleepMs))
        continue
      }
      if (next.checkedAt == null) {
        await this.check(next.campaignId)
        continue
      }
      const confirmationFirst = next.state === 'pending' && isConfirmation(sqlite, next.campaignId)
      const text = confirmationFirst ? next.confirmationMessage : next.message
      const typing = this.door.showsTyping ? typingMsOf(text) : 0
      if (this.nextAt == null) this.nextAt = this.resumeAt(next.companyId)
      const wait = this.readyAt() - typing - now
      if (wait > 0) {
        this.runner.setWaiting(this.whatsappId, null)
        await this.sleep(Math.min(wait, this.runner.options.maxSleepMs))
        continue
      }
      this.runner.setWaiting(this.whatsappId, null)
      const sent = await this.door.turn('outreach', (turn) =>
        this.deliver(turn, next, confirmationFirst, text, day, sentToday),
      )
      if (sent) {
        this.gap = sent.gap
        this.nextAt = clock.now() + sent.gap
      }
    }
  }

  /** When the next message may go: its wait after this sender's last send and after the number's last send. */
  private readyAt() {
    const last = this.door.lastSentAt
    return Math.max(this.nextAt ?? 0, last == null ? 0 : last + this.gap)
  }

  /**
   * One contact's turn at the door: "typing...", the claim, the message and its files, the outcome. Looks again
   * (returns null) when the line was not free at its time: the connection went away, or another sender's
   * message went meanwhile and the pace now asks for more.
   */
  private async deliver(
    turn: Turn,
    next: Shipping,
    confirmationFirst: boolean,
    text: string,
    day: string,
    sentToday: number,
  ): Promise<Sent> {
    const typing = turn.showsTyping ? typingMsOf(text) : 0
    if (!turn.connected || this.stopped || this.door.restriction) return null
    if (this.readyAt() - typing > this.deps.clock.now()) return null
    const to: ContactRef = { jid: next.jid ?? `${next.number}@s.whatsapp.net`, pn: next.number }
    if (typing) {
      try {
        await turn.presence(to, 'composing')
        await this.sleep(typing)
        await turn.presence(to, 'paused')
      } catch {}
    }
    // Claimed only now, after "typing...", right before it is handed over: a stop or a kill while typing
    // leaves the row pending, and a cancel while typing sends nothing.
    const hand = this.stopped ? null : turn.claim(() => this.claim(next, confirmationFirst, day))
    if (!hand) return null
    let failure: unknown = null
    let wid: string | null = null
    try {
      const content = confirmationFirst ? textContent(text) : this.content(next)
      wid = (await hand.send(to, content)).id
    } catch (err) {
      failure = err
    }
    // The file list goes with the main message, under the same claim: a kill while it goes leaves the row
    // *_sending, failed at boot and never resent, so no contact gets the message or a file twice.
    const files = failure == null && !confirmationFirst ? await this.sendFiles(hand, to, next) : null
    this.settle(next, confirmationFirst, day, wid, failure, files?.problem ?? null)
    if (files?.restriction != null) this.runner.pauseRestricted(this.whatsappId, errorText(files.restriction))
    const pacing = readPacing(this.deps, next.companyId)
    return { gap: intervalAfter(sentToday + 1, pacing, this.runner.options.random) }
  }

  /**
   * After a restart: once the connection's campaigns have sent, the pacing counts from the number's last send
   * (the door keeps it, whichever sender it was), or from their last claimed send.
   */
  private resumeAt(companyId: number) {
    const claimed = stmt<{ at: number | null }, [number]>(
      this.deps.sqlite,
      `SELECT MAX(s.claimed_at) AS at FROM campaign_shippings s JOIN campaigns c ON c.id = s.campaign_id
        WHERE c.whatsapp_id = ?`,
    ).get(this.whatsappId)?.at
    if (claimed == null) return 0
    const last = Math.max(claimed, this.door.lastSentAt ?? 0)
    const pacing = readPacing(this.deps, companyId)
    return last + intervalAfter(1, pacing, this.runner.options.random)
  }

  /** Checks the campaign's next unchecked numbers on WhatsApp: invalid ones are never sent to. */
  private async check(campaignId: number) {
    const sqlite = this.deps.sqlite
    const rows = sqlite
      .query<{ id: number; number: string }, [number, number]>(
        `SELECT id, number FROM campaign_shippings
          WHERE campaign_id = ? AND state IN ('pending', 'confirmed') AND checked_at IS NULL ORDER BY id LIMIT ?`,
      )
      .all(campaignId, this.runner.options.checkBatch)
    let answers: { phone: string; exists: boolean; jid?: string }[]
    try {
      answers = await this.door.turn('outreach', (turn) => turn.check(rows.map((r) => r.number)))
    } catch (err) {
      this.deps.log.warn('campaign number check failed', { campaignId, error: (err as Error).message })
      await this.sleep(this.runner.options.pollMs)
      return
    }
    const byPhone = new Map(answers.map((a) => [a.phone, a]))
    transact(this.deps, (sqlite, events) => {
      const now = this.deps.clock.now()
      let companyId = 0
      for (const r of rows) {
        const a = byPhone.get(r.number)
        if (!a) continue
        companyId = stmt<{ c: number }, [number]>(
          sqlite,
          'SELECT company_id AS c FROM campaign_shippings WHERE id = ?',
        ).get(r.id)!.c
        if (a.exists)
          sqlite
            .query('UPDATE campaign_shippings SET checked_at = ?, jid = ?, updated_at = ? WHERE id = ?')
            .run(now, a.jid ?? `${r.number}@s.whatsapp.net`, now, r.id)
        else
          sqlite
            .query(
              `UPDATE campaign_shippings SET checked_at = ?, state = 'invalid', updated_at = ?,
                      error = 'ERR_WAPP_INVALID_CONTACT: the number is not on WhatsApp'
                WHERE id = ? AND state IN ('pending', 'confirmed')`,
            )
            .run(now, now, r.id)
      }
      if (companyId) this.runner.publish(companyId, campaignId, events)
    })
  }

  /** pending/confirmed -> *_sending, counted for the day, only while the campaign runs unpaused. */
  private claim(row: Shipping, confirmationFirst: boolean, day: string) {
    return transact(this.deps, (sqlite) => {
      const now = this.deps.clock.now()
      const changed = sqlite
        .query(
          `UPDATE campaign_shippings SET state = ?, claimed_at = ?, updated_at = ?
            WHERE id = ? AND state = ? AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = campaign_id
              AND c.status = 'EM_ANDAMENTO' AND c.paused_reason IS NULL AND c.whatsapp_id = ?)`,
        )
        .run(
          confirmationFirst ? 'confirmation_sending' : 'sending',
          now,
          now,
          row.id,
          row.state,
          this.whatsappId,
        ).changes
      if (changed !== 1) return false
      countSends(sqlite, this.whatsappId, day, 1)
      return true
    })
  }

  /**
   * The campaign's file list after the main message: each option with a file, its name as the caption. A file
   * that cannot go (missing, refused) is named in `problem`; a restriction stops the rest (and pauses, by the
   * caller); so does a stop. Nothing here is retried: the main message already went.
   */
  private async sendFiles(
    hand: Hand,
    to: ContactRef,
    row: Shipping,
  ): Promise<{ problem: string | null; restriction: unknown }> {
    const problems: string[] = []
    let restriction: unknown = null
    for (const option of fileOptionsOf(this.deps.sqlite, row.campaignId)) {
      const label = option.name || option.mediaName || 'file'
      const path = option.path ? mediaFilePath(this.deps, row.companyId, option.path) : null
      if (!path || !existsSync(path)) {
        problems.push(`${label}: the file is missing`)
        continue
      }
      if (restriction == null && !this.stopped) await this.sleep(FILE_GAP_MS)
      // Looked at after the gap too: a stop (or a kill) while waiting sends nothing more.
      if (this.stopped || restriction != null) {
        problems.push(`${label}: not sent (${restriction != null ? 'restricted' : 'stopped'})`)
        continue
      }
      try {
        await hand.send(to, mediaContent(path, option.mediaType, option.mediaName, option.name))
      } catch (err) {
        if (isRestriction(err)) restriction = err
        problems.push(`${label}: ${errorText(err)}`)
      }
    }
    const problem = problems.length ? `ERR_CAMPAIGN_FILES: ${problems.join('; ')}`.slice(0, MAX_ERROR) : null
    return { problem, restriction }
  }

  /** Records what the send did (`fileProblem`: files of the file list that did not go, with a delivery). */
  private settle(
    row: Shipping,
    confirmationFirst: boolean,
    day: string,
    wid: string | null,
    failure: unknown,
    fileProblem: string | null = null,
  ) {
    const claimed = confirmationFirst ? 'confirmation_sending' : 'sending'
    const restricted = failure != null && isRestriction(failure)
    const notSent =
      failure != null && (restricted || (failure as { code?: string }).code === 'ERR_WAPP_NOT_INITIALIZED')
    transact(this.deps, (sqlite, events) => {
      const now = this.deps.clock.now()
      if (failure == null) {
        if (confirmationFirst)
          sqlite
            .query(
              `UPDATE campaign_shippings SET state = 'confirmation_requested', confirmation_requested_at = ?,
                      wid = ?, updated_at = ? WHERE id = ? AND state = ?`,
            )
            .run(now, wid, now, row.id, claimed)
        else
          sqlite
            .query(
              `UPDATE campaign_shippings SET state = 'delivered', delivered_at = ?, wid = ?, error = ?,
                      updated_at = ? WHERE id = ? AND state = ?`,
            )
            .run(now, wid, fileProblem, now, row.id, claimed)
      } else if (notSent) {
        // Nothing left: the row goes back in line (and the day's count back down).
        sqlite
          .query('UPDATE campaign_shippings SET state = ?, updated_at = ? WHERE id = ? AND state = ?')
          .run(row.state, now, row.id, claimed)
        countSends(sqlite, this.whatsappId, day, -1)
      } else {
        sqlite
          .query(
            `UPDATE campaign_shippings SET state = 'failed', error = ?, updated_at = ? WHERE id = ? AND state = ?`,
          )
          .run(errorText(failure), now, row.id, claimed)
      }
      this.runner.publish(row.companyId, row.campaignId, events)
    })
    if (restricted) this.runner.pauseRestricted(this.whatsappId, errorText(failure))
  }

  private content(row: Shipping): OutboundContent {
    const media = stmt<{ path: string | null; name: string | null; mime: string | null }, [number]>(
      this.deps.sqlite,
      'SELECT media_path AS path, media_name AS name, media_mime AS mime FROM campaigns WHERE id = ?',
    ).get(row.campaignId)
    const path = media?.path ? mediaFilePath(this.deps, row.companyId, media.path) : null
    if (!media?.path || !path) return textContent(row.message)
    return mediaContent(path, media.mime, media.name, row.message)
  }
}

function textContent(body: string): OutboundContent {
  return { kind: 'text', body }
}

/** A stored file as WhatsApp media of its type; the caption where the type has one (not audio). */
function mediaContent(
  path: string,
  mime: string | null,
  name: string | null,
  caption: string,
): OutboundContent {
  const mimetype = mime || 'application/octet-stream'
  const kind = mimetype.startsWith('image/')
    ? 'image'
    : mimetype.startsWith('video/')
      ? 'video'
      : mimetype.startsWith('audio/')
        ? 'audio'
        : 'document'
  const content: OutboundContent = { kind, path, mimetype }
  if (name) content.fileName = name
  if (caption && kind !== 'audio') content.caption = caption
  return content
}

/** The options with a file of the campaign's file list (of the campaign's company), in the list's order. */
function fileOptionsOf(sqlite: Database, campaignId: number) {
  return stmt<
    { name: string; path: string | null; mediaType: string | null; mediaName: string | null },
    [number]
  >(
    sqlite,
    `SELECT o.name, o.path, o.media_type AS mediaType, o.media_name AS mediaName
       FROM campaigns c JOIN files f ON f.id = c.file_list_id AND f.company_id = c.company_id
       JOIN file_options o ON o.file_id = f.id
      WHERE c.id = ? AND o.path IS NOT NULL ORDER BY o.id`,
  ).all(campaignId)
}

/* ---------- helpers (pure or read-only) ---------- */

/** The connection's next row: confirmed ones (released by a reply) first, then pending, oldest campaign first. */
function nextShipping(sqlite: Database, whatsappId: number): Shipping | null {
  return stmt<Shipping, [number]>(
    sqlite,
    `SELECT s.id, s.campaign_id AS campaignId, s.company_id AS companyId, s.number, s.jid, s.state, s.message,
            s.confirmation_message AS confirmationMessage, s.checked_at AS checkedAt
       FROM campaigns c JOIN campaign_shippings s ON s.campaign_id = c.id AND s.state IN ('confirmed', 'pending')
      WHERE c.whatsapp_id = ? AND c.status = 'EM_ANDAMENTO' AND c.paused_reason IS NULL
      ORDER BY s.state = 'pending', c.id, s.id LIMIT 1`,
  ).get(whatsappId)
}

function isConfirmation(sqlite: Database, campaignId: number) {
  return !!stmt<{ c: number }, [number]>(sqlite, 'SELECT confirmation AS c FROM campaigns WHERE id = ?').get(
    campaignId,
  )?.c
}

export function errorText(err: unknown) {
  const e = err as { code?: string; message?: string }
  return (e?.code ? `${e.code}: ${e.message ?? ''}` : `ERR_SENDING_WAPP_MSG: ${e?.message ?? err}`).slice(
    0,
    MAX_ERROR,
  )
}
