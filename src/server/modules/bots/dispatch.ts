/**
 * The dispatcher: hands a customer's message to the external bot that answers its ticket (types.ts), instead of
 * the chatbot's menu.
 *
 * Which tickets: pending, no user, not a group, on a connection, whose queue (else, without a queue, whose
 * connection) names a queue integration or an AI prompt — the integration wins when both — and whose bot kind is
 * registered (`registerBot`; the built-in kinds in chatbot/bot-kinds.ts). The chatbot runner (chatbot/runner.ts) asks `take` first for each committed
 * customer message; a taken message never reaches the menu.
 *
 * State per ticket is a row of `bot_sessions` (sessions.ts): the bot, its own session id (Typebot's), its status
 * (active, handedOff, finished) and the newest message handed to it. A message is claimed in a transaction
 * (`last_message_id` moves forward only), so the same message is never handed twice, whichever path (live,
 * boot catch-up, a replay) brings it. Once handed off or finished, the bot keeps quiet on that ticket; a ticket
 * moved to a queue with another bot starts a new session with it.
 *
 * The bot runs out of any transaction, one message at a time per ticket, under an AbortSignal that fires after
 * the kind's timeout (30 s for an AI prompt, 10 s for the integrations) on `deps.clock`. Its replies are written
 * as outbound messages of the system (each in its own transaction, `delayMs` apart), sent by the outbound
 * sender in order; then its action: `handoff` stops the bot (the ticket waits for an attendant in its queue),
 * `close` closes the ticket, `transfer` moves it to a queue of the same company. A failure, a timeout or a bad
 * answer never reaches the customer: it is logged, the bot stops, and the ticket waits in its queue. A
 * connection's AI prompt answers tickets that have no queue yet: when it fails or hands off, the ticket moves to
 * the connection's first queue (menu order), where attendants look for it. Before each write the ticket is read
 * again: once an attendant accepted it (open, or a user set), the bot stops.
 */

import type { Database } from 'bun:sqlite'
import type { Deps } from '../../context'
import { systemCtx, transact } from '../../context'
import { stmt } from '../../db/statements'
import type { EventBuffer } from '../../realtime/hub'
import { afterOutboundCommit, writeOutboundMessages } from '../messages/outbound'
import { type BotTicket, loadBotTicket, moveTicket } from '../tickets/system'
import { type BotSession, loadBotSession, setBotSessionStatus } from './sessions'
import type { BotAnswer, BotTurn, ExternalBot } from './types'

const registry = new Map<string, ExternalBot>()

/**
 * Makes a kind of bot answerable ('prompt', or an integration's type). The last registration of a kind wins;
 * the returned function undoes this one (tests).
 */
export function registerBot(kind: string, bot: ExternalBot): () => void {
  const before = registry.get(kind)
  registry.set(kind, bot)
  return () => {
    if (registry.get(kind) !== bot) return
    if (before) registry.set(kind, before)
    else registry.delete(kind)
  }
}

export function registeredBot(kind: string): ExternalBot | undefined {
  return registry.get(kind)
}

/** Per kind: how long a bot may take to answer one message. */
export const BOT_TIMEOUT_MS: Record<string, number> = { prompt: 30_000 }
export const DEFAULT_BOT_TIMEOUT_MS = 10_000

export type BotTarget = { kind: string; botId: number }

/** The bot that answers a ticket now (see the file's comment), or null. */
export function botTargetOf(
  sqlite: Database,
  ticket: Pick<BotTicket, 'companyId' | 'queueId' | 'whatsappId'>,
): BotTarget | null {
  let row: { type: string | null; integrationId: number | null; promptId: number | null } | null
  if (ticket.queueId != null)
    row = stmt<
      { type: string | null; integrationId: number | null; promptId: number | null },
      [number, number]
    >(
      sqlite,
      `SELECT i.type, i.id AS integrationId, q.prompt_id AS promptId
         FROM queues q LEFT JOIN queue_integrations i ON i.id = q.integration_id AND i.company_id = q.company_id
        WHERE q.id = ? AND q.company_id = ?`,
    ).get(ticket.queueId, ticket.companyId)
  else if (ticket.whatsappId != null)
    row = stmt<
      { type: string | null; integrationId: number | null; promptId: number | null },
      [number, number]
    >(
      sqlite,
      `SELECT i.type, i.id AS integrationId, w.prompt_id AS promptId
         FROM whatsapps w LEFT JOIN queue_integrations i ON i.id = w.integration_id AND i.company_id = w.company_id
        WHERE w.id = ? AND w.company_id = ?`,
    ).get(ticket.whatsappId, ticket.companyId)
  else row = null
  if (!row) return null
  const integration = row.integrationId != null && !!row.type && registry.has(row.type)
  const prompt = row.promptId != null && registry.has('prompt')
  if (!integration && !prompt) return null
  // The plan's flags hold here too, not only on the pages: a company whose plan lost integrations or OpenAI keeps
  // its settings, but no bot of that kind answers its customers (the menu does, as without a bot).
  const flags = stmt<{ useIntegrations: number | null; useOpenAi: number | null }, [number]>(
    sqlite,
    `SELECT p.use_integrations AS useIntegrations, p.use_open_ai AS useOpenAi
       FROM companies c LEFT JOIN plans p ON p.id = c.plan_id WHERE c.id = ?`,
  ).get(ticket.companyId)
  if (integration && flags?.useIntegrations !== 0)
    return { kind: row.type as string, botId: row.integrationId as number }
  if (prompt && flags?.useOpenAi !== 0) return { kind: 'prompt', botId: row.promptId as number }
  return null
}

export type DispatchMessage = { ticketId: number; messageId: number; text: string }

export type DispatcherOptions = {
  /** Overrides of `BOT_TIMEOUT_MS` per kind (tests). */
  timeouts?: Record<string, number>
}

const waitingFor = (ticket: BotTicket) =>
  ticket.status === 'pending' && ticket.userId == null && !ticket.isGroup && ticket.whatsappId != null

export class BotDispatcher {
  /** Per ticket, the end of its chain of messages being answered (one at a time, in order). */
  private readonly chains = new Map<number, Promise<void>>()

  constructor(
    private readonly deps: Deps,
    private readonly options: DispatcherOptions = {},
  ) {}

  /** Whether a ticket's messages belong to a bot (no claim; the runner's `done` cache asks). */
  hasBot(ticket: BotTicket): boolean {
    return waitingFor(ticket) && botTargetOf(this.deps.sqlite, ticket) != null
  }

  /**
   * A committed customer message: true when a bot answers this ticket (the message is then the bot's, answered
   * shortly, or already was), false when the menu should handle it. Synchronous: the claim is a transaction.
   */
  take(ticket: BotTicket, m: DispatchMessage): boolean {
    const { sqlite } = this.deps
    const now = this.deps.clock.now()
    const session = loadBotSession(sqlite, ticket.id)
    if (!waitingFor(ticket)) {
      // an attendant has it: the bot is done with this ticket
      if (session?.status === 'active' && (ticket.status !== 'pending' || ticket.userId != null))
        setBotSessionStatus(sqlite, ticket.id, 'finished', now)
      return false
    }
    const target = botTargetOf(sqlite, ticket)
    if (!target) return false
    const same = session && session.kind === target.kind && session.botId === target.botId
    if (same && session.status !== 'active') return true
    if (session && session.lastMessageId >= m.messageId) return true
    const claimed = transact(this.deps, (sqlite) => {
      if (same) {
        const moved = stmt(
          sqlite,
          'UPDATE bot_sessions SET last_message_id = ?, updated_at = ? WHERE ticket_id = ? AND last_message_id < ?',
        ).run(m.messageId, now, ticket.id, m.messageId)
        return moved.changes > 0
      }
      // a first bot, or another one (the ticket moved to a queue with another bot): a new session
      const moved = stmt(
        sqlite,
        `INSERT INTO bot_sessions (ticket_id, company_id, kind, bot_id, external_id, status, last_message_id,
                last_activity_at, created_at, updated_at)
           VALUES (?1, ?2, ?3, ?4, NULL, 'active', ?5, ?6, ?6, ?6)
         ON CONFLICT (ticket_id) DO UPDATE SET kind = ?3, bot_id = ?4, external_id = NULL, status = 'active',
                last_message_id = ?5, last_activity_at = ?6, created_at = ?6, updated_at = ?6
          WHERE last_message_id < ?5`,
      ).run(ticket.id, ticket.companyId, target.kind, target.botId, m.messageId, now)
      if (moved.changes > 0)
        stmt(sqlite, 'UPDATE tickets SET chatbot = 1 WHERE id = ? AND chatbot = 0').run(ticket.id)
      return moved.changes > 0
    })
    if (!claimed) return true
    const turn: BotTurn = {
      companyId: ticket.companyId,
      ticketId: ticket.id,
      messageId: m.messageId,
      text: m.text,
      whatsappId: ticket.whatsappId as number,
      queueId: ticket.queueId,
      contactId: ticket.contactId,
      botId: target.botId,
    }
    const previous = this.chains.get(ticket.id) ?? Promise.resolve()
    const next = previous.then(() => this.run(target, turn))
    this.chains.set(ticket.id, next)
    void next.finally(() => {
      if (this.chains.get(ticket.id) === next) this.chains.delete(ticket.id)
    })
    return true
  }

  /** Resolves when every message handed so far was answered (tests; the delays move with the clock). */
  async idle() {
    while (this.chains.size) await Promise.all([...this.chains.values()])
  }

  private timeoutOf(kind: string) {
    return this.options.timeouts?.[kind] ?? BOT_TIMEOUT_MS[kind] ?? DEFAULT_BOT_TIMEOUT_MS
  }

  private sleep(ms: number) {
    return new Promise<void>((resolve) => this.deps.clock.setTimeout(resolve, ms))
  }

  /** Asks the bot under its timeout; any failure is a fallback. Never throws. */
  private async ask(target: BotTarget, turn: BotTurn): Promise<BotAnswer & { reason?: string }> {
    const bot = registry.get(target.kind)
    if (!bot) return { replies: [], fallback: true, reason: `no bot of kind ${target.kind}` }
    const controller = new AbortController()
    const ms = this.timeoutOf(target.kind)
    let timer: unknown
    const timedOut = new Promise<never>((_, reject) => {
      timer = this.deps.clock.setTimeout(() => {
        const error = new Error(`no answer within ${ms} ms`)
        controller.abort(error)
        reject(error)
      }, ms)
    })
    try {
      const answer = await Promise.race([bot.answer(this.deps, turn, controller.signal), timedOut])
      if (!answer || !Array.isArray(answer.replies))
        return { replies: [], fallback: true, reason: 'no answer' }
      return answer
    } catch (err) {
      // `detail` (the guarded fetch's, the AI client's) says what the remote server answered: the log may read it
      const e = err as { message?: string; detail?: string } | null
      return { replies: [], fallback: true, reason: e?.detail ?? e?.message ?? String(err) }
    } finally {
      this.deps.clock.clearTimeout(timer)
      timedOut.catch(() => {})
    }
  }

  /** The ticket, if the bot may still speak on it (still waiting, and this session still active with this bot). */
  private current(target: BotTarget, ticketId: number): { ticket: BotTicket; session: BotSession } | null {
    const ticket = loadBotTicket(this.deps.sqlite, ticketId)
    const session = loadBotSession(this.deps.sqlite, ticketId)
    if (!ticket || !session || session.status !== 'active') return null
    if (session.kind !== target.kind || session.botId !== target.botId) return null
    if (!waitingFor(ticket)) {
      setBotSessionStatus(this.deps.sqlite, ticketId, 'finished', this.deps.clock.now())
      return null
    }
    return { ticket, session }
  }

  /**
   * A connection's prompt giving a ticket without a queue up to a person: the ticket goes to the connection's
   * first queue (menu order), pending, so it shows where attendants work rather than nowhere.
   */
  private toFirstQueue(target: BotTarget, tx: Database, events: EventBuffer, ticket: BotTicket) {
    if (target.kind !== 'prompt' || ticket.queueId != null || ticket.whatsappId == null) return
    const first = stmt<{ id: number }, [number, number]>(
      this.deps.sqlite,
      `SELECT q.id FROM whatsapp_queues wq JOIN queues q ON q.id = wq.queue_id
        WHERE wq.whatsapp_id = ? AND q.company_id = ? ORDER BY q.order_queue, q.id LIMIT 1`,
    ).get(ticket.whatsappId, ticket.companyId)
    if (first)
      moveTicket(
        this.deps,
        tx,
        events,
        ticket,
        { status: 'pending', queueId: first.id, userId: null },
        'transferred',
      )
  }

  private async run(target: BotTarget, turn: BotTurn): Promise<void> {
    try {
      await this.answer(target, turn)
    } catch (err) {
      this.deps.log.error('bot: message not handled', {
        ticketId: turn.ticketId,
        messageId: turn.messageId,
        error: (err as Error).message,
      })
    }
  }

  private async answer(target: BotTarget, turn: BotTurn) {
    const { deps } = this
    if (!this.current(target, turn.ticketId)) return
    const answer = await this.ask(target, turn)
    if (answer.fallback) {
      deps.log.warn('bot: no usable answer, the ticket waits for an attendant', {
        ticketId: turn.ticketId,
        messageId: turn.messageId,
        kind: target.kind,
        botId: target.botId,
        reason: answer.reason ?? 'fallback',
      })
      transact(deps, (sqlite, events) => {
        const now = this.current(target, turn.ticketId)
        if (!now) return
        setBotSessionStatus(sqlite, turn.ticketId, 'handedOff', deps.clock.now())
        this.toFirstQueue(target, sqlite, events, now.ticket)
      })
      return
    }
    let first = true
    for (const reply of answer.replies) {
      const body = typeof reply?.body === 'string' ? reply.body.trim() : ''
      if (!body) continue
      if (!first && reply.delayMs && reply.delayMs > 0) await this.sleep(reply.delayMs)
      first = false
      const ids = transact(deps, (tx, events) => {
        const now = this.current(target, turn.ticketId)
        if (!now) return null
        const { ticket } = now
        return writeOutboundMessages(
          systemCtx(deps, ticket.companyId),
          tx,
          events,
          {
            id: ticket.id,
            companyId: ticket.companyId,
            contactId: ticket.contactId,
            whatsappId: ticket.whatsappId as number,
            status: ticket.status,
          },
          { body },
        )
      })
      if (!ids) return
      if (ids.length) void afterOutboundCommit(deps, ids)
    }
    transact(deps, (sqlite, events) => {
      const now = this.current(target, turn.ticketId)
      if (!now) return
      const at = deps.clock.now()
      stmt(sqlite, 'UPDATE bot_sessions SET last_activity_at = ?, updated_at = ? WHERE ticket_id = ?').run(
        at,
        at,
        turn.ticketId,
      )
      const { ticket } = now
      if (answer.action === 'close') {
        setBotSessionStatus(sqlite, ticket.id, 'finished', at)
        moveTicket(
          deps,
          sqlite,
          events,
          ticket,
          { status: 'closed', queueId: ticket.queueId, userId: null },
          'closed',
        )
      } else if (answer.action === 'transfer') {
        setBotSessionStatus(sqlite, ticket.id, 'handedOff', at)
        const queueId = answer.queueId
        const valid =
          queueId != null &&
          stmt<{ id: number }, [number, number]>(
            sqlite,
            'SELECT id FROM queues WHERE id = ? AND company_id = ?',
          ).get(queueId, ticket.companyId)
        if (valid && queueId !== ticket.queueId)
          moveTicket(
            deps,
            sqlite,
            events,
            ticket,
            { status: 'pending', queueId, userId: null },
            'transferred',
          )
        else if (!valid)
          deps.log.warn('bot: transfer to an unknown queue, the ticket waits in its own', {
            ticketId: ticket.id,
            queueId: queueId ?? null,
          })
      } else if (answer.action === 'handoff') {
        setBotSessionStatus(sqlite, ticket.id, 'handedOff', at)
        this.toFirstQueue(target, sqlite, events, ticket)
      }
    })
  }
}

/** The dispatcher of these deps' registry (one per server; options apply when it is first made). */
export function botDispatcherOf(deps: Deps, options?: DispatcherOptions): BotDispatcher {
  return deps.jobs.use('bots', () => {
    const { actor: _actor, ...plain } = deps as Deps & { actor?: unknown }
    return new BotDispatcher(plain as Deps, options)
  })
}
