import type { Database } from 'bun:sqlite'
import { stmt } from '../../db/statements'

/**
 * The closed ticket of this contact and connection still waiting for its rating (chatbot/ratings.ts), if any: the
 * customer's answer lands on it instead of opening a new ticket (inbound.ts).
 */
export function awaitingRating(
  sqlite: Database,
  companyId: number,
  contactId: number,
  whatsappId: number,
  now: number,
): number | null {
  return (
    stmt<{ id: number }, [number, number, number, number]>(
      sqlite,
      `SELECT s.ticket_id AS id FROM chatbot_sessions s JOIN tickets t ON t.id = s.ticket_id
        WHERE s.whatsapp_id = ? AND s.contact_id = ? AND s.node = 'nps' AND s.expires_at > ?
          AND t.status = 'closed' AND t.company_id = ?
        ORDER BY s.ticket_id DESC LIMIT 1`,
    ).get(whatsappId, contactId, now, companyId)?.id ?? null
  )
}
