/**
 * The campaigns runner: the lifecycle of campaigns. It starts scheduled campaigns, makes their shipping rows
 * (audience.ts), runs one paced sender per connection (sender.ts, at the pace of pacing.ts, through the
 * connection's door), confirms, expires and finishes. Everything it needs to go on after a restart is in rows.
 *
 * - Start: a PROGRAMADA campaign whose `scheduledAt` has come becomes EM_ANDAMENTO and gets its shipping rows
 *   (one per contact of its list or tag, unique per number) in the same transaction; `prepared_at` makes this
 *   happen once, so a restart or a cancel-and-restart never makes them again. The message variant (one of the
 *   non-empty ones, chosen at random) and its variables are written on the row then.
 * - Exactly once: a row is claimed before it is handed to WhatsApp. A row found still *_sending at start was
 *   interrupted while WhatsApp had it: it is marked failed (ERR_SEND_INTERRUPTED), never resent blindly. A kill
 *   between sends leaves nothing claimed, so nothing is skipped either.
 * - Restriction: a send WhatsApp refuses as restricted (463, reach-out time lock), the campaign's or another
 *   sender's on the number, pauses every running campaign of the connection (`paused_reason` 'restricted') until
 *   an admin resumes it.
 * - Confirmation campaigns: the confirmation message goes first (confirmation_requested); a reply from the
 *   number on the connection confirms (confirmed) and the main message follows in line; no reply within
 *   `confirmationWaitMs` (24 h) expires the row. A campaign is FINALIZADA (with completedAt) when no row has work
 *   left.
 */

import type { CampaignWaitingReason } from '../../../shared/api'
import type { ContactRef } from '../../channels/types'
import type { TimerHandle } from '../../clock'
import { type Deps, transact } from '../../context'
import { stmt } from '../../db/statements'
import type { EventBuffer } from '../../realtime/hub'
import { inboundOf } from '../inbound'
import { brazilianForms, prepareShippings } from './audience'
import { ConnectionSender, MAX_ERROR, type SenderOptions } from './sender'
import { CAMPAIGN_COLUMNS, type CampaignDbRow, OPEN_STATES, publishCampaign } from './service'

export type CampaignRunnerOptions = SenderOptions & {
  /** How long a contact may take to answer a confirmation message. */
  confirmationWaitMs: number
}

const DEFAULTS: CampaignRunnerOptions = {
  pollMs: 5_000,
  maxSleepMs: 60_000,
  confirmationWaitMs: 24 * 60 * 60 * 1000,
  checkBatch: 50,
  random: Math.random,
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

  /**
   * Stops the timer and every sender, and resolves once the pass under way and each sender's turn under way
   * (a send WhatsApp already has, with its files) are over: their rows end settled, and nothing more is claimed.
   */
  async stop(): Promise<void> {
    this.started = false
    this.unsubscribe?.()
    this.unsubscribe = undefined
    if (this.timer != null) this.deps.clock.clearTimeout(this.timer)
    this.timer = null
    const senders = [...this.senders.values()]
    this.senders.clear()
    for (const sender of senders) sender.stop()
    await this.running
    await Promise.all(senders.map((sender) => sender.settled()))
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
          // A stop that came before this pass began: nothing more is started (or claimed).
          if (!this.started) break
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
    transact(this.deps, (sqlite, events) => {
      const row = sqlite
        .query<CampaignDbRow, [number]>(`SELECT ${CAMPAIGN_COLUMNS} FROM campaigns c WHERE c.id = ?`)
        .get(id)
      if (!row) return
      const now = this.deps.clock.now()
      if (row.status === 'PROGRAMADA' && (row.scheduledAt ?? 0) <= now)
        sqlite.query(`UPDATE campaigns SET status = 'EM_ANDAMENTO', updated_at = ? WHERE id = ?`).run(now, id)
      else if (row.status !== 'EM_ANDAMENTO') return
      if (row.preparedAt == null)
        prepareShippings({ sqlite, log: this.deps.log }, row, now, this.options.random)
      publishCampaign(this.deps, events, row.companyId, id, 'update')
    })
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
    transact(this.deps, (sqlite, events) => {
      for (const t of touched) {
        sqlite
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
    transact(this.deps, (sqlite, events) => {
      const now = this.deps.clock.now()
      for (const c of done) {
        const changed = sqlite
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
    transact(this.deps, (sqlite, events) => {
      const now = this.deps.clock.now()
      for (const r of rows) {
        const changed = sqlite
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
    transact(this.deps, (sqlite, events) => {
      for (const c of changed) {
        sqlite.query('UPDATE campaigns SET waiting_reason = ? WHERE id = ?').run(reason, c.id)
        publishCampaign(this.deps, events, c.companyId, c.id, 'update')
      }
    })
  }

  /** WhatsApp refused as restricted: every running campaign of the connection pauses until an admin resumes. */
  pauseRestricted(whatsappId: number, detail: string) {
    transact(this.deps, (sqlite, events) => {
      const rows = sqlite
        .query<{ id: number; companyId: number }, [number]>(
          `SELECT id, company_id AS companyId FROM campaigns
            WHERE whatsapp_id = ? AND status = 'EM_ANDAMENTO' AND paused_reason IS NULL`,
        )
        .all(whatsappId)
      const now = this.deps.clock.now()
      for (const c of rows) {
        sqlite
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
