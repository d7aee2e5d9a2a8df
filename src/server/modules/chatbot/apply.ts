/**
 * The writes the bot and its timers share, inside the caller's transaction: template messages to the customer
 * (variables filled, written as outbound rows of the system, sent after commit). A ticket the system moves to a
 * queue or closes is moved by `moveTicket` (tickets/system.ts).
 */
import type { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import { type Deps, systemCtx } from '../../context'
import { stmt } from '../../db/statements'
import { mediaFilePath } from '../../media/store'
import type { EventBuffer } from '../../realtime/hub'
import { type StoredMedia, writeOutboundMessages } from '../messages/outbound'
import type { BotTicket } from '../tickets/system'
import { fillTemplate } from '../tickets/variables'
import type { BotMedia } from './machine'

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
