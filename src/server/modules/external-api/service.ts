import type { MessageDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import { normalizeNumber } from '../../../shared/numbers'
import type { ApiTokenActor, Ctx } from '../../context'
import { transact } from '../../context'
import type { UploadedMedia } from '../../media/upload'
import { resolveInboundContact } from '../contacts/resolve'
import { loadMessageDtos } from '../messages/dto'
import { afterOutboundCommit, writeOutboundMessages } from '../messages/outbound'
import { storeUploads } from '../messages/service'
import { doorOf } from '../outbound/door'
import { findOrOpenInboundTicket } from '../tickets/inbound'

export type ExternalSendInput = { number: string; body: string; uploads: UploadedMedia[] }

export type ExternalSendResult = {
  message: string
  ticketId: number
  contactId: number
  messages: MessageDto[]
}

const invalidContact = () =>
  new AppError('ERR_WAPP_INVALID_CONTACT', 'This number is not a valid WhatsApp number')

/**
 * `POST /api/messages/send` for a connection's token: checks the number with WhatsApp, finds or creates the
 * contact and its ticket on this connection (a new one waits in pending like any customer's), writes the
 * message there as any other outbound message, and waits for the send's outcome. The message appears in the
 * ticket live like one an attendant wrote.
 */
export async function externalSend(
  ctx: Ctx<ApiTokenActor>,
  input: ExternalSendInput,
): Promise<ExternalSendResult> {
  const digits = normalizeNumber(input.number)
  if (!digits || digits.length < 8 || digits.length > 15 || /[a-z@]/i.test(input.number))
    throw invalidContact()
  if (!input.body && !input.uploads.length)
    throw new AppError('ERR_VALIDATION', 'Write a message or attach a file', undefined, [
      { field: 'body', message: 'must not be empty' },
    ])
  const whatsappId = ctx.actor.whatsappId
  const door = doorOf(ctx, whatsappId)
  if (!door.connected)
    throw new AppError(
      'ERR_WAPP_NOT_INITIALIZED',
      'The connection of this token is not connected to WhatsApp',
    )
  let check: { exists: boolean; jid?: string } | undefined
  try {
    check = (await door.turn('conversation', (turn) => turn.check([digits])))[0]
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') throw err
    throw new AppError('ERR_WAPP_CHECK_CONTACT', (err as Error).message)
  }
  if (!check?.exists) throw invalidContact()
  // The number as WhatsApp knows it (a Brazilian mobile may be registered without its ninth digit).
  const jid = check.jid ?? ''
  const known = jid.endsWith('@s.whatsapp.net') ? (normalizeNumber(jid) ?? digits) : digits
  const lid = jid.endsWith('@lid') ? jid.slice(0, -4) : null
  const media = storeUploads(ctx, input.uploads)
  const companyId = ctx.actor.companyId
  const { ids, ticketId, contactId } = transact(ctx, (tx, events) => {
    const now = ctx.clock.now()
    const { contact } = resolveInboundContact(
      tx,
      companyId,
      { number: known, lid, name: null, isGroup: false, whatsappId },
      now,
      events,
    )
    const { ticket } = findOrOpenInboundTicket(
      tx,
      { companyId, contactId: contact.id, whatsappId, isGroup: false, now },
      events,
    )
    const written = writeOutboundMessages(ctx, tx, events, ticket, { body: input.body, media })
    return { ids: written, ticketId: ticket.id, contactId: contact.id }
  })
  await afterOutboundCommit(ctx, ids)
  const messages = loadMessageDtos(ctx, ids)
  const failed = messages.find((m) => m.sendState === 'failed')
  if (failed) {
    throw new AppError('ERR_SENDING_WAPP_MSG', failed.sendError ?? 'The message could not be sent', {
      ticketId,
      messageIds: ids,
      retry: `/api/messages/${failed.id}/retry`,
    })
  }
  return { message: 'Message sent', ticketId, contactId, messages }
}
