/** Test support for the inbound pipeline: a harness with a connected sandbox connection, and row readers. */
import type { SandboxNetwork } from '../../channels/sandbox'
import type { InboundMessage } from '../../channels/types'
import { createHarness, type Harness } from '../../test/harness'

export type MessageRowT = {
  id: number
  ticketId: number
  contactId: number | null
  companyId: number
  wid: string | null
  body: string
  fromMe: number
  ack: number
  read: number
  mediaType: string
  mediaState: string
  mediaPath: string | null
  mediaName: string | null
  participant: string | null
  participantName: string | null
  isDeleted: number
  isEdited: number
  oldMessages: string | null
  quotedMsgId: number | null
  createdAt: number
}

export type TicketRowT = {
  id: number
  status: string
  contactId: number
  whatsappId: number | null
  isGroup: number
  lastMessage: string
  unreadMessages: number
  imported: number
  companyId: number
  createdAt: number
  updatedAt: number
}

/** A harness on the sandbox with a connected sandbox connection in company A (and B's when asked). */
export async function sandboxHarness(
  fields: Record<string, unknown> = {},
  options: { companyB?: boolean } = {},
) {
  const h = await createHarness({ sandbox: true })
  const net = h.deps.sandboxNetwork as SandboxNetwork
  const connect = async (companyId: number, extra: Record<string, unknown> = {}) => {
    const row = h.makeConnection(companyId, { provider: 'sandbox', ...extra })
    await h.deps.channels.start(row)
    await net.pair(row.id)
    await net.idle()
    return row
  }
  const conn = await connect(h.a.id, fields)
  const connB = options.companyB ? await connect(h.b.id) : undefined
  return { h, net, conn, connB, connect }
}

export function messagesOf(h: Harness, where = '1 = 1', ...params: (string | number)[]): MessageRowT[] {
  return h.deps.sqlite
    .query<MessageRowT, (string | number)[]>(
      `SELECT id, ticket_id AS ticketId, contact_id AS contactId, company_id AS companyId, wid, body,
              from_me AS fromMe, ack, read, media_type AS mediaType, media_state AS mediaState,
              media_path AS mediaPath, media_name AS mediaName, participant, participant_name AS participantName,
              is_deleted AS isDeleted, is_edited AS isEdited, old_messages AS oldMessages,
              quoted_msg_id AS quotedMsgId, created_at AS createdAt
         FROM messages WHERE ${where} ORDER BY id`,
    )
    .all(...params)
}

export function ticketsOf(h: Harness, where = '1 = 1', ...params: (string | number)[]): TicketRowT[] {
  return h.deps.sqlite
    .query<TicketRowT, (string | number)[]>(
      `SELECT id, status, contact_id AS contactId, whatsapp_id AS whatsappId, is_group AS isGroup,
              last_message AS lastMessage, unread_messages AS unreadMessages, imported, company_id AS companyId,
              created_at AS createdAt, updated_at AS updatedAt
         FROM tickets WHERE ${where} ORDER BY id`,
    )
    .all(...params)
}

export function count(h: Harness, table: string, where = '1 = 1', ...params: (string | number)[]): number {
  return (
    h.deps.sqlite
      .query<{ n: number }, (string | number)[]>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`)
      .get(...params)?.n ?? 0
  )
}

let seq = 0

/** A plain text InboundMessage as a channel hands it over (for the fake channel). */
export function textMessage(
  fields: Partial<InboundMessage> & { from?: string; text?: string } = {},
): InboundMessage {
  seq++
  const from = fields.from ?? '5511988887777'
  const { from: _f, text, ...rest } = fields
  const jid = `${from}@s.whatsapp.net`
  return {
    t: 'message',
    ref: { id: `FAKEIN${seq}`, chatJid: jid, fromMe: false },
    chat: { jid, pn: from },
    sender: { jid, pn: from },
    pushName: 'Cliente',
    timestamp: Date.parse('2026-11-21T12:00:00Z'),
    isGroup: false,
    offline: false,
    body: text ?? `mensagem ${seq}`,
    ...rest,
  }
}
