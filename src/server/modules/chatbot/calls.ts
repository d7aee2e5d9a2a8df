/**
 * The `call` setting: when it is 'disabled' (the default), a voice or video call to a connection is declined and
 * the caller is told, in their conversation (found or opened like a message would be), to write instead. When
 * 'enabled', calls ring on the phone as usual and the inbox does nothing. Group calls are left alone.
 */

import { SETTINGS } from '../../../shared/settings'
import type { CallOffer, ChannelEvent } from '../../channels/types'
import type { Deps } from '../../context'
import { transact } from '../../context'
import { stmt } from '../../db/statements'
import { resolveInboundContact } from '../contacts/resolve'
import { lidDigits } from '../inbound/jids'
import { afterOutboundCommit } from '../messages/outbound'
import { findOrOpenInboundTicket } from '../tickets/inbound'
import { loadBotTicket } from '../tickets/system'
import { writeTemplate } from './apply'
import { botSettings } from './context'

export const CALL_REJECTED_NOTICE =
  '*Mensagem automática:* as chamadas de voz e vídeo estão desabilitadas neste WhatsApp. Por favor, envie uma mensagem de texto. Obrigado!'

/** Listens to the sessions' call offers (serve.ts and tests, through startChatbot). Returns the removal. */
export function listenToCalls(deps: Deps): () => void {
  return deps.channels.onEvent((conn, event: ChannelEvent) => {
    if (event.t === 'call') return handleCall(deps, conn, event)
  })
}

/** One call offer: declined with a notice when the company's `call` setting is 'disabled'. */
export async function handleCall(deps: Deps, conn: { id: number; companyId: number }, call: CallOffer) {
  if (call.isGroup) return
  const allowed =
    stmt<{ value: string }, [number]>(
      deps.sqlite,
      "SELECT value FROM settings WHERE company_id = ? AND key = 'call'",
    ).get(conn.companyId)?.value ?? SETTINGS.call.default
  if (allowed === 'enabled') return
  const session = deps.channels.session(conn.id)
  try {
    await session?.rejectCall?.({ id: call.id, from: call.from })
  } catch (err) {
    deps.log.warn('call not rejected', { connectionId: conn.id, error: (err as Error).message })
  }
  const number = call.from.pn ?? null
  const lid = lidDigits(call.from.lid)
  if (!number && !lid) return
  const ids = transact(deps, (sqlite, events) => {
    const now = deps.clock.now()
    const { contact } = resolveInboundContact(
      sqlite,
      conn.companyId,
      { number, lid, name: null, isGroup: false, whatsappId: conn.id },
      now,
      events,
    )
    const { ticket } = findOrOpenInboundTicket(
      sqlite,
      { companyId: conn.companyId, contactId: contact.id, whatsappId: conn.id, isGroup: false, now },
      events,
    )
    const row = loadBotTicket(sqlite, ticket.id)
    if (!row) return []
    return writeTemplate(
      deps,
      sqlite,
      events,
      row,
      CALL_REJECTED_NOTICE,
      botSettings(sqlite, conn.companyId).timeZone,
    )
  })
  if (ids.length) void afterOutboundCommit(deps, ids)
}
