import { integer } from 'drizzle-orm/sqlite-core'

/** Timestamps are epoch milliseconds kept as numbers until the response (Date objects are slow on hot paths). */
export const timestamps = {
  createdAt: integer('created_at').notNull(),
  updatedAt: integer('updated_at').notNull(),
}
