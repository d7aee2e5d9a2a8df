/**
 * The writes the bot and its timers share, all inside the caller's transaction: template messages to the
 * customer (variables filled, written as outbound rows of the system, sent after commit), a ticket moved to a
 * queue or closed by the system (with its ticket event and live update).
 */
import type { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import type { Ctx, Deps } from '../../context'
import type { TicketStatus } from '../../db/schema/tickets'
import { stmt } from '../../db/statements'
import { mediaFilePath } from '../../media/store'
import type { EventBuffer } from '../../realtime/hub'
import { type StoredMedia, writeOutboundMessages } from '../messages/outbound'
import { loadTicketDtos } from '../tickets/dto'
import { recordTicketEvent } from '../tickets/events'
import { publishTicket } from '../tickets/live'
import { fillTemplate } from '../tickets/variables'
import type { BotTicket } from './context'
import type { BotMedia } from './machine'

/** The system acting for a company (the bot, the timers). */
export function systemCtx(deps: Deps, companyId: number): Ctx {
  const { actor: _actor, ...plain } = deps as Deps & { actor?: unknown }
  return { ...(plain as Deps), actor: { kind: 'system', companyId } }
}

function contactName(sqlite: Database, contactId: number): string {
  return (
    stmt<{ name: string }, [number]>(sqlite, 'SELECT name FROM contacts WHERE id = ?').get(contactId)?.name ??
    ''
  )
}

const MEDIA_TYPE = (mime: string): StoredMedia['mediaType'] => {
  const top = mime.split('/')[0]
  if (top === 'image' || top === 'video' || top === 'audio') return top
  return 'application'
}

function storedMedia(deps: Deps, companyId: number, media: BotMedia): StoredMedia | null {
  const file = mediaFilePath(deps, companyId, media.path)
  if (!file) return null
  let size = 0
  try {
    size = statSync(file).size
  } catch {
    // the file is gone: the sender marks the message failed with its reason, visible on the ticket
  }
  return {
    path: media.path,
    size,
    mime: media.mime,
    name: media.name,
    mediaType: MEDIA_TYPE(media.mime),
    ptt: false,
  }
}

/**
 * Writes a template message (and its file) to the ticket's customer, with the spec's variables filled in the
 * company's time zone. Nothing for an empty text without a file, nor for a group or a ticket without a
 * connection. Returns the new rows' ids (hand them to the sender after commit).
 */
export function writeTemplate(
  deps: Deps,
  tx: Database,
  events: EventBuffer,
  ticket: BotTicket,
  text: string,
  timeZone: string,
  media?: BotMedia | null,
): number[] {
  if (ticket.whatsappId == null || ticket.isGroup) return []
  const now = deps.clock.now()
  const body = fillTemplate(
    text,
    { id: ticket.id, createdAt: ticket.createdAt, contactName: contactName(deps.sqlite, ticket.contactId) },
    now,
    timeZone,
  ).trim()
  const file = media ? storedMedia(deps, ticket.companyId, media) : null
  if (!body && !file) return []
  return writeOutboundMessages(
    systemCtx(deps, ticket.companyId),
    tx,
    events,
    {
      id: ticket.id,
      companyId: ticket.companyId,
      contactId: ticket.contactId,
      whatsappId: ticket.whatsappId,
      status: ticket.status,
    },
    file ? { body, media: [file] } : { body },
  )
}

/**
 * Moves a ticket (by the system): its status, queue and user, with the ticket event and the live update (to the
 * rooms that saw it before and those that see it now). `closed` sets closed_at and clears unread.
 */
export function moveTicket(
  deps: Deps,
  tx: Database,
  events: EventBuffer,
  ticket: BotTicket,
  to: { status: TicketStatus; queueId: number | null; userId: number | null },
  type: 'transferred' | 'closed',
) {
  const now = deps.clock.now()
  stmt(
    deps.sqlite,
    `UPDATE tickets SET status = ?1, queue_id = ?2, user_id = ?3, updated_at = ?4, chatbot = 0,
            closed_at = CASE WHEN ?1 = 'closed' THEN ?4 ELSE closed_at END,
            unread_messages = CASE WHEN ?1 = 'closed' THEN 0 ELSE unread_messages END
      WHERE id = ?5`,
  ).run(to.status, to.queueId, to.userId, now, ticket.id)
  recordTicketEvent(tx, {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    type,
    actorUserId: null,
    from: {
      status: ticket.status,
      userId: ticket.userId,
      queueId: ticket.queueId,
      whatsappId: ticket.whatsappId,
    },
    to: { ...to, whatsappId: ticket.whatsappId },
    at: now,
  })
  const dto = loadTicketDtos(tx, [ticket.id])[0]
  if (dto)
    publishTicket(events, dto, {
      id: ticket.id,
      companyId: ticket.companyId,
      queueId: ticket.queueId,
      userId: ticket.userId,
    })
}
