/**
 * LGPD requests about one person (a contact), admin only: `GET /contacts/{id}/personal-data` answers everything
 * kept about them as one JSON file; `DELETE /contacts/{id}/personal-data` erases their messages (with their search
 * index entries and stored media), extra info, tags and scheduled messages, and anonymises the contact so the
 * tickets (kept for the company's figures) no longer name them. The campaigns forget them too: their rows in
 * contact lists go, a campaign's rows not yet sent to them go, and the rows already sent keep only their state.
 * A group is not a person: its erasure is refused (each participant's own request erases what they wrote there).
 *
 * "Their messages": every message of the contact's tickets (both directions, private notes included) and the
 * messages they wrote in groups (`messages.contact_id`). A stored file is removed only when no other row of the
 * company still names it (a bot may have sent a file list's or an option's file, which stays).
 */

import type { Database } from 'bun:sqlite'
import { fieldError } from '../../../shared/errors'
import { isoString } from '../../clock'
import type { Ctx } from '../../context'
import { transact } from '../../context'
import { stmt } from '../../db/statements'
import { signedMediaUrl } from '../../media/sign'
import { removeStoredMedia } from '../../media/store'
import { parseOldMessages } from '../messages/dto'
import { loadTicketDtos } from '../tickets/dto'
import { publishTicket } from '../tickets/live'
import { loadContactDtos } from './dto'
import { publishContact } from './live'
import { removeStoredPicture } from './picture'
import { getContactRowInCompany } from './service'

/** The name an erased contact keeps (its tickets still show one). */
export const ANONYMISED_NAME = 'Contato anonimizado'
/** How long the media links of an export stay valid. */
const EXPORT_LINK_TTL_MS = 7 * 24 * 60 * 60 * 1000

type MessageRow = {
  id: number
  ticketId: number
  fromMe: number
  body: string
  mediaType: string
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  isPrivate: number
  isDeleted: number
  isEdited: number
  oldMessages: string | null
  transcription: string | null
  participantName: string | null
  createdAt: number
}

/** The person's messages: their tickets' and what they wrote elsewhere (groups). */
const MESSAGES_SQL = `SELECT id, ticket_id AS ticketId, from_me AS fromMe, body, media_type AS mediaType,
         media_path AS mediaPath, media_name AS mediaName, media_mime AS mediaMime, is_private AS isPrivate,
         is_deleted AS isDeleted, is_edited AS isEdited, old_messages AS oldMessages, transcription,
         participant_name AS participantName, created_at AS createdAt
    FROM messages
   WHERE company_id = ?1 AND (contact_id = ?2 OR ticket_id IN (SELECT id FROM tickets WHERE contact_id = ?2))
   ORDER BY id`

function messagesOf(sqlite: Database, companyId: number, contactId: number) {
  return stmt<MessageRow, [number, number]>(sqlite, MESSAGES_SQL).all(companyId, contactId)
}

function ticketsOf(sqlite: Database, companyId: number, contactId: number) {
  return stmt<
    {
      id: number
      uuid: string
      status: string
      connection: string | null
      queue: string | null
      user: string | null
      createdAt: number
      closedAt: number | null
    },
    [number, number]
  >(
    sqlite,
    `SELECT t.id, t.uuid, t.status, w.name AS connection, q.name AS queue, u.name AS user,
            t.created_at AS createdAt, t.closed_at AS closedAt
       FROM tickets t LEFT JOIN whatsapps w ON w.id = t.whatsapp_id LEFT JOIN queues q ON q.id = t.queue_id
       LEFT JOIN users u ON u.id = t.user_id
      WHERE t.company_id = ? AND t.contact_id = ? ORDER BY t.id`,
  ).all(companyId, contactId)
}

export type PersonalDataFile = { fileName: string; json: string }

/** `GET /contacts/{id}/personal-data`: everything about the person, as one JSON document (numbers unmasked). */
export function exportPersonalData(ctx: Ctx, contactId: number): PersonalDataFile {
  const { companyId } = ctx.actor
  const { sqlite } = ctx
  const row = getContactRowInCompany(sqlite, companyId, contactId)
  const dto = loadContactDtos(sqlite, [row.id])[0]!
  const messages = messagesOf(sqlite, companyId, contactId)
  const message = (m: MessageRow) => ({
    id: m.id,
    ticketId: m.ticketId,
    direction: m.fromMe ? 'sent' : 'received',
    body: m.body,
    createdAt: isoString(m.createdAt),
    mediaType: m.mediaType,
    ...(m.mediaPath || m.mediaName
      ? {
          media: {
            name: m.mediaName ?? m.mediaPath,
            mime: m.mediaMime,
            url: m.mediaPath ? signedMediaUrl(ctx, companyId, m.mediaPath, EXPORT_LINK_TTL_MS) : null,
          },
        }
      : {}),
    ...(m.isPrivate ? { privateNote: true } : {}),
    ...(m.isDeleted ? { deleted: true } : {}),
    ...(m.isEdited && m.oldMessages
      ? {
          previousVersions: parseOldMessages(m.oldMessages).map((o) => ({
            body: o.body,
            createdAt: isoString(o.createdAt),
          })),
        }
      : {}),
    ...(m.transcription ? { transcription: m.transcription } : {}),
    ...(m.participantName ? { participantName: m.participantName } : {}),
  })
  const tickets = ticketsOf(sqlite, companyId, contactId)
  const own = new Set(tickets.map((t) => t.id))
  const schedules = stmt<{ id: number; body: string; sendAt: number; status: string }, [number, number]>(
    sqlite,
    `SELECT id, body, send_at AS sendAt, status FROM schedules WHERE company_id = ? AND contact_id = ? ORDER BY id`,
  ).all(companyId, contactId)
  const document = {
    exportedAt: isoString(ctx.clock.now()),
    contact: {
      id: row.id,
      uuid: row.uuid,
      name: row.name,
      number: row.number,
      lid: row.lid,
      email: row.email,
      isGroup: row.isGroup,
      disableBot: row.disableBot,
      lgpdConsent: row.lgpdConsent,
      lgpdConsentAt: row.lgpdConsentAt == null ? null : isoString(row.lgpdConsentAt),
      createdAt: isoString(row.createdAt),
      updatedAt: isoString(row.updatedAt),
    },
    extraInfo: dto.extraInfo.map(({ name, value }) => ({ name, value })),
    tags: dto.tags.map((t) => t.name),
    tickets: tickets.map((t) => ({
      ...t,
      createdAt: isoString(t.createdAt),
      closedAt: t.closedAt == null ? null : isoString(t.closedAt),
      messages: messages.filter((m) => m.ticketId === t.id).map(message),
    })),
    /** What the person wrote in other conversations (groups). */
    otherMessages: messages.filter((m) => !own.has(m.ticketId)).map(message),
    schedules: schedules.map((s) => ({ ...s, sendAt: isoString(s.sendAt) })),
  }
  return {
    fileName: `dados-pessoais-contato-${row.id}.json`,
    json: JSON.stringify(document, null, 2),
  }
}

export type PersonalDataErased = {
  contactId: number
  messages: number
  media: number
  extraInfo: number
  schedules: number
  tickets: number
  /** Rows of contact lists and campaigns that named the person. */
  campaignRows: number
}

/** A campaign's rows still waiting to go out to someone: after an erasure they never will. */
const UNSENT_SHIPPING_STATES = `'pending', 'confirmation_requested', 'confirmed'`

/** Contact lists and campaigns keep a number and a name of their own, outside the contact. */
function forgetInCampaigns(sqlite: Database, companyId: number, numbers: string[]): number {
  let changes = 0
  for (const number of new Set(numbers)) {
    changes += stmt(sqlite, 'DELETE FROM contact_list_items WHERE company_id = ? AND number = ?').run(
      companyId,
      number,
    ).changes
    changes += stmt(
      sqlite,
      `DELETE FROM campaign_shippings WHERE company_id = ? AND number = ? AND state IN (${UNSENT_SHIPPING_STATES})`,
    ).run(companyId, number).changes
    // what was sent stays counted in the campaign's report, without the person (the number is unique per campaign)
    changes += stmt(
      sqlite,
      `UPDATE campaign_shippings SET number = 'apagado-' || id, name = '', email = '', jid = NULL, message = '',
              confirmation_message = '' WHERE company_id = ? AND number = ?`,
    ).run(companyId, number).changes
  }
  return changes
}

/** Whether a stored file is still named by a row of the company (after the erased rows are gone). */
function stillUsed(sqlite: Database, companyId: number, path: string): boolean {
  return !!stmt<{ one: number }, [number, string]>(
    sqlite,
    `SELECT 1 AS one WHERE EXISTS (SELECT 1 FROM messages WHERE company_id = ?1 AND media_path = ?2)
        OR EXISTS (SELECT 1 FROM schedules WHERE company_id = ?1 AND media_path = ?2)
        OR EXISTS (SELECT 1 FROM quick_messages WHERE company_id = ?1 AND media_path = ?2)
        OR EXISTS (SELECT 1 FROM campaigns WHERE company_id = ?1 AND media_path = ?2)
        OR EXISTS (SELECT 1 FROM file_options o JOIN files f ON f.id = o.file_id
                    WHERE f.company_id = ?1 AND o.path = ?2)
        OR EXISTS (SELECT 1 FROM queue_options o JOIN queues q ON q.id = o.queue_id
                    WHERE q.company_id = ?1 AND o.media_path = ?2)`,
  ).get(companyId, path)
}

/** `DELETE /contacts/{id}/personal-data`: see the file's comment. Answers what was erased. */
export function erasePersonalData(ctx: Ctx, contactId: number): PersonalDataErased {
  const { companyId } = ctx.actor
  const { files, picture, result } = transact(ctx, (sqlite, events) => {
    const row = getContactRowInCompany(sqlite, companyId, contactId)
    if (row.isGroup)
      throw fieldError('id', 'A group is not a person: erase the personal data of its participants instead')
    const messages = messagesOf(sqlite, companyId, contactId)
    const tickets = ticketsOf(sqlite, companyId, contactId).map((t) => t.id)
    // The search index is contentless: its entries go by rowid (ticket_id << 32 | id), for what it indexed.
    const indexedUpTo =
      stmt<{ n: number }, []>(
        sqlite,
        'SELECT messages_indexed_upto AS n FROM search_state WHERE id = 1',
      ).get()?.n ?? 0
    const unindex = stmt(sqlite, 'DELETE FROM messages_fts WHERE rowid = ?')
    const remove = stmt(sqlite, 'DELETE FROM messages WHERE id = ?')
    for (const m of messages) {
      if (m.id <= indexedUpTo) unindex.run(m.ticketId * 2 ** 32 + m.id)
      remove.run(m.id)
    }
    const now = ctx.clock.now()
    // the kept tickets: nothing of the conversation shows in the lists any more
    const ticketsTouched = new Set([...tickets, ...messages.map((m) => m.ticketId)])
    for (const id of ticketsTouched) {
      const last = stmt<{ body: string }, [number]>(
        sqlite,
        'SELECT body FROM messages WHERE ticket_id = ? AND is_private = 0 ORDER BY id DESC LIMIT 1',
      ).get(id)
      stmt(
        sqlite,
        'UPDATE tickets SET last_message = ?, unread_messages = 0, updated_at = ? WHERE id = ?',
      ).run(last?.body ?? '', now, id)
    }
    const extraInfo = stmt(sqlite, 'DELETE FROM contact_extra_info WHERE contact_id = ?').run(
      contactId,
    ).changes
    stmt(sqlite, 'DELETE FROM contact_tags WHERE contact_id = ?').run(contactId)
    const scheduleMedia = stmt<{ path: string }, [number, number]>(
      sqlite,
      'SELECT media_path AS path FROM schedules WHERE company_id = ? AND contact_id = ? AND media_path IS NOT NULL',
    ).all(companyId, contactId)
    const schedules = stmt(sqlite, 'DELETE FROM schedules WHERE company_id = ? AND contact_id = ?').run(
      companyId,
      contactId,
    ).changes
    const campaignRows = forgetInCampaigns(
      sqlite,
      companyId,
      [row.number, row.numberKey].filter((n): n is string => !!n),
    )
    stmt(
      sqlite,
      `UPDATE contacts SET name = ?, number = NULL, number_key = NULL, lid = NULL, email = '', profile_pic_url = '',
              profile_pic_checked_at = NULL, updated_at = ? WHERE id = ?`,
    ).run(ANONYMISED_NAME, now, contactId)
    const paths = [
      ...new Set([
        ...messages.flatMap((m) => (m.mediaPath ? [m.mediaPath] : [])),
        ...scheduleMedia.map((s) => s.path),
      ]),
    ].filter((p) => !stillUsed(sqlite, companyId, p))
    const contact = loadContactDtos(sqlite, [contactId])[0]
    if (contact) publishContact(events, contact)
    for (const ticket of loadTicketDtos(sqlite, [...ticketsTouched])) publishTicket(events, ticket)
    return {
      files: paths,
      picture: row.profilePicUrl,
      result: {
        contactId,
        messages: messages.length,
        media: paths.length,
        extraInfo,
        schedules,
        tickets: tickets.length,
        campaignRows,
      },
    }
  })
  for (const path of files) removeStoredMedia(ctx, companyId, path, 'erased personal data media')
  removeStoredPicture(ctx, companyId, picture)
  ctx.log.info('personal data erased', {
    companyId,
    by: ctx.actor.kind === 'user' ? ctx.actor.userId : null,
    ...result,
  })
  return result
}
