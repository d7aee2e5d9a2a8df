/** Test fixtures for the messages area: a connected fake session, tickets with messages, a spy on sends. */
import type { ChannelSession, ContactRef, MsgRef, OutboundContent, SendOptions } from '../../channels/types'
import type { FakeSession } from '../../test/fake-channel'
import type { Harness } from '../../test/harness'
import { makeContact, makeTicket, type TicketFixture } from '../tickets/testing'

/** A connection of the company with its fake session connected. */
export async function connected(h: Harness, companyId: number) {
  const connection = h.makeConnection(companyId)
  await h.deps.channels.start(connection)
  const session = h.sessions.get(connection.id)!
  await session.emit({ t: 'status', status: 'CONNECTED' })
  return { connection, session }
}

/** A ticket on a connected connection, open and assigned to `userId` unless said otherwise. */
export async function conversation(h: Harness, companyId: number, t: TicketFixture = {}) {
  const { connection, session } = await connected(h, companyId)
  const contact = makeContact(h, companyId)
  const ticket = makeTicket(h, companyId, {
    status: 'open',
    contactId: contact.id,
    whatsappId: connection.id,
    ...t,
  })
  return { connection, session, contact, ticket }
}

let widSeq = 0

export type MessageFixture = {
  body?: string
  fromMe?: boolean
  read?: boolean
  wid?: string | null
  createdAt?: number
  isPrivate?: boolean
  sendState?: 'queued' | 'sending' | 'sent' | 'failed' | null
  providerData?: string | null
  mediaType?: string
  remoteJid?: string | null
}

/** A message row written straight into the database (an inbound one unless `fromMe`). */
export function addMessage(
  h: Harness,
  ticket: { id: number; companyId: number; contactId: number },
  m: MessageFixture = {},
) {
  widSeq += 1
  const now = m.createdAt ?? h.clock.now()
  const fromMe = !!m.fromMe
  const contactNumber = h.deps.sqlite
    .query<{ number: string | null }, [number]>('SELECT number FROM contacts WHERE id = ?')
    .get(ticket.contactId)?.number
  return h.deps.sqlite
    .query<{ id: number }, (string | number | null)[]>(
      `INSERT INTO messages (company_id, ticket_id, contact_id, wid, remote_jid, body, from_me, read, is_private,
                             send_state, provider_data, media_type, ack, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    )
    .get(
      ticket.companyId,
      ticket.id,
      ticket.contactId,
      m.wid === undefined ? `WID${widSeq}` : m.wid,
      m.remoteJid === undefined ? `${contactNumber}@s.whatsapp.net` : m.remoteJid,
      m.body ?? `mensagem ${widSeq}`,
      fromMe ? 1 : 0,
      (m.read ?? fromMe) ? 1 : 0,
      m.isPrivate ? 1 : 0,
      m.sendState === undefined ? (fromMe ? 'sent' : null) : m.sendState,
      m.providerData ?? null,
      m.mediaType ?? 'chat',
      fromMe ? 1 : 0,
      now,
      now,
    )!.id
}

export type SentCall = {
  method: 'send' | 'forward'
  to: ContactRef
  content?: OutboundContent
  options?: SendOptions
  source?: MsgRef
  raw?: Uint8Array
  /** The message's row as the send began: proves the row was written first. */
  rowAtSend?: { sendState: string | null; ack: number } | null
}

/**
 * Records each send and forward the session receives, with the options and the row's state at that moment;
 * `fail` makes the next sends throw (an Error, or an AppError to test codes).
 */
export function spyOnSends(h: Harness, session: FakeSession) {
  const calls: SentCall[] = []
  const state = { fail: null as Error | null, counter: 0 }
  const rowNow = () =>
    h.deps.sqlite
      .query<{ sendState: string | null; ack: number }, []>(
        `SELECT send_state AS sendState, ack FROM messages WHERE send_state = 'sending' ORDER BY id DESC LIMIT 1`,
      )
      .get()
  session.send = async (to: ContactRef, content: OutboundContent, options?: SendOptions) => {
    const call: SentCall = { method: 'send', to, content, rowAtSend: rowNow() }
    if (options) call.options = options
    calls.push(call)
    if (state.fail) throw state.fail
    state.counter += 1
    return { id: `SENT${state.counter}`, chatJid: to.jid, fromMe: true }
  }
  ;(session as ChannelSession).forward = async (to: ContactRef, source: MsgRef, raw: Uint8Array) => {
    calls.push({ method: 'forward', to, source, raw, rowAtSend: rowNow() })
    if (state.fail) throw state.fail
    state.counter += 1
    return { id: `FWD${state.counter}`, chatJid: to.jid, fromMe: true }
  }
  return { calls, state }
}

export function messageRow(h: Harness, id: number) {
  return h.deps.sqlite
    .query<
      {
        id: number
        ticketId: number
        body: string
        wid: string | null
        ack: number
        read: number
        sendState: string | null
        sendError: string | null
        sendAttempts: number
        isDeleted: number
        isEdited: number
        oldMessages: string | null
        mediaPath: string | null
        mediaMime: string | null
        mediaType: string
        ptt: number
      },
      [number]
    >(
      `SELECT id, ticket_id AS ticketId, body, wid, ack, read, send_state AS sendState, send_error AS sendError,
              send_attempts AS sendAttempts, is_deleted AS isDeleted, is_edited AS isEdited,
              old_messages AS oldMessages, media_path AS mediaPath, media_mime AS mediaMime,
              media_type AS mediaType, ptt
         FROM messages WHERE id = ?`,
    )
    .get(id)!
}
