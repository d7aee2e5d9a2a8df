/**
 * Runs the machine (machine.ts) on the customer's messages, after the inbound pipeline committed them.
 *
 * Which messages: a customer's (not ours, not imported history) message on a ticket that is pending with no user
 * and not a group, when the ticket has a bot session still going, or has none yet and either no queue or was
 * just opened (a connection with one queue opens its tickets in it: its options still greet the customer); and
 * any message on a closed ticket waiting for its rating ('nps').
 *
 * Out of the inbound transaction: messages are queued and handled right after (setImmediate), in arrival order,
 * each in its own transaction that writes the new state, the ticket's changes and the outgoing messages
 * together; the sender gets them after commit. A message is handled once: the session keeps the newest message
 * id it handled (checked again inside the transaction), so a message delivered or queued twice answers once.
 * The queue is memory: what a stopped process had not handled yet, the next boot does (catchup.ts).
 */

import type { Deps } from '../../context'
import { transact } from '../../context'
import { stmt } from '../../db/statements'
import { localTime } from '../../local-time'
import { type BotDispatcher, botDispatcherOf } from '../bots/dispatch'
import { afterOutboundCommit } from '../messages/outbound'
import { type BotTicket, loadBotTicket, moveTicket } from '../tickets/system'
import { writeTemplate } from './apply'
import './bot-kinds'
import { botSettings, isFirstConversation, loadBotContext, loadSession, saveSession } from './context'
import { finishedOf } from './finished'
import { type BotState, decide, INITIAL_STATE } from './machine'

export type BotMessage = { ticketId: number; messageId: number; text: string; ticketCreated: boolean }

/** Whether the bot can say nothing on this connection, whatever the message (see machine.ts: open, mainMenu). */
function silentConnection(sqlite: Deps['sqlite'], whatsappId: number): boolean {
  return !!stmt<{ silent: number }, [number]>(
    sqlite,
    `SELECT (w.greeting_message = '' AND w.out_of_hours_message = '' AND w.collective_vacation_message = ''
             AND w.enable_lgpd = 0
             AND NOT EXISTS (SELECT 1 FROM whatsapp_queues q WHERE q.whatsapp_id = w.id)) AS silent
       FROM whatsapps w WHERE w.id = ?`,
  ).get(whatsappId)?.silent
}

/** The nodes of a routing conversation still going (the catch-up reads the same list, catchup.ts). */
export const ACTIVE_NODES: ReadonlySet<string> = new Set([
  'start',
  'consent',
  'vacation',
  'outOfHours',
  'menu',
  'queue',
  'option',
])

export class ChatbotRunner {
  private readonly queue: BotMessage[] = []
  private scheduled = false
  private draining: Promise<void> = Promise.resolve()
  private readonly done: Set<number>
  /** External bots (AI prompts, queue integrations) answer instead of the menu where a queue or connection names one. */
  private readonly bots: BotDispatcher

  constructor(private readonly deps: Deps) {
    this.done = finishedOf(deps)
    this.bots = botDispatcherOf(deps)
  }

  /** A committed customer message: handled shortly, after the inbound work of this turn. */
  enqueue(message: BotMessage) {
    if (!message.ticketCreated && this.done.has(message.ticketId)) return
    this.queue.push(message)
    if (this.scheduled) return
    this.scheduled = true
    this.draining = new Promise((resolve) =>
      setImmediate(() => {
        this.scheduled = false
        this.drain()
        resolve()
      }),
    )
  }

  /** Resolves when the queued messages were handled (tests). */
  async idle() {
    while (this.scheduled || this.queue.length) await this.draining
  }

  private drain() {
    for (let m = this.queue.shift(); m; m = this.queue.shift()) {
      try {
        this.handle(m)
      } catch (err) {
        this.deps.log.error('chatbot: message not handled', {
          ticketId: m.ticketId,
          messageId: m.messageId,
          error: (err as Error).message,
        })
      }
    }
  }

  /**
   * Handles one message now (synchronously). Returns the ids of the messages written for the customer; they are
   * handed to the sender unless `send` is false (the boot catch-up: the sender's resume sends them).
   */
  handle(m: BotMessage, send = true): number[] {
    const { sqlite } = this.deps
    const ticket = loadBotTicket(sqlite, m.ticketId)
    if (!ticket || ticket.whatsappId == null || ticket.isGroup) return []
    const session = loadSession(sqlite, ticket.id)
    const gated = this.gated(ticket, session?.node ?? null, m.ticketCreated)
    // a queue (or connection) with a bot: the message is the bot's (answered by the dispatcher, bots/dispatch.ts)
    if (!gated && this.bots.take(ticket, m)) return []
    // a connection where the bot has nothing to say (no queues, no greeting, no out-of-hours or vacation
    // message, no LGPD): nothing to decide or keep (the inbound benchmark's customers are all new)
    if (ticket.status === 'pending' && silentConnection(sqlite, ticket.whatsappId)) return []
    if (session && session.lastMessageId >= m.messageId) return []
    if (!this.eligible(ticket, session?.node ?? null, m.ticketCreated)) {
      if (session?.node === 'done') this.done.add(ticket.id)
      return []
    }
    const now = this.deps.clock.now()
    const context = loadBotContext(sqlite, ticket, now, gated && this.bots.hasBot(ticket))
    if (!context) return []
    const state: BotState = session ?? INITIAL_STATE
    const decision = decide(state, { text: m.text }, context)
    const ids: number[] = []
    transact(this.deps, (sqlite, events) => {
      // handled by someone else meanwhile (the same message twice): nothing again
      const again = loadSession(sqlite, ticket.id)
      if (again && again.lastMessageId >= m.messageId) return
      saveSession(
        sqlite,
        ticket,
        {
          ...decision.state,
          lastMessageId: m.messageId,
          userId: session?.userId ?? null,
          expiresAt: session?.expiresAt ?? null,
        },
        now,
      )
      const active = ACTIVE_NODES.has(decision.state.node) ? 1 : 0
      stmt(sqlite, 'UPDATE tickets SET chatbot = ? WHERE id = ? AND chatbot != ?').run(
        active,
        ticket.id,
        active,
      )
      let current: BotTicket = ticket
      for (const action of decision.actions) {
        if (action.kind === 'setQueue') {
          if (current.status === 'pending' && current.queueId !== action.queueId) {
            moveTicket(
              this.deps,
              sqlite,
              events,
              current,
              { status: 'pending', queueId: action.queueId, userId: null },
              'transferred',
            )
            current = { ...current, queueId: action.queueId }
          }
        } else if (action.kind === 'consent') {
          stmt(
            sqlite,
            'UPDATE contacts SET lgpd_consent = ?, lgpd_consent_at = ?, updated_at = ? WHERE id = ? AND company_id = ?',
          ).run(action.accepted ? 'accepted' : 'refused', now, now, ticket.contactId, ticket.companyId)
        } else if (action.kind === 'rate') {
          stmt(
            sqlite,
            `INSERT INTO user_ratings (company_id, ticket_id, user_id, rate, created_at) VALUES (?, ?, ?, ?, ?)
             ON CONFLICT (ticket_id) DO NOTHING`,
          ).run(ticket.companyId, ticket.id, session?.userId ?? null, action.rate, now)
        } else {
          ids.push(
            ...writeTemplate(this.deps, sqlite, events, current, action.body, context.timeZone, action.media),
          )
        }
      }
    })
    // a ticket the menu moved to a queue with a bot goes on to the bot: not done
    if (decision.state.node === 'done' && !this.bots.hasBot(loadBotTicket(sqlite, ticket.id) ?? ticket))
      this.done.add(ticket.id)
    if (send && ids.length) void afterOutboundCommit(this.deps, ids)
    // past the gates, the message is the external bot's
    if (decision.pass) this.bots.take(loadBotTicket(sqlite, ticket.id) ?? ticket, m)
    return ids
  }

  /**
   * Whether the LGPD consent or the collective vacation holds this ticket before its external bot (machine.ts):
   * a new conversation (or one the gate already holds) with consent due, or on vacation today; and a ticket whose
   * contact refused consent where the connection requires it (people answer it, not a bot).
   */
  private gated(ticket: BotTicket, node: string | null, created: boolean): boolean {
    if (ticket.status !== 'pending' || ticket.userId != null || ticket.isGroup || ticket.whatsappId == null)
      return false
    const first = node === null ? created : node === 'start'
    if (!first && node !== 'consent' && node !== 'vacation' && node !== 'done') return false
    const g = stmt<
      {
        lgpd: number
        required: number
        answer: string | null
        start: string | null
        end: string | null
        message: string
      },
      [number, number]
    >(
      this.deps.sqlite,
      `SELECT w.enable_lgpd AS lgpd, w.lgpd_consent AS required, c.lgpd_consent AS answer,
              w.collective_vacation_start AS start, w.collective_vacation_end AS end,
              w.collective_vacation_message AS message
         FROM whatsapps w JOIN contacts c ON c.id = ? WHERE w.id = ?`,
    ).get(ticket.contactId, ticket.whatsappId)
    if (!g) return false
    if (node === 'done') return !!(g.lgpd && g.required && g.answer === 'refused')
    if (g.lgpd && g.answer == null) {
      if (g.required && (first || node === 'consent')) return true
      if (first && isFirstConversation(this.deps.sqlite, ticket)) return true
    }
    if (g.start && g.end && g.message.trim() && (first || node === 'vacation')) {
      const today = localTime(
        this.deps.clock.now(),
        botSettings(this.deps.sqlite, ticket.companyId).timeZone,
      ).date
      return g.start <= today && today <= g.end
    }
    return false
  }

  private eligible(ticket: BotTicket, node: string | null, created: boolean): boolean {
    if (node === 'nps') return ticket.status === 'closed'
    if (ticket.status !== 'pending' || ticket.userId != null) return false
    if (node) return ACTIVE_NODES.has(node)
    return ticket.queueId == null || created
  }
}
