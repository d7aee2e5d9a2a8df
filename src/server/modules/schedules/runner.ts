/**
 * The ScheduleRunner sends every due scheduled message exactly once, through the outbound path.
 *
 * - Claim: in ONE transaction a due row moves PENDENTE -> ENVIANDO (a conditional UPDATE: whoever wins sends,
 *   everyone else stops), its ticket is found or opened, its outbound message is written (`queued`, see
 *   messages/outbound.ts) and its id kept on the schedule (`message_id`), and a repeating schedule's next
 *   occurrence is written. A claim either happened with its message or not at all.
 * - Send: the message goes to the `OutboundSender`, which hands one row to WhatsApp at most once.
 * - Settle: the schedule follows its message: `sent` -> ENVIADA with sent_at; `failed` -> ERRO with the
 *   message's reason (a person may retry: the same message goes back in line).
 *
 * Restarts: nothing lives only in memory. At start the runner settles ENVIANDO rows from their messages and then
 * claims what fell due while the server was down, in send_at order. A crash after the claim leaves the message
 * `queued` (never handed over): the outbound sender's boot sends it, once. A crash while WhatsApp had it leaves it
 * `sending`: the sender's boot marks it failed (ERR_SEND_INTERRUPTED), so the schedule becomes ERRO and is never
 * resent blindly. Timers come from deps.clock.
 *
 * Tickets: with openTicket enabled the message goes into the contact's open-or-pending ticket on the
 * connection (left as it is), or a new one with the schedule's user, queue and statusTicket (closed: created
 * closed, so it only records the message). With openTicket disabled the message goes into the active ticket if
 * there is one, else a new closed ticket records it. The active ticket must be one the schedule's author may
 * open, as when it was saved (the new-ticket rule, tickets/held.ts): one that has become another queue's or
 * another attendant's since makes the schedule ERRO with ERR_OTHER_OPEN_TICKET and writes nothing (a person may
 * retry it). A schedule whose author was deleted is sent as before.
 */

import type { Database } from 'bun:sqlite'
import { copyFileSync, unlinkSync } from 'node:fs'
import { AppError } from '../../../shared/errors'
import { planAllows } from '../../../shared/plans'
import { assertCompanyOpen } from '../../access/company-access'
import type { TimerHandle } from '../../clock'
import { type Ctx, type Deps, transact } from '../../context'
import { stmt } from '../../db/statements'
import type { Job } from '../../jobs/registry'
import { mediaFilePath, storeMedia } from '../../media/store'
import { formatOfMime, mediaTypeOf } from '../../media/types'
import type { EventBuffer } from '../../realtime/hub'
import { outboundSender, type StoredMedia, writeOutboundMessages } from '../messages/outbound'
import { userScope } from '../tickets/access'
import { recordTicketEvent } from '../tickets/events'
import { assertMayWriteToContact } from '../tickets/held'
import { activeTicketRow, insertTicket } from '../tickets/rows'
import { scheduleConnection } from './connection'
import { nextOccurrenceOf, publishSchedule, SCHEDULE_COLUMNS, type ScheduleRow } from './rows'
import { settleSchedules } from './settle'

export type ScheduleRunnerOptions = {
  /** How often schedules whose message is still on its way are looked at again. */
  pollMs: number
  /** The longest the runner sleeps (rows written by another process are seen within it). */
  maxSleepMs: number
}

const DEFAULTS: ScheduleRunnerOptions = { pollMs: 5_000, maxSleepMs: 60_000 }

const MAX_REASON = 500

type Claimed = { scheduleId: number; companyId: number; messageId: number } | null

export class ScheduleRunner implements Job {
  private timer: TimerHandle | null = null
  private running: Promise<void> | null = null
  private again = false
  private started = false
  private readonly options: ScheduleRunnerOptions

  constructor(
    private readonly deps: Deps,
    options: Partial<ScheduleRunnerOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options }
  }

  /** Boot: settles what was being sent, sends what fell due while down (in order), then keeps watching. */
  start(): Promise<void> {
    this.started = true
    return this.run()
  }

  /** Stops the timer (shutdown, tests) and resolves after the pass under way; rows keep their state. */
  stop(): Promise<void> {
    this.started = false
    if (this.timer != null) this.deps.clock.clearTimeout(this.timer)
    this.timer = null
    return this.running ?? Promise.resolve()
  }

  /** Something changed (a schedule saved, retried): look again now. */
  wake() {
    if (this.started) void this.run()
  }

  /** One pass (passes never overlap: a request during one runs another after it). */
  run(): Promise<void> {
    if (this.running) {
      this.again = true
      return this.running
    }
    this.running = (async () => {
      try {
        do {
          this.again = false
          await this.pass()
        } while (this.again)
      } catch (err) {
        this.deps.log.error('schedule runner pass failed', { error: (err as Error).message })
      } finally {
        this.running = null
        this.plan()
      }
    })()
    return this.running
  }

  private async pass() {
    this.settle()
    for (;;) {
      const now = this.deps.clock.now()
      const due = stmt<{ id: number }, [number]>(
        this.deps.sqlite,
        `SELECT id FROM schedules WHERE status = 'PENDENTE' AND send_at <= ? ORDER BY send_at, id LIMIT 1`,
      ).get(now)
      if (!due) break
      const claimed = this.claim(due.id)
      if (claimed) {
        await outboundSender(this.deps).kick([claimed.messageId])
        this.settle(claimed.scheduleId)
      }
    }
  }

  /** The next wake-up: the next due row, sooner while messages are on their way. */
  private plan() {
    if (!this.started) return
    if (this.timer != null) this.deps.clock.clearTimeout(this.timer)
    this.timer = null
    const now = this.deps.clock.now()
    const next = stmt<{ at: number | null }, []>(
      this.deps.sqlite,
      `SELECT MIN(send_at) AS at FROM schedules WHERE status = 'PENDENTE'`,
    ).get()?.at
    const inFlight = !!stmt<{ id: number }, []>(
      this.deps.sqlite,
      `SELECT id FROM schedules WHERE status = 'ENVIANDO' LIMIT 1`,
    ).get()
    let delay = this.options.maxSleepMs
    if (next != null) delay = Math.min(delay, Math.max(0, next - now))
    if (inFlight) delay = Math.min(delay, this.options.pollMs)
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null
      void this.run()
    }, delay)
  }

  /** ENVIANDO -> ENVIADA or ERRO from the schedules' messages (settle.ts). */
  settle(scheduleId?: number) {
    settleSchedules(this.deps, scheduleId)
  }

  /**
   * PENDENTE -> ENVIANDO with its message written, in one transaction; or ERRO with the reason when it cannot
   * be written (no connection, the contact is gone…). Answers what to send, or null.
   */
  claim(id: number): Claimed {
    const row = this.deps.sqlite
      .query<ScheduleRow, [number]>(`SELECT ${SCHEDULE_COLUMNS} FROM schedules s WHERE s.id = ?`)
      .get(id)
    if (row?.status !== 'PENDENTE') return null
    // The message gets its own copy of the attachment (the schedule's file may be deleted with the schedule).
    let media: StoredMedia | null = null
    try {
      this.assertMaySend(row.companyId)
      media = this.copyMedia(row)
      const file = media
      return transact(this.deps, (sqlite, events) => {
        const now = this.deps.clock.now()
        const won = sqlite
          .query(
            `UPDATE schedules SET status = 'ENVIANDO', claimed_at = ?, attempts = attempts + 1, error = NULL,
                    updated_at = ? WHERE id = ? AND status = 'PENDENTE' AND send_at <= ?`,
          )
          .run(now, now, id, now)
        if (won.changes !== 1) throw new Lost()
        this.writeNext(row, now, events)
        const ctx: Ctx = { ...this.deps, actor: { kind: 'system', companyId: row.companyId } }
        const ticket = this.ticketFor(row, now, events)
        const [messageId] = writeOutboundMessages(ctx, sqlite, events, ticket, {
          body: row.body,
          media: file ? [file] : [],
        })
        sqlite
          .query('UPDATE schedules SET message_id = ?, ticket_id = ? WHERE id = ?')
          .run(messageId!, ticket.id, id)
        publishSchedule(this.deps, events, row.companyId, id, 'update')
        return { scheduleId: id, companyId: row.companyId, messageId: messageId! }
      })
    } catch (err) {
      if (media) this.removeFile(row.companyId, media.path)
      if (err instanceof Lost) return null
      this.failClaim(row, err)
      return null
    }
  }

  /**
   * A company that is inactive or past its due date, or whose plan no longer includes schedules, sends nothing:
   * its due schedules fail with the reason (and can be retried once it may send again), as its users' requests do.
   */
  private assertMaySend(companyId: number) {
    const company = stmt<{ status: number; dueDate: string | null; useSchedules: number | null }, [number]>(
      this.deps.sqlite,
      `SELECT c.status, c.due_date AS dueDate, p.use_schedules AS useSchedules
         FROM companies c LEFT JOIN plans p ON p.id = c.plan_id WHERE c.id = ?`,
    ).get(companyId)
    if (!company) throw new AppError('ERR_NO_COMPANY_FOUND', 'The company no longer exists')
    assertCompanyOpen(this.deps, { id: companyId, status: company.status, dueDate: company.dueDate }, false)
    if (!planAllows({ useSchedules: company.useSchedules !== 0 }, 'useSchedules'))
      throw new AppError('ERR_PLAN_FEATURE_DISABLED', "The company's plan does not include useSchedules", {
        flag: 'useSchedules',
      })
  }

  /** A claim that could not write its message: ERRO with why (and the series goes on). */
  private failClaim(row: ScheduleRow, err: unknown) {
    const e = err as { code?: string; message?: string }
    const reason = (
      e?.code ? `${e.code}: ${e.message ?? ''}` : `ERR_SENDING_WAPP_MSG: ${e?.message ?? err}`
    ).slice(0, MAX_REASON)
    transact(this.deps, (sqlite, events) => {
      const now = this.deps.clock.now()
      const changed = sqlite
        .query(
          `UPDATE schedules SET status = 'ERRO', error = ?, attempts = attempts + 1, claimed_at = ?, updated_at = ?
            WHERE id = ? AND status = 'PENDENTE'`,
        )
        .run(reason, now, now, row.id).changes
      if (!changed) return
      this.writeNext(row, now, events)
      publishSchedule(this.deps, events, row.companyId, row.id, 'update')
    })
  }

  /** A repeating schedule's next occurrence, written once (the claim of this one happens once). */
  private writeNext(row: ScheduleRow, now: number, events: EventBuffer) {
    const at = nextOccurrenceOf(this.deps, row, now)
    if (at == null) return
    const next = this.deps.sqlite
      .query<{ id: number }, (string | number | null)[]>(
        `INSERT INTO schedules (company_id, body, contact_id, send_at, status, open_ticket, ticket_user_id, queue_id,
                                status_ticket, whatsapp_id, user_id, media_path, media_name, media_mime, repeat,
                                series_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'PENDENTE', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        row.companyId,
        row.body,
        row.contactId,
        at,
        row.openTicket,
        row.ticketUserId,
        row.queueId,
        row.statusTicket,
        row.whatsappId,
        row.userId,
        row.mediaPath,
        row.mediaName,
        row.mediaMime,
        row.repeat,
        row.seriesId ?? row.id,
        now,
        now,
      )!
    publishSchedule(this.deps, events, row.companyId, next.id, 'create')
  }

  /** The ticket the message goes on (see the header), inside the claim's transaction. */
  private ticketFor(row: ScheduleRow, now: number, _events: EventBuffer) {
    const sqlite = this.deps.sqlite
    const contact = stmt<{ id: number; isGroup: number }, [number, number]>(
      sqlite,
      'SELECT id, is_group AS isGroup FROM contacts WHERE id = ? AND company_id = ?',
    ).get(row.contactId, row.companyId)
    if (!contact)
      throw Object.assign(new Error('the contact no longer exists'), { code: 'ERR_NO_CONTACT_FOUND' })
    const whatsappId = connectionOf(sqlite, row)
    const active = activeTicketRow(sqlite, row.companyId, contact.id, whatsappId)
    if (active) {
      // Checked again now: the contact's ticket may have become one its author may not open since it was saved.
      const author = row.userId == null ? null : userScope(sqlite, row.companyId, row.userId)
      if (author) assertMayWriteToContact(sqlite, author, contact.id, whatsappId)
      return active
    }
    const enabled = row.openTicket === 'enabled'
    const status = enabled && row.statusTicket === 'open' ? 'open' : 'closed'
    const userId = enabled ? row.ticketUserId : null
    const queueId = enabled ? row.queueId : null
    const ticket = insertTicket(sqlite, {
      companyId: row.companyId,
      contactId: contact.id,
      whatsappId,
      queueId,
      userId,
      status: 'open',
      isGroup: !!contact.isGroup,
      now,
    })
    if (status === 'closed')
      sqlite.query(`UPDATE tickets SET status = 'closed', closed_at = ? WHERE id = ?`).run(now, ticket.id)
    recordTicketEvent(sqlite, {
      companyId: row.companyId,
      ticketId: ticket.id,
      type: 'created',
      actorUserId: null,
      from: null,
      to: { status, userId, queueId, whatsappId },
      at: now,
    })
    return { ...ticket, status }
  }

  private copyMedia(row: ScheduleRow): StoredMedia | null {
    if (!row.mediaPath) return null
    const source = mediaFilePath(this.deps, row.companyId, row.mediaPath)
    if (!source) return null
    const mime = row.mediaMime ?? 'image/jpeg'
    const format = formatOfMime(mime)
    // storeMedia makes the random name and the folder; the bytes are copied over it.
    const stored = storeMedia(this.deps, row.companyId, new Uint8Array(0), { mime, ext: format.ext })
    try {
      copyFileSync(source, mediaFilePath(this.deps, row.companyId, stored.path)!)
    } catch {
      this.removeFile(row.companyId, stored.path)
      return null
    }
    return {
      path: stored.path,
      size: Bun.file(mediaFilePath(this.deps, row.companyId, stored.path)!).size,
      mime,
      name: row.mediaName ?? `image.${format.ext}`,
      mediaType: mediaTypeOf(format),
      ptt: false,
    }
  }

  private removeFile(companyId: number, path: string) {
    const file = mediaFilePath(this.deps, companyId, path)
    try {
      if (file) unlinkSync(file)
    } catch {}
  }
}

class Lost extends Error {}

function connectionOf(sqlite: Database, row: ScheduleRow): number {
  const id = scheduleConnection(sqlite, row)
  if (id == null)
    throw Object.assign(new Error('the company has no connection to send from'), {
      code: 'ERR_NO_DEF_WAPP_FOUND',
    })
  return id
}

/** The server's one runner (per jobs registry): the jobs' catalogue starts it, services wake it (`ctx.jobs`). */
export function scheduleRunner(deps: Deps, options?: Partial<ScheduleRunnerOptions>): ScheduleRunner {
  return deps.jobs.use('schedules', () => {
    const { actor: _actor, ...plain } = deps as Deps & { actor?: unknown }
    return new ScheduleRunner(plain as Deps, options)
  })
}
