/**
 * Internal chat (spec 2): conversations between users of one company. Only members see a chat and its messages
 * (anyone else, and another company, gets ERR_NO_CHAT_FOUND); only its owner edits or deletes it. Each member
 * keeps an unread count: a message adds one for every member but its sender; opening the chat zeroes the
 * reader's own (never anyone else's).
 *
 * Live, after commit, to each member's user room only: `chat` (create, update, delete: a removed member gets
 * delete), `chat-user` (one member's unread count, to that member) and `chat-{id}` (new-message, with the chat).
 * A new message also sends `chat` update, so a list that follows only `chat` keeps its order and previews.
 */

import type { Database } from 'bun:sqlite'
import {
  CHAT_MESSAGES_PAGE_SIZE,
  CHATS_PAGE_SIZE,
  type ChatDto,
  type ChatMessageDto,
  type ChatMessagesPage,
  type ChatsPage,
  UNREAD_CHATS_MAX,
  type UnreadChats,
} from '../../../shared/chats'
import { AppError, fieldError } from '../../../shared/errors'
import type {
  ChatInput,
  ChatMessageInput,
  ChatMessagesQuery,
  ListChatsQuery,
} from '../../../shared/schemas/chats'
import { isoString } from '../../clock'
import type { Ctx, UserActor } from '../../context'
import { transact, userActor } from '../../context'
import { companyDirectory } from '../../db/directory'
import { pageCount, pageOf, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'

type RawChat = {
  id: number
  uuid: string
  companyId: number
  ownerId: number | null
  title: string
  lastMessage: string
  createdAt: number
  updatedAt: number
}

type RawMember = { chatId: number; userId: number; unreads: number }

type RawMessage = {
  id: number
  chatId: number
  senderId: number | null
  message: string
  createdAt: number
}

const COLUMNS = `c.id, c.uuid, c.company_id AS companyId, c.owner_id AS ownerId, c.title,
  c.last_message AS lastMessage, c.created_at AS createdAt, c.updated_at AS updatedAt`

/** The actor is a member: the one condition under which a chat exists for them. */
const MEMBER = 'EXISTS (SELECT 1 FROM chat_users m WHERE m.chat_id = c.id AND m.user_id = $userId)'

const notFound = () => new AppError('ERR_NO_CHAT_FOUND', 'Chat not found')

type Who = { companyId: number; userId: number }

/** The one way to load a chat: by id, in the actor's company, with the actor among its members. */
function chatRow(sqlite: Database, who: Who, id: number): RawChat {
  const row = stmt<RawChat, [{ id: number; companyId: number; userId: number }]>(
    sqlite,
    `SELECT ${COLUMNS} FROM chats c WHERE c.id = $id AND c.company_id = $companyId AND ${MEMBER}`,
  ).get({ id, companyId: who.companyId, userId: who.userId })
  if (!row) throw notFound()
  return row
}

function chatRowByUuid(sqlite: Database, who: Who, uuid: string): RawChat {
  const row = stmt<RawChat, [{ uuid: string; companyId: number; userId: number }]>(
    sqlite,
    `SELECT ${COLUMNS} FROM chats c WHERE c.uuid = $uuid AND c.company_id = $companyId AND ${MEMBER}`,
  ).get({ uuid, companyId: who.companyId, userId: who.userId })
  if (!row) throw notFound()
  return row
}

/** The members of the given chats, by chat, in the order they joined. */
function membersOf(sqlite: Database, chatIds: number[]): Map<number, RawMember[]> {
  const byChat = new Map<number, RawMember[]>()
  if (chatIds.length === 0) return byChat
  const rows = stmt<RawMember, [string]>(
    sqlite,
    `SELECT chat_id AS chatId, user_id AS userId, unreads FROM chat_users
      WHERE chat_id IN (SELECT value FROM json_each(?)) ORDER BY chat_id, id`,
  ).all(JSON.stringify(chatIds))
  for (const r of rows) {
    let list = byChat.get(r.chatId)
    if (!list) {
      list = []
      byChat.set(r.chatId, list)
    }
    list.push(r)
  }
  return byChat
}

function toChatDtos(sqlite: Database, companyId: number, rows: RawChat[]): ChatDto[] {
  if (rows.length === 0) return []
  const names = companyDirectory(sqlite, companyId).users
  const members = membersOf(
    sqlite,
    rows.map((r) => r.id),
  )
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    title: r.title,
    ownerId: r.ownerId,
    lastMessage: r.lastMessage,
    createdAt: isoString(r.createdAt),
    updatedAt: isoString(r.updatedAt),
    users: (members.get(r.id) ?? []).map((m) => ({
      userId: m.userId,
      unreads: m.unreads,
      user: { id: m.userId, name: names.get(m.userId) ?? '' },
    })),
  }))
}

function toChatDto(sqlite: Database, row: RawChat): ChatDto {
  return toChatDtos(sqlite, row.companyId, [row])[0] as ChatDto
}

function toMessageDtos(sqlite: Database, companyId: number, rows: RawMessage[]): ChatMessageDto[] {
  if (rows.length === 0) return []
  const names = companyDirectory(sqlite, companyId).users
  return rows.map((r) => {
    const name = r.senderId == null ? undefined : names.get(r.senderId)
    return {
      id: r.id,
      chatId: r.chatId,
      message: r.message,
      senderId: name === undefined ? null : r.senderId,
      sender: name === undefined || r.senderId == null ? null : { id: r.senderId, name },
      createdAt: isoString(r.createdAt),
    }
  })
}

/** Only the owner edits or deletes a chat (a member who is not gets 403; a non-member never gets this far). */
function assertOwner(actor: UserActor, row: RawChat) {
  if (row.ownerId !== actor.userId)
    throw new AppError('ERR_NO_PERMISSION', 'Only the owner of this chat can change or delete it')
}

/**
 * The members a body names, plus the owner, each once. Every one must be a user of the actor's company (a 400
 * otherwise: a chat never gets a member from another company), and at least one besides the owner.
 */
function membersFor(sqlite: Database, actor: UserActor, input: ChatInput): number[] {
  const others = [...new Set(input.users)].filter((id) => id !== actor.userId)
  if (others.length === 0) throw fieldError('users', 'Select at least one other user')
  const found = stmt<{ id: number }, [number, string]>(
    sqlite,
    'SELECT id FROM users WHERE company_id = ? AND id IN (SELECT value FROM json_each(?))',
  ).all(actor.companyId, JSON.stringify(others))
  if (found.length !== others.length) throw fieldError('users', 'Every user must belong to your company')
  return [actor.userId, ...others]
}

const chatEvent = (companyId: number) => channel(companyId, 'chat')

function publishChat(events: EventBuffer, record: ChatDto, companyId: number, action: 'create' | 'update') {
  for (const m of record.users)
    events.publish(rooms.user(companyId, m.userId), chatEvent(companyId), { action, record })
}

/** `GET /chats`: the actor's chats, 20 a page, the most recently active first, searched in the title. */
export function listChats(ctx: Ctx, query: ListChatsQuery): ChatsPage {
  const actor = userActor(ctx)
  const at = pageWindow(query.pageNumber, CHATS_PAGE_SIZE)
  const rows = stmt<
    RawChat,
    [{ userId: number; companyId: number; term: string | null; limit: number; offset: number }]
  >(
    ctx.sqlite,
    `SELECT ${COLUMNS} FROM chat_users cu JOIN chats c ON c.id = cu.chat_id
      WHERE cu.user_id = $userId AND cu.company_id = $companyId
        AND ($term IS NULL OR instr(lower(c.title), lower($term)) > 0)
      ORDER BY cu.updated_at DESC, cu.chat_id DESC LIMIT $limit OFFSET $offset`,
  ).all({
    userId: actor.userId,
    companyId: actor.companyId,
    term: query.searchParam?.trim() || null,
    limit: at.limit,
    offset: at.offset,
  })
  const page = pageOf(rows, at)
  return { records: toChatDtos(ctx.sqlite, actor.companyId, page.rows), hasMore: page.hasMore }
}

/** `GET /chats/unread`: the actor's chats with unread messages (the menu dot and the notification popover). */
export function listUnreadChats(ctx: Ctx): UnreadChats {
  const actor = userActor(ctx)
  const rows = stmt<RawChat, [{ userId: number; companyId: number; max: number }]>(
    ctx.sqlite,
    `SELECT ${COLUMNS} FROM chat_users cu JOIN chats c ON c.id = cu.chat_id
      WHERE cu.user_id = $userId AND cu.company_id = $companyId AND cu.unreads > 0
      ORDER BY cu.updated_at DESC, cu.chat_id DESC LIMIT $max`,
  ).all({ userId: actor.userId, companyId: actor.companyId, max: UNREAD_CHATS_MAX })
  return { records: toChatDtos(ctx.sqlite, actor.companyId, rows) }
}

export function getChat(ctx: Ctx, id: number): ChatDto {
  return toChatDto(ctx.sqlite, chatRow(ctx.sqlite, userActor(ctx), id))
}

export function getChatByUuid(ctx: Ctx, uuid: string): ChatDto {
  return toChatDto(ctx.sqlite, chatRowByUuid(ctx.sqlite, userActor(ctx), uuid))
}

/** `POST /chats`: the actor owns it and is a member. */
export function createChat(ctx: Ctx, input: ChatInput): ChatDto {
  const actor = userActor(ctx)
  return transact(ctx, (sqlite, events) => {
    const members = membersFor(sqlite, actor, input)
    const now = ctx.clock.now()
    const { id } = stmt<{ id: number }, [string, number, number, string, number, number]>(
      sqlite,
      `INSERT INTO chats (uuid, company_id, owner_id, title, last_message, created_at, updated_at)
        VALUES (?, ?, ?, ?, '', ?, ?) RETURNING id`,
    ).get(crypto.randomUUID(), actor.companyId, actor.userId, input.title, now, now)!
    const insert = stmt(
      sqlite,
      `INSERT INTO chat_users (chat_id, user_id, company_id, unreads, created_at, updated_at)
        VALUES (?, ?, ?, 0, ?, ?)`,
    )
    for (const userId of members) insert.run(id, userId, actor.companyId, now, now)
    const record = toChatDto(sqlite, chatRow(sqlite, actor, id))
    publishChat(events, record, actor.companyId, 'create')
    return record
  })
}

/** `PUT /chats/{id}`: the owner renames it and sets its members; removed members lose it at once. */
export function updateChat(ctx: Ctx, id: number, input: ChatInput): ChatDto {
  const actor = userActor(ctx)
  return transact(ctx, (sqlite, events) => {
    const current = chatRow(sqlite, actor, id)
    assertOwner(actor, current)
    const wanted = membersFor(sqlite, actor, input)
    const before = (membersOf(sqlite, [id]).get(id) ?? []).map((m) => m.userId)
    const removed = before.filter((u) => !wanted.includes(u))
    const added = wanted.filter((u) => !before.includes(u))
    const now = ctx.clock.now()
    const drop = stmt(sqlite, 'DELETE FROM chat_users WHERE chat_id = ? AND user_id = ?')
    for (const userId of removed) drop.run(id, userId)
    const insert = stmt(
      sqlite,
      `INSERT INTO chat_users (chat_id, user_id, company_id, unreads, created_at, updated_at)
        VALUES (?, ?, ?, 0, ?, ?)`,
    )
    for (const userId of added) insert.run(id, userId, actor.companyId, now, now)
    stmt(sqlite, 'UPDATE chats SET title = ?, updated_at = ? WHERE id = ?').run(input.title, now, id)
    stmt(sqlite, 'UPDATE chat_users SET updated_at = ? WHERE chat_id = ?').run(now, id)
    const record = toChatDto(sqlite, chatRow(sqlite, actor, id))
    const name = chatEvent(actor.companyId)
    for (const userId of removed)
      events.publish(rooms.user(actor.companyId, userId), name, { action: 'delete', id })
    for (const m of record.users)
      events.publish(rooms.user(actor.companyId, m.userId), name, {
        action: added.includes(m.userId) ? 'create' : 'update',
        record,
      })
    return record
  })
}

/** `DELETE /chats/{id}`: the owner only; the chat, its members and messages go, and every member is told. */
export function deleteChat(ctx: Ctx, id: number): void {
  const actor = userActor(ctx)
  transact(ctx, (sqlite, events) => {
    const current = chatRow(sqlite, actor, id)
    assertOwner(actor, current)
    const members = (membersOf(sqlite, [id]).get(id) ?? []).map((m) => m.userId)
    stmt(sqlite, 'DELETE FROM chats WHERE id = ?').run(id)
    for (const userId of members)
      events.publish(rooms.user(actor.companyId, userId), chatEvent(actor.companyId), {
        action: 'delete',
        id,
      })
  })
}

/** `POST /chats/{id}/read`: zeroes the actor's own unread count (the body's userId is never trusted). */
export function markChatRead(ctx: Ctx, id: number): ChatDto {
  const actor = userActor(ctx)
  return transact(ctx, (sqlite, events) => {
    const current = chatRow(sqlite, actor, id)
    const changed = stmt(
      sqlite,
      'UPDATE chat_users SET unreads = 0 WHERE chat_id = ? AND user_id = ? AND unreads <> 0',
    ).run(id, actor.userId).changes
    if (changed > 0)
      events.publish(rooms.user(actor.companyId, actor.userId), channel(actor.companyId, 'chat-user'), {
        action: 'update',
        chatId: id,
        userId: actor.userId,
        unreads: 0,
      })
    return toChatDto(sqlite, current)
  })
}

/** `GET /chats/{id}/messages`: page 1 is the newest 20; each page oldest first; `count` is the chat's total. */
export function listChatMessages(ctx: Ctx, id: number, query: ChatMessagesQuery): ChatMessagesPage {
  const actor = userActor(ctx)
  chatRow(ctx.sqlite, actor, id)
  const at = pageWindow(query.pageNumber, CHAT_MESSAGES_PAGE_SIZE)
  const rows = stmt<RawMessage, [number, number, number]>(
    ctx.sqlite,
    `SELECT id, chat_id AS chatId, sender_id AS senderId, message, created_at AS createdAt
      FROM chat_messages WHERE chat_id = ? ORDER BY id DESC LIMIT ? OFFSET ?`,
  ).all(id, at.limit, at.offset)
  const page = pageOf(rows, at)
  const count = pageCount(
    page,
    () =>
      stmt<{ n: number }, [number]>(
        ctx.sqlite,
        'SELECT count(*) AS n FROM chat_messages WHERE chat_id = ?',
      ).get(id)?.n ?? 0,
  )
  return {
    records: toMessageDtos(ctx.sqlite, actor.companyId, page.rows.reverse()),
    count,
    hasMore: page.hasMore,
  }
}

/**
 * `POST /chats/{id}/messages`: a member writes; every other member's unread count grows by one, the chat's
 * preview and time move. Each member hears the message (`chat-{id}`), the chat (`chat`), and each other member
 * their new unread count (`chat-user`).
 */
export function sendChatMessage(ctx: Ctx, id: number, input: ChatMessageInput): ChatMessageDto {
  const actor = userActor(ctx)
  return transact(ctx, (sqlite, events) => {
    chatRow(sqlite, actor, id)
    const now = ctx.clock.now()
    const inserted = stmt<RawMessage, [number, number, number, string, number]>(
      sqlite,
      `INSERT INTO chat_messages (chat_id, company_id, sender_id, message, created_at) VALUES (?, ?, ?, ?, ?)
        RETURNING id, chat_id AS chatId, sender_id AS senderId, message, created_at AS createdAt`,
    ).get(id, actor.companyId, actor.userId, input.message, now)!
    stmt(sqlite, 'UPDATE chats SET last_message = ?, updated_at = ? WHERE id = ?').run(input.message, now, id)
    stmt(
      sqlite,
      `UPDATE chat_users SET updated_at = ?1, unreads = unreads + (user_id <> ?2) WHERE chat_id = ?3`,
    ).run(now, actor.userId, id)
    const chat = toChatDto(sqlite, chatRow(sqlite, actor, id))
    const message = toMessageDtos(sqlite, actor.companyId, [inserted])[0] as ChatMessageDto
    const companyId = actor.companyId
    for (const m of chat.users) {
      const room = rooms.user(companyId, m.userId)
      events.publish(room, channel(companyId, `chat-${id}`), { action: 'new-message', message, chat })
      events.publish(room, chatEvent(companyId), { action: 'update', record: chat })
      if (m.userId !== actor.userId)
        events.publish(room, channel(companyId, 'chat-user'), {
          action: 'update',
          chatId: id,
          userId: m.userId,
          unreads: m.unreads,
        })
    }
    return message
  })
}
