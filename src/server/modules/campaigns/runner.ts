/**
 * The campaigns runner: starts scheduled campaigns, makes their shipping rows, and sends them through one paced
 * sender per connection, exactly once. Everything it needs to go on after a restart is in rows.
 *
 * - Start: a PROGRAMADA campaign whose `scheduledAt` has come becomes EM_ANDAMENTO and gets its shipping rows
 *   (one per contact of its list or tag, unique per number) in the same transaction; `prepared_at` makes this
 *   happen once, so a restart or a cancel-and-restart never makes them again. The message variant (one of the
 *   non-empty ones, chosen at random) and its variables are written on the row then.
 * - Send (per connection, shared by all its campaigns, oldest campaign first): wait for the connection to be
 *   connected, for the sending window and under the daily cap; check the numbers on WhatsApp (a batch at a
 *   time: invalid ones are marked and never sent to); wait the pacing interval (the "typing..." shown before
 *   a message is part of it); claim the row (pending -> sending, or -> confirmation_sending) and count it in one
 *   transaction; send; record delivered / confirmation_requested, or failed with why.
 * - File list: a campaign with a `fileListId` sends, right after a contact's main message (never after the
 *   confirmation message), each option of the list that has a file, the option's name as its caption, in the
 *   list's order, inside the same claim (a short gap between them). The row is settled only after the last of
 *   them: delivered (the main message went), with `error` naming any file that did not go.
 * - Exactly once: a row is claimed before it is handed to WhatsApp. A row found still *_sending at start was
 *   interrupted while WhatsApp had it: it is marked failed (ERR_SEND_INTERRUPTED), never resent blindly. A kill
 *   between sends leaves nothing claimed, so nothing is skipped either.
 * - Restriction: a send WhatsApp refuses as restricted (463, reach-out time lock) is not sent: its row goes back
 *   to pending and every running campaign of the connection pauses (`paused_reason` 'restricted') until an
 *   admin resumes it.
 * - Confirmation campaigns: the confirmation message goes first (confirmation_requested); a reply from the
 *   number on the connection confirms (confirmed) and the main message follows in line; no reply within
 *   `confirmationWaitMs` (24 h) expires the row. A campaign is FINALIZADA (with completedAt) when no row has work
 *   left.
 */
import type { Database } from 'bun:sqlite'
import { existsSync } from 'node:fs'
import type { CampaignWaitingReason } from '../../../shared/api'
import {
  campaignSettingsOf,
  minutesOf,
  WARMUP_FIRST_DAY,
  WARMUP_MAX,
  WARMUP_STEP,
} from '../../../shared/campaign-settings'
import { instantOf, wallTimeOf } from '../../../shared/timezone'
import type { ChannelSession, ContactRef, OutboundContent } from '../../channels/types'
import type { TimerHandle } from '../../clock'
import { type Deps, transact } from '../../context'
import { stmt } from '../../db/statements'
import { mediaFilePath } from '../../media/store'
import type { EventBuffer } from '../../realtime/hub'
import { inboundOf } from '../inbound'
import { companyTimeZone } from '../settings/service'
import { CAMPAIGN_COLUMNS, type CampaignDbRow, OPEN_STATES, publishCampaign } from './service'

export type CampaignRunnerOptions = {
  /** How often a waiting sender looks again (disconnected connection). */
  pollMs: number
  /** The longest the runner or a sender sleeps. */
  maxSleepMs: number
  /** How long a contact may take to answer a confirmation message. */
  confirmationWaitMs: number
  /** Numbers checked on WhatsApp per call. */
  checkBatch: number
  /** 0 <= x < 1; tests pass a fixed one. */
  random: () => number
}

const DEFAULTS: CampaignRunnerOptions = {
  pollMs: 5_000,
  maxSleepMs: 60_000,
  confirmationWaitMs: 24 * 60 * 60 * 1000,
  checkBatch: 50,
  random: Math.random,
}

/** The daily cap of a number's first days (no `dailyLimit` setting): 50 on day 1, +50 a day, up to 500. */
export { WARMUP_FIRST_DAY, WARMUP_MAX }

/** The pause between a contact's main message and each file of the campaign's file list. */
export const FILE_GAP_MS = 1_000

/** "typing..." lasts 50 ms per character of the message, between 1 and 5 seconds. */
export function typingMsOf(text: string) {
  return Math.min(5_000, Math.max(1_000, text.length * 50))
}

const MAX_ERROR = 500

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

type Pacing = { messageInterval: number; longerIntervalAfter: number; greaterInterval: number }

type Protection = {
  /** The explicit daily cap, or null for the warm-up. */
  dailyLimit: number | null
  /** Minutes of the day [start, end) when sending is allowed, or null (any hour). */
  window: { start: number; end: number } | null
}

export class CampaignRunner {
  private timer: TimerHandle | null = null
  private running: Promise<void> | null = null
  private again = false
  private started = false
  private readonly senders = new Map<number, ConnectionSender>()
  private unsubscribe: (() => void) | undefined
  readonly options: CampaignRunnerOptions

  constructor(
    readonly deps: Deps,
    options: Partial<CampaignRunnerOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options }
  }

  /** Boot: interrupted sends become failed, then what fell due while down starts. */
  start(): Promise<void> {
    if (this.started) return this.run()
    this.started = true
    const now = this.deps.clock.now()
    this.deps.sqlite
      .query(
        `UPDATE campaign_shippings SET state = 'failed', updated_at = ?,
                error = 'ERR_SEND_INTERRUPTED: the server stopped while WhatsApp had this message; it may not have been delivered, so it is not sent again'
          WHERE state IN ('sending', 'confirmation_sending')`,
      )
      .run(now)
    this.unsubscribe = inboundOf(this.deps)?.onStored((conn, event) => {
      if (event.ref.fromMe || event.isGroup) return
      try {
        this.confirm(conn.id, event.chat)
      } catch (err) {
        this.deps.log.error('campaign confirmation failed', { error: (err as Error).message })
      }
    })
    return this.run()
  }

  stop() {
    this.started = false
    this.unsubscribe?.()
    this.unsubscribe = undefined
    if (this.timer != null) this.deps.clock.clearTimeout(this.timer)
    this.timer = null
    for (const sender of this.senders.values()) sender.stop()
    this.senders.clear()
  }

  /** Something changed (a campaign saved, cancelled, restarted, resumed; a reply): look again now. */
  wake() {
    if (!this.started) return
    for (const sender of this.senders.values()) sender.interrupt()
    void this.run()
  }

  /** Resolves when every sender is idle or asleep (tests). */
  async idle() {
    await this.running
    for (const sender of [...this.senders.values()]) await sender.settled()
  }

  run(): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      // Yield first: `running` must be set before the pass ends, or a finished pass would look in progress.
      await null
      try {
        do {
          this.again = false
          this.pass()
        } while (this.again)
      } catch (err) {
        this.deps.log.error('campaign runner pass failed', { error: (err as Error).message })
      } finally {
        this.running = null
        this.plan()
      }
    })()
    return this.running
  }

  private pass() {
    const now = this.deps.clock.now()
    // Due scheduled campaigns start; running ones never prepared (restarted drafts) get their rows.
    const due = stmt<{ id: number }, [number]>(
      this.deps.sqlite,
      `SELECT id FROM campaigns WHERE (status = 'PROGRAMADA' AND scheduled_at <= ?)
          OR (status = 'EM_ANDAMENTO' AND prepared_at IS NULL) ORDER BY id`,
    ).all(now)
    for (const { id } of due) this.begin(id)
    this.expireConfirmations(now)
    this.finishDone()
    const connections = stmt<{ whatsappId: number }, []>(
      this.deps.sqlite,
      `SELECT DISTINCT whatsapp_id AS whatsappId FROM campaigns
        WHERE status = 'EM_ANDAMENTO' AND paused_reason IS NULL AND whatsapp_id IS NOT NULL`,
    ).all()
    for (const { whatsappId } of connections) this.senderOf(whatsappId).kick()
  }

  private senderOf(whatsappId: number) {
    let sender = this.senders.get(whatsappId)
    if (!sender) {
      sender = new ConnectionSender(this, whatsappId)
      this.senders.set(whatsappId, sender)
    }
    return sender
  }

  /** The next wake-up: the next scheduled start or confirmation expiry, at most maxSleepMs away. */
  private plan() {
    if (!this.started) return
    if (this.timer != null) this.deps.clock.clearTimeout(this.timer)
    const now = this.deps.clock.now()
    const next = stmt<{ at: number | null }, []>(
      this.deps.sqlite,
      `SELECT MIN(scheduled_at) AS at FROM campaigns WHERE status = 'PROGRAMADA'`,
    ).get()?.at
    const expiry = stmt<{ at: number | null }, []>(
      this.deps.sqlite,
      `SELECT MIN(s.confirmation_requested_at) AS at FROM campaign_shippings s
         JOIN campaigns c ON c.id = s.campaign_id
        WHERE c.status = 'EM_ANDAMENTO' AND s.state = 'confirmation_requested'`,
    ).get()?.at
    let delay = this.options.maxSleepMs
    if (next != null) delay = Math.min(delay, Math.max(0, next - now))
    if (expiry != null) delay = Math.min(delay, Math.max(0, expiry + this.options.confirmationWaitMs - now))
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null
      void this.run()
    }, delay)
  }

  /** PROGRAMADA -> EM_ANDAMENTO with its shipping rows, once (prepared_at), in one transaction. */
  begin(id: number) {
    transact(this.deps, (_tx, events) => {
      const row = this.deps.sqlite
        .query<CampaignDbRow, [number]>(`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns c WHERE c.id = ?`)
        .get(id)
      if (!row) return
      const now = this.deps.clock.now()
      if (row.status === 'PROGRAMADA' && (row.scheduledAt ?? 0) <= now)
        this.deps.sqlite
          .query(`UPDATE campaigns SET status = 'EM_ANDAMENTO', updated_at = ? WHERE id = ?`)
          .run(now, id)
      else if (row.status !== 'EM_ANDAMENTO') return
      if (row.preparedAt == null) this.prepare(row, now)
      publishCampaign(this.deps, events, row.companyId, id, 'update')
    })
  }

  /** The campaign's audience as shipping rows (inside begin's transaction). */
  private prepare(row: CampaignDbRow, now: number) {
    const sqlite = this.deps.sqlite
    const audience = audienceOf(sqlite, row)
    const settings = readSettings(sqlite, row.companyId)
    const messages = [row.message1, row.message2, row.message3, row.message4, row.message5]
    const confirmations = [
      row.confirmationMessage1,
      row.confirmationMessage2,
      row.confirmationMessage3,
      row.confirmationMessage4,
      row.confirmationMessage5,
    ]
    const variants = messages.map((m, i) => [m, i + 1] as const).filter(([m]) => m.trim())
    const confirmationVariants = confirmations.filter((m) => m.trim())
    const insert = sqlite.query(
      `INSERT OR IGNORE INTO campaign_shippings (campaign_id, company_id, contact_list_item_id, contact_id, number,
         name, email, state, message, confirmation_message, variant, error, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    for (const person of audience) {
      const number = person.number.replace(/\D/g, '')
      if (!number) continue
      const [template, variant] = variants[pick(this.options.random, variants.length)] ?? ['', 1]
      const confirmation = row.confirmation
        ? (confirmationVariants[pick(this.options.random, confirmationVariants.length)] ?? '')
        : ''
      const vars = { nome: person.name, numero: number, email: person.email }
      const known = person.isWhatsappValid === 0
      insert.run(
        row.id,
        row.companyId,
        person.itemId,
        person.contactId,
        number,
        person.name,
        person.email,
        known ? 'invalid' : 'pending',
        fillVariables(template, vars, settings.variables),
        fillVariables(confirmation, vars, settings.variables),
        variant,
        known ? 'ERR_WAPP_INVALID_CONTACT: the number is not on WhatsApp' : null,
        now,
        now,
      )
    }
    sqlite.query('UPDATE campaigns SET prepared_at = ? WHERE id = ?').run(now, row.id)
  }

  /** Confirmation requests nobody answered in time. */
  private expireConfirmations(now: number) {
    const before = now - this.options.confirmationWaitMs
    const touched = stmt<{ campaignId: number; companyId: number }, [number]>(
      this.deps.sqlite,
      `SELECT DISTINCT s.campaign_id AS campaignId, s.company_id AS companyId FROM campaign_shippings s
         JOIN campaigns c ON c.id = s.campaign_id
        WHERE c.status = 'EM_ANDAMENTO' AND s.state = 'confirmation_requested' AND s.confirmation_requested_at <= ?`,
    ).all(before)
    if (!touched.length) return
    transact(this.deps, (_tx, events) => {
      for (const t of touched) {
        this.deps.sqlite
          .query(
            `UPDATE campaign_shippings SET state = 'expired', updated_at = ?,
                    error = 'no answer to the confirmation message in time'
              WHERE campaign_id = ? AND state = 'confirmation_requested' AND confirmation_requested_at <= ?`,
          )
          .run(now, t.campaignId, before)
        publishCampaign(this.deps, events, t.companyId, t.campaignId, 'update')
      }
    })
  }

  /** Running campaigns with no work left become FINALIZADA (completedAt). */
  finishDone() {
    const done = stmt<{ id: number; companyId: number }, []>(
      this.deps.sqlite,
      `SELECT c.id, c.company_id AS companyId FROM campaigns c
        WHERE c.status = 'EM_ANDAMENTO' AND c.prepared_at IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM campaign_shippings s WHERE s.campaign_id = c.id
             AND s.state IN (${OPEN_STATES.map((s) => `'${s}'`).join(', ')}))`,
    ).all()
    if (!done.length) return
    transact(this.deps, (_tx, events) => {
      const now = this.deps.clock.now()
      for (const c of done) {
        const changed = this.deps.sqlite
          .query(
            `UPDATE campaigns SET status = 'FINALIZADA', completed_at = ?, waiting_reason = NULL, updated_at = ?
              WHERE id = ? AND status = 'EM_ANDAMENTO'`,
          )
          .run(now, now, c.id).changes
        if (changed) publishCampaign(this.deps, events, c.companyId, c.id, 'update')
      }
    })
  }

  /** A reply from a number asked for confirmation on this connection: confirmed, and its message goes next. */
  confirm(connectionId: number, chat: ContactRef) {
    const pn = chat.pn ?? (chat.jid.endsWith('@s.whatsapp.net') ? chat.jid.split('@')[0] : undefined)
    if (!pn) return
    const numbers = brazilianForms(pn.replace(/\D/g, ''))
    const jids = numbers.map((n) => `${n}@s.whatsapp.net`)
    const rows = this.deps.sqlite
      .query<{ id: number; campaignId: number; companyId: number }, (string | number)[]>(
        `SELECT s.id, s.campaign_id AS campaignId, s.company_id AS companyId FROM campaign_shippings s
           JOIN campaigns c ON c.id = s.campaign_id
          WHERE c.whatsapp_id = ?1 AND c.status = 'EM_ANDAMENTO' AND s.state = 'confirmation_requested'
            AND (s.number IN (?2, ?3) OR s.jid IN (?4, ?5))`,
      )
      .all(connectionId, numbers[0]!, numbers[1] ?? numbers[0]!, jids[0]!, jids[1] ?? jids[0]!)
    if (!rows.length) return
    transact(this.deps, (_tx, events) => {
      const now = this.deps.clock.now()
      for (const r of rows) {
        const changed = this.deps.sqlite
          .query(
            `UPDATE campaign_shippings SET state = 'confirmed', confirmed_at = ?, updated_at = ?
              WHERE id = ? AND state = 'confirmation_requested'`,
          )
          .run(now, now, r.id).changes
        if (changed) publishCampaign(this.deps, events, r.companyId, r.campaignId, 'update')
      }
    })
    this.senders.get(connectionId)?.kick()
  }

  /** Sets why the connection's running campaigns wait (null: they do not), publishing only changes. */
  setWaiting(whatsappId: number, reason: CampaignWaitingReason | null) {
    const changed = stmt<{ id: number; companyId: number }, [number, string | null]>(
      this.deps.sqlite,
      `SELECT id, company_id AS companyId FROM campaigns
        WHERE whatsapp_id = ?1 AND status = 'EM_ANDAMENTO' AND waiting_reason IS NOT ?2`,
    ).all(whatsappId, reason)
    if (!changed.length) return
    transact(this.deps, (_tx, events) => {
      for (const c of changed) {
        this.deps.sqlite.query('UPDATE campaigns SET waiting_reason = ? WHERE id = ?').run(reason, c.id)
        publishCampaign(this.deps, events, c.companyId, c.id, 'update')
      }
    })
  }

  /** WhatsApp refused as restricted: every running campaign of the connection pauses until an admin resumes. */
  pauseRestricted(whatsappId: number, detail: string) {
    transact(this.deps, (_tx, events) => {
      const rows = this.deps.sqlite
        .query<{ id: number; companyId: number }, [number]>(
          `SELECT id, company_id AS companyId FROM campaigns
            WHERE whatsapp_id = ? AND status = 'EM_ANDAMENTO' AND paused_reason IS NULL`,
        )
        .all(whatsappId)
      const now = this.deps.clock.now()
      for (const c of rows) {
        this.deps.sqlite
          .query(
            `UPDATE campaigns SET paused_reason = 'restricted', paused_detail = ?, waiting_reason = NULL,
                    updated_at = ? WHERE id = ?`,
          )
          .run(detail.slice(0, MAX_ERROR), now, c.id)
        publishCampaign(this.deps, events, c.companyId, c.id, 'update')
      }
    })
  }

  publish(companyId: number, campaignId: number, events: EventBuffer) {
    publishCampaign(this.deps, events, companyId, campaignId, 'update')
  }
}

/**
 * The paced sender of one connection: one loop at a time, sleeping on the clock between messages. Its state
 * in memory is only "when may the next message go"; at start it is read back from the last claim.
 */
class ConnectionSender {
  private loop: Promise<void> | null = null
  private timer: TimerHandle | null = null
  private wakeUp: (() => void) | null = null
  private stopped = false
  private nextAt: number | null = null

  constructor(
    private readonly runner: CampaignRunner,
    readonly whatsappId: number,
  ) {}

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
      const session = this.deps.channels.session(this.whatsappId)
      if (session?.status !== 'CONNECTED') {
        this.runner.setWaiting(this.whatsappId, 'disconnected')
        await this.sleep(this.runner.options.pollMs)
        continue
      }
      const now = clock.now()
      const timeZone = companyTimeZone(sqlite, next.companyId)
      const protection = readProtection(sqlite, next.companyId)
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
        await this.check(session, next.campaignId)
        continue
      }
      const confirmationFirst = next.state === 'pending' && isConfirmation(sqlite, next.campaignId)
      const text = confirmationFirst ? next.confirmationMessage : next.message
      const typing = session.sendPresence ? typingMsOf(text) : 0
      if (this.nextAt == null) this.nextAt = this.resumeAt(next.companyId)
      if (now < this.nextAt - typing) {
        this.runner.setWaiting(this.whatsappId, null)
        await this.sleep(Math.min(this.nextAt - typing - now, this.runner.options.maxSleepMs))
        continue
      }
      this.runner.setWaiting(this.whatsappId, null)
      const to: ContactRef = { jid: next.jid ?? `${next.number}@s.whatsapp.net`, pn: next.number }
      if (typing) {
        try {
          await session.sendPresence!(to, 'composing')
          await this.sleep(typing)
          await session.sendPresence!(to, 'paused')
        } catch {}
      }
      // Claimed only now, after "typing...", right before it is handed over: a stop or a kill while typing
      // leaves the row pending, and a cancel while typing sends nothing.
      if (this.stopped || !this.claim(next, confirmationFirst, day)) continue
      let failure: unknown = null
      let wid: string | null = null
      try {
        const content = confirmationFirst ? textContent(text) : this.content(next)
        wid = (await session.send(to, content)).id
      } catch (err) {
        failure = err
      }
      // The file list goes with the main message, under the same claim: a kill while it goes leaves the row
      // *_sending, failed at boot and never resent, so no contact gets the message or a file twice.
      const files = failure == null && !confirmationFirst ? await this.sendFiles(session, to, next) : null
      const sentAt = clock.now()
      this.settle(next, confirmationFirst, day, wid, failure, files?.problem ?? null)
      if (files?.restriction != null)
        this.runner.pauseRestricted(this.whatsappId, errorText(files.restriction))
      const pacing = readPacing(sqlite, next.companyId)
      this.nextAt = sentAt + intervalAfter(sentToday + 1, pacing, this.runner.options.random)
    }
  }

  /** After a restart: the pacing counts from the connection's last claimed send. */
  private resumeAt(companyId: number) {
    const last = stmt<{ at: number | null }, [number]>(
      this.deps.sqlite,
      `SELECT MAX(s.claimed_at) AS at FROM campaign_shippings s JOIN campaigns c ON c.id = s.campaign_id
        WHERE c.whatsapp_id = ?`,
    ).get(this.whatsappId)?.at
    if (last == null) return 0
    const pacing = readPacing(this.deps.sqlite, companyId)
    return last + intervalAfter(1, pacing, this.runner.options.random)
  }

  /** Checks the campaign's next unchecked numbers on WhatsApp: invalid ones are never sent to. */
  private async check(session: ChannelSession, campaignId: number) {
    const sqlite = this.deps.sqlite
    const rows = sqlite
      .query<{ id: number; number: string }, [number, number]>(
        `SELECT id, number FROM campaign_shippings
          WHERE campaign_id = ? AND state IN ('pending', 'confirmed') AND checked_at IS NULL ORDER BY id LIMIT ?`,
      )
      .all(campaignId, this.runner.options.checkBatch)
    let answers: { phone: string; exists: boolean; jid?: string }[]
    try {
      answers = await session.checkNumbers(rows.map((r) => r.number))
    } catch (err) {
      this.deps.log.warn('campaign number check failed', { campaignId, error: (err as Error).message })
      await this.sleep(this.runner.options.pollMs)
      return
    }
    const byPhone = new Map(answers.map((a) => [a.phone, a]))
    transact(this.deps, (_tx, events) => {
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
    return transact(this.deps, () => {
      const now = this.deps.clock.now()
      const changed = this.deps.sqlite
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
      this.count(day, 1)
      return true
    })
  }

  private count(day: string, n: number) {
    this.deps.sqlite
      .query(
        `INSERT INTO connection_send_counters (whatsapp_id, day, sent) VALUES (?1, ?2, max(?3, 0))
         ON CONFLICT (whatsapp_id, day) DO UPDATE SET sent = max(sent + ?3, 0)`,
      )
      .run(this.whatsappId, day, n)
  }

  /**
   * The campaign's file list after the main message: each option with a file, its name as the caption. A file
   * that cannot go (missing, refused) is named in `problem`; a restriction stops the rest (and pauses, by the
   * caller); so does a stop. Nothing here is retried: the main message already went.
   */
  private async sendFiles(
    session: ChannelSession,
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
        await session.send(to, mediaContent(path, option.mediaType, option.mediaName, option.name))
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
    const sqlite = this.deps.sqlite
    const claimed = confirmationFirst ? 'confirmation_sending' : 'sending'
    const restricted = failure != null && isRestriction(failure)
    const notSent =
      failure != null && (restricted || (failure as { code?: string }).code === 'ERR_WAPP_NOT_INITIALIZED')
    transact(this.deps, (_tx, events) => {
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
        this.count(day, -1)
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

type Person = {
  itemId: number | null
  contactId: number | null
  name: string
  number: string
  email: string
  isWhatsappValid: number | null
}

/** The contact list's items, or the contacts of the tag (not groups). */
function audienceOf(sqlite: Database, row: CampaignDbRow): Person[] {
  if (row.contactListId != null)
    return sqlite
      .query<Person, [number, number]>(
        `SELECT id AS itemId, NULL AS contactId, name, number, email, is_whatsapp_valid AS isWhatsappValid
           FROM contact_list_items WHERE contact_list_id = ? AND company_id = ? ORDER BY id`,
      )
      .all(row.contactListId, row.companyId)
  if (row.tagListId != null)
    return sqlite
      .query<Person, [number, number]>(
        `SELECT NULL AS itemId, c.id AS contactId, c.name, c.number, c.email, NULL AS isWhatsappValid
           FROM contact_tags ct JOIN contacts c ON c.id = ct.contact_id
          WHERE ct.tag_id = ? AND c.company_id = ? AND c.is_group = 0 AND c.number != '' ORDER BY c.id`,
      )
      .all(row.tagListId, row.companyId)
  return []
}

function pick(random: () => number, n: number) {
  if (n <= 1) return 0
  return Math.min(n - 1, Math.floor(random() * n))
}

/** `{nome}`, `{numero}`, `{email}` and the settings' custom variables (`{key}`); unknown braces stay. */
export function fillVariables(
  text: string,
  vars: { nome: string; numero: string; email: string },
  custom: { key: string; value: string }[],
): string {
  const map = new Map<string, string>(Object.entries(vars))
  for (const v of custom) if (!map.has(v.key)) map.set(v.key, v.value)
  return text.replace(/\{([^{}]{1,50})\}/g, (all, key: string) => map.get(key) ?? all)
}

function settingValues(sqlite: Database, companyId: number) {
  try {
    return stmt<{ key: string; value: string }, [number]>(
      sqlite,
      'SELECT key, value FROM campaign_settings WHERE company_id = ?',
    )
      .all(companyId)
      .map((r) => {
        try {
          return { key: r.key, value: JSON.parse(r.value) as unknown }
        } catch {
          return { key: r.key, value: r.value as unknown }
        }
      })
  } catch {
    return []
  }
}

function readSettings(sqlite: Database, companyId: number) {
  return campaignSettingsOf(settingValues(sqlite, companyId))
}

export function readPacing(sqlite: Database, companyId: number): Pacing {
  const s = readSettings(sqlite, companyId)
  const sane = (n: number) => (Number.isFinite(n) && n >= 0 ? Math.min(n, 3_600) : 0)
  return {
    messageInterval: sane(s.messageInterval),
    longerIntervalAfter: Math.floor(sane(s.longerIntervalAfter)),
    greaterInterval: sane(s.greaterInterval),
  }
}

/**
 * The wait after the n-th message of the day (n from 1): greaterInterval seconds after every
 * longerIntervalAfter messages (0: never), otherwise a random wait of up to messageInterval seconds.
 */
export function intervalAfter(n: number, p: Pacing, random: () => number): number {
  if (p.longerIntervalAfter > 0 && n % p.longerIntervalAfter === 0) return p.greaterInterval * 1000
  return Math.round(random() * p.messageInterval * 1000)
}

/**
 * `dailyLimit` (a whole number 1..10000: messages a day per connection; absent or null: the warm-up) and
 * `sendWindow` (`{ "start": "HH:MM", "end": "HH:MM" }` in the company's time zone, an end before the start
 * crossing midnight; absent or null: any hour) from the campaign settings, read as POST /campaign-settings
 * validates them (src/shared/campaign-settings.ts).
 */
export function readProtection(sqlite: Database, companyId: number): Protection {
  const s = readSettings(sqlite, companyId)
  const start = minutesOf(s.sendWindow?.start)
  const end = minutesOf(s.sendWindow?.end)
  return {
    dailyLimit: s.dailyLimit,
    window: start != null && end != null && start !== end ? { start, end } : null,
  }
}

export function dayOf(ms: number, timeZone: string) {
  const w = wallTimeOf(ms, timeZone)
  return `${w.year}-${String(w.month).padStart(2, '0')}-${String(w.day).padStart(2, '0')}`
}

function msUntilNextDay(now: number, timeZone: string) {
  const w = wallTimeOf(now, timeZone)
  const midnight = instantOf({ ...w, hour: 0, minute: 0, second: 0 }, timeZone)
  return Math.max(1_000, midnight + 24 * 60 * 60 * 1000 - now)
}

/** 0 inside the window (or without one); otherwise how long until it opens. */
export function msUntilWindow(now: number, window: Protection['window'], timeZone: string): number {
  if (!window) return 0
  const w = wallTimeOf(now, timeZone)
  const minute = w.hour * 60 + w.minute
  const inside =
    window.start < window.end
      ? minute >= window.start && minute < window.end
      : minute >= window.start || minute < window.end
  if (inside) return 0
  let wait = window.start - minute
  if (wait <= 0) wait += 24 * 60
  return Math.max(1_000, wait * 60_000 - w.second * 1000)
}

function sentOn(sqlite: Database, whatsappId: number, day: string) {
  return (
    stmt<{ sent: number }, [number, string]>(
      sqlite,
      'SELECT sent FROM connection_send_counters WHERE whatsapp_id = ? AND day = ?',
    ).get(whatsappId, day)?.sent ?? 0
  )
}

/** The explicit cap, or the warm-up: 50 on the number's first sending day, 50 more each day it sent, up to 500. */
export function dailyCapOf(sqlite: Database, whatsappId: number, day: string, protection: Protection) {
  if (protection.dailyLimit != null) return protection.dailyLimit
  const before = stmt<{ n: number }, [number, string]>(
    sqlite,
    'SELECT count(*) AS n FROM connection_send_counters WHERE whatsapp_id = ? AND day < ? AND sent > 0',
  ).get(whatsappId, day)!.n
  return Math.min(WARMUP_MAX, WARMUP_FIRST_DAY + WARMUP_STEP * before)
}

/** A send WhatsApp refused because the number is restricted (463, reach-out time lock). */
export function isRestriction(err: unknown): boolean {
  const e = err as {
    code?: unknown
    message?: unknown
    details?: { status?: unknown }
    output?: { statusCode?: unknown }
    data?: unknown
  }
  if (e?.code === 'ERR_WAPP_RESTRICTED' || e?.details?.status === 463 || e?.output?.statusCode === 463)
    return true
  return typeof e?.message === 'string' && /\b463\b|reach[- ]?out|time[- ]?lock/i.test(e.message)
}

function errorText(err: unknown) {
  const e = err as { code?: string; message?: string }
  return (e?.code ? `${e.code}: ${e.message ?? ''}` : `ERR_SENDING_WAPP_MSG: ${e?.message ?? err}`).slice(
    0,
    MAX_ERROR,
  )
}

/** A Brazilian mobile with and without its ninth digit (55 + DDD + 9 + 8 digits), else the number alone. */
function brazilianForms(n: string): string[] {
  if (/^55\d{2}9\d{8}$/.test(n)) return [n, n.slice(0, 4) + n.slice(5)]
  if (/^55\d{2}\d{8}$/.test(n)) return [n, `${n.slice(0, 4)}9${n.slice(4)}`]
  return [n]
}

/** The server's one runner (per jobs registry): the jobs' catalogue starts it, services wake it (`ctx.jobs`). */
export function campaignRunner(deps: Deps, options?: Partial<CampaignRunnerOptions>): CampaignRunner {
  return deps.jobs.use('campaigns', () => {
    const { actor: _actor, ...plain } = deps as Deps & { actor?: unknown }
    return new CampaignRunner(plain as Deps, { random: deps.jobs.deps.random, ...options })
  })
}

/** Replaces the runner of these deps (tests rebuild it over the same database, as a restart would). */
export function resetCampaignRunner(deps: Deps, options?: Partial<CampaignRunnerOptions>): CampaignRunner {
  void deps.jobs.peek<CampaignRunner>('campaigns')?.stop()
  deps.jobs.drop('campaigns')
  return campaignRunner(deps, options)
}
