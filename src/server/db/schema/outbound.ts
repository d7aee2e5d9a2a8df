import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { whatsapps } from './whatsapps'

/**
 * What a connection's outbound door (modules/outbound/door.ts) must remember across a restart: when the number
 * last handed a message to WhatsApp, whichever sender (the pace counts from it), and the restriction WhatsApp
 * answered with (463, the reach-out time lock), which holds the number's outreach until an admin resumes it.
 * One row per connection that ever sent; no row is a number that never did.
 */
export const connectionDoors = sqliteTable('connection_doors', {
  whatsappId: integer('whatsapp_id')
    .primaryKey()
    .references(() => whatsapps.id, { onDelete: 'cascade' }),
  lastSentAt: integer('last_sent_at'),
  /** WhatsApp refused a send as restricted: since, until (when WhatsApp said), why. Admins see it as health. */
  restrictedAt: integer('restricted_at'),
  restrictedUntil: integer('restricted_until'),
  restrictionDetail: text('restriction_detail'),
})

export type ConnectionDoorRow = typeof connectionDoors.$inferSelect
