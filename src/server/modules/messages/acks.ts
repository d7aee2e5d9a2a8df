import type { MessageAck } from '../../../shared/api'
import { recordHealth } from '../../channels/health'
import type { Ack } from '../../channels/types'
import { type Deps, transact } from '../../context'
import { publishMessageUpdates } from './live'

/**
 * The one place a provider's delivery status becomes the spec's ack. Channels already report in the spec's
 * numbering (normalize maps Baileys' status: ERROR 0 -> -1, PENDING 1 -> 0, SERVER_ACK 2 -> 1,
 * DELIVERY_ACK 3 -> 2, READ 4 -> 4, PLAYED 5 -> 5; groups aggregate to 3 "delivered to all"):
 *
 * | channel | spec ack |
 * |---|---|
 * | -1 error | none: an error receipt changes nothing (the send itself reports failures) |
 * | 0 pending | 0 |
 * | 1 sent (the server has it) | 1 |
 * | 2 delivered | 2 |
 * | 3 delivered to all (groups) | 3 |
 * | 4 read | 4 |
 * | 5 played (voice notes) | 4 (read) |
 */
export function ackFromChannel(ack: Ack | number): MessageAck | null {
  switch (ack) {
    case 0:
      return 0
    case 1:
      return 1
    case 2:
      return 2
    case 3:
      return 3
    case 4:
    case 5:
      return 4
    default:
      return null
  }
}

type Acked = { id: number; ticketId: number; fromMe: number }

/**
 * Records a receipt for the message the provider knows as `wid`: the ack only ever moves forward (an older
 * receipt arriving late changes nothing), and a message marked failed that WhatsApp reports as sent is sent
 * after all. Publishes the message's update live. Returns whether anything changed. A send acknowledged (ack 1
 * or more) is, in the same transaction, the connection's last acknowledged send (its health).
 */
export function applyAck(
  deps: Deps,
  companyId: number,
  wid: string,
  ack: Ack | number,
  connectionId?: number,
): boolean {
  const value = ackFromChannel(ack)
  if (value === null || !wid) return false
  return transact(deps, (sqlite, events) => {
    const row = sqlite
      .query<Acked, [number, number, number, string, number]>(
        `UPDATE messages
            SET ack = ?1, updated_at = ?2,
                send_state = CASE WHEN from_me = 1 AND ?1 >= 1 AND send_state IN ('failed', 'sending', 'queued') THEN 'sent' ELSE send_state END,
                send_error = CASE WHEN from_me = 1 AND ?1 >= 1 THEN NULL ELSE send_error END
          WHERE company_id = ?3 AND wid = ?4 AND ack < ?5
          RETURNING id, ticket_id AS ticketId, from_me AS fromMe`,
      )
      .get(value, deps.clock.now(), companyId, wid, value)
    if (!row) return false
    if (row.fromMe && value >= 1 && connectionId !== undefined)
      recordHealth(sqlite, connectionId, { lastAckedAt: deps.clock.now() })
    publishMessageUpdates(deps, sqlite, events, row.ticketId, [row.id])
    return true
  })
}
