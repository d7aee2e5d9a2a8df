import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { users } from './users'

/**
 * Internal chat (spec 2): a conversation between users of one company. `owner_id` is who created it (only they
 * edit or delete it); a deleted owner leaves the chat ownerless for the others. `last_message` is the preview
 * the list shows; `updated_at` moves with every message, so the list's order is one index read.
 */
export const chats = sqliteTable(
  'chats',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    uuid: text('uuid').notNull(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    lastMessage: text('last_message').notNull().default(''),
    ...timestamps,
  },
  (t) => [uniqueIndex('chats_uuid').on(t.uuid), index('chats_company').on(t.companyId, t.updatedAt)],
)

/**
 * A member of a chat and how many of its messages they have not read. `updated_at` copies the chat's, so a
 * user's chats, newest first, are one index range (`chat_users_user_updated`) with no join to sort by.
 */
export const chatUsers = sqliteTable(
  'chat_users',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    unreads: integer('unreads').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('chat_users_chat_user').on(t.chatId, t.userId),
    index('chat_users_user_updated').on(t.userId, t.updatedAt),
  ],
)

/** A message of a chat. A deleted sender leaves their messages with no sender (the others keep the history). */
export const chatMessages = sqliteTable(
  'chat_messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('chat_messages_chat').on(t.chatId, t.id)],
)

export type ChatRow = typeof chats.$inferSelect
export type ChatUserRow = typeof chatUsers.$inferSelect
export type ChatMessageRow = typeof chatMessages.$inferSelect
