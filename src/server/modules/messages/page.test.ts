import { describe, expect, test } from 'bun:test'
import type { Ctx, UserActor } from '../../context'
import { RICH_MESSAGE } from '../../db/schema/messages'
import { createHarness, type Harness } from '../../test/harness'
import { canSeeTicket, loadActorScope } from '../tickets/access'
import { loadTicketDto, loadTicketDtos } from '../tickets/dto'
import { makeTicket } from '../tickets/testing'
import { MESSAGE_SELECT, type MessageSqlRow, messageDtosOf } from './dto'
import { pageDtos, pageRows, readerOf } from './page'
import { addMessage, conversation } from './testing'

function insertQueue(h: Harness, companyId: number, name: string, color: string) {
  return h.deps.sqlite
    .query<{ id: number }, [number, string, string, number, number]>(
      'INSERT INTO queues (company_id, name, color, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id',
    )
    .get(companyId, name, color, 1, 1)!.id
}

function insertTag(h: Harness, companyId: number, ticketId: number, name: string) {
  const id = h.deps.sqlite
    .query<{ id: number }, [number, string, number, number]>(
      `INSERT INTO tags (company_id, name, color, created_at, updated_at) VALUES (?, ?, '#000', ?, ?) RETURNING id`,
    )
    .get(companyId, name, 1, 1)!.id
  h.deps.sqlite.query('INSERT INTO ticket_tags (ticket_id, tag_id) VALUES (?, ?)').run(ticketId, id)
}

const oldestFirst = (h: Harness, ticketId: number) =>
  h.deps.sqlite
    .query<MessageSqlRow, [number]>(`${MESSAGE_SELECT} WHERE m.ticket_id = ? ORDER BY m.created_at, m.id`)
    .all(ticketId)

describe('the conversation page reads the same answer as the general loaders', () => {
  test('loadTicketDto is loadTicketDtos of one id', async () => {
    const h = await createHarness()
    const { ticket } = await conversation(h, h.a.id, { userId: h.a.attendantId })
    const queueId = insertQueue(h, h.a.id, 'Vendas', '#123456')
    const bare = makeTicket(h, h.a.id, { status: 'closed', isGroup: true, unread: 3 })
    const queued = makeTicket(h, h.a.id, { queueId, lastMessage: 'oi' })
    insertTag(h, h.a.id, queued.id, 'zeta')
    insertTag(h, h.a.id, queued.id, 'alfa')
    for (const id of [ticket.id, bare.id, queued.id])
      expect(loadTicketDto(h.deps.sqlite, id)).toEqual(loadTicketDtos(h.deps.sqlite, [id])[0]!)
    expect(loadTicketDto(h.deps.sqlite, queued.id)!.tags.map((t) => t.name)).toEqual(['alfa', 'zeta'])
    expect(loadTicketDto(h.deps.sqlite, 999_999)).toBeUndefined()
  })

  test('pageDtos is messageDtosOf: media, edits, quotes, reactions, acks, other contacts', async () => {
    const h = await createHarness()
    const { ticket } = await conversation(h, h.a.id)
    const t0 = h.clock.now() - 60_000
    const ids = Array.from({ length: 9 }, (_, i) =>
      addMessage(h, ticket, { body: `m${i}`, createdAt: t0 + i * 1000, fromMe: i % 2 === 0 }),
    )
    const sql = h.deps.sqlite
    sql.query(`UPDATE messages SET ack = ? WHERE id = ?`).run(7, ids[0]!)
    sql.query(`UPDATE messages SET ack = ? WHERE id = ?`).run(-1, ids[1]!)
    sql
      .query(`UPDATE messages SET ack = 3, updated_at = updated_at + 1234, user_id = ? WHERE id = ?`)
      .run(h.a.adminId, ids[2]!)
    sql
      .query(
        `UPDATE messages SET media_type = 'image', media_state = 'stored', media_path = 'a/b.jpg',
                media_name = 'b.jpg', media_mime = 'image/jpeg', media_size = 1234, ptt = 1 WHERE id = ?`,
      )
      .run(ids[3]!)
    sql.query(`UPDATE messages SET is_edited = 1, old_messages = ? WHERE id = ?`).run(
      JSON.stringify([
        { body: 'antes', createdAt: t0 },
        { body: 'x', createdAt: '2026-01-02T03:04:05Z' },
      ]),
      ids[4]!,
    )
    sql
      .query('UPDATE messages SET quoted_msg_id = ?, participant_name = ? WHERE id = ?')
      .run(ids[0]!, 'Ana', ids[5]!)
    sql
      .query(`UPDATE messages SET send_state = 'failed', send_error = 'boom', is_deleted = 1 WHERE id = ?`)
      .run(ids[6]!)
    sql.query('UPDATE messages SET contact_id = NULL, is_private = 1, read = 1 WHERE id = ?').run(ids[7]!)
    sql
      .query(
        `INSERT INTO message_reactions (company_id, message_id, sender, sender_name, emoji, created_at)
         VALUES (?, ?, 'me', NULL, '👍', 1), (?, ?, 'x@s.whatsapp.net', 'Ana', '❤️', 2), (?, ?, 'y', NULL, '', 3)`,
      )
      .run(h.a.id, ids[8]!, h.a.id, ids[8]!, h.a.id, ids[2]!)
    const general = messageDtosOf(h.deps, oldestFirst(h, ticket.id))
    const page = pageDtos(h.deps, ticket, pageRows(sql, ticket, 50, 0).reverse())
    expect(page).toEqual(general)
    expect(JSON.stringify(page)).toBe(JSON.stringify(general))
    expect(page[3]!.mediaUrl).toStartWith(`/api/media/${h.a.id}/a/b.jpg?exp=`)
    expect(page[8]!.reactions).toHaveLength(2)
    // A page without any reaction or quote.
    const plain = pageRows(sql, ticket, 2, 2).reverse()
    expect(pageDtos(h.deps, ticket, plain)).toEqual(
      messageDtosOf(h.deps, oldestFirst(h, ticket.id).slice(-4, -2)),
    )
  })

  test('a page finds its rich messages through the partial index, which holds no plain message', async () => {
    const h = await createHarness()
    const { ticket } = await conversation(h, h.a.id)
    const plain = addMessage(h, ticket, { body: 'oi' })
    const quoting = addMessage(h, ticket, { body: 're' })
    h.deps.sqlite.query('UPDATE messages SET quoted_msg_id = ? WHERE id = ?').run(plain, quoting)
    const plan = h.deps.sqlite
      .query<{ detail: string }, []>(
        `EXPLAIN QUERY PLAN SELECT id FROM messages WHERE ticket_id = 1 AND id BETWEEN 1 AND 9 AND ${RICH_MESSAGE}`,
      )
      .all()
      .map((r) => r.detail)
      .join(' ')
    expect(plan).toContain('messages_rich')
    const indexed = h.deps.sqlite
      .query<{ id: number }, []>(`SELECT id FROM messages INDEXED BY messages_rich WHERE ${RICH_MESSAGE}`)
      .all()
      .map((r) => r.id)
    expect(indexed).toEqual([quoting])
    const page = pageDtos(h.deps, ticket, pageRows(h.deps.sqlite, ticket, 20, 0).reverse())
    expect(page.find((m) => m.id === quoting)!.quotedMsg).toMatchObject({ id: plain, body: 'oi' })
  })

  test('readerOf follows the access rule of tickets/access.ts', async () => {
    const h = await createHarness()
    const queueId = insertQueue(h, h.a.id, 'Suporte', '#654321')
    const other = insertQueue(h, h.a.id, 'Outra', '#111111')
    h.deps.sqlite
      .query('INSERT INTO user_queues (user_id, queue_id) VALUES (?, ?)')
      .run(h.a.attendantId, queueId)
    const tickets = [
      makeTicket(h, h.a.id, { queueId }),
      makeTicket(h, h.a.id, { queueId: other }),
      makeTicket(h, h.a.id, { queueId: other, userId: h.a.attendantId }),
      makeTicket(h, h.a.id, {}),
    ].map((t) => loadTicketDto(h.deps.sqlite, t.id)!)
    for (const allTicket of ['enable', 'disable'])
      for (const userId of [h.a.adminId, h.a.attendantId]) {
        h.deps.sqlite.query('UPDATE users SET all_ticket = ? WHERE id = ?').run(allTicket, userId)
        const row = h.deps.sqlite
          .query<{ profile: 'admin' | 'user'; isTricked: 'enabled' | 'disabled' }, [number]>(
            'SELECT profile, is_tricked AS isTricked FROM users WHERE id = ?',
          )
          .get(userId)!
        const actor: UserActor = {
          kind: 'user',
          userId,
          companyId: h.a.id,
          profile: row.profile,
          super: false,
          sessionId: 's',
          isTricked: row.isTricked,
        }
        const scope = loadActorScope(h.deps.sqlite, actor)
        for (const withFlag of [actor, { ...actor, isTricked: undefined }]) {
          const ctx = { ...h.deps, actor: withFlag } as Ctx
          for (const t of tickets) {
            const sees = canSeeTicket(scope, t)
            if (sees) expect(readerOf(ctx, t)).toEqual({ userId, isTricked: scope.isTricked })
            else expect(() => readerOf(ctx, t)).toThrow('Acesso não permitido')
          }
        }
      }
  })
})

describe('GET /messages/{ticketId} answered again', () => {
  test('shows every change made since: a message, an ack, a contact, a tag, the reader', async () => {
    const h = await createHarness()
    const { ticket, contact } = await conversation(h, h.a.id)
    addMessage(h, ticket, { body: 'primeira', read: true })
    const admin = await h.as(h.a.admin)
    const first = await admin.get(`/messages/${ticket.id}`)
    expect((await admin.get(`/messages/${ticket.id}`)).body).toEqual(first.body)
    const second = addMessage(h, ticket, { body: 'segunda', read: true })
    let body = (await admin.get(`/messages/${ticket.id}`)).body
    expect(body.messages.map((m: { body: string }) => m.body)).toEqual(['primeira', 'segunda'])
    expect(body.count).toBe(2)
    h.deps.sqlite.query('UPDATE messages SET ack = 3 WHERE id = ?').run(second)
    h.deps.sqlite.query('UPDATE contacts SET name = ? WHERE id = ?').run('Nome Novo', contact.id)
    insertTag(h, h.a.id, ticket.id, 'vip')
    body = (await admin.get(`/messages/${ticket.id}`)).body
    expect(body.messages[1].ack).toBe(3)
    expect(body.ticket.contact.name).toBe('Nome Novo')
    expect(body.ticket.tags.map((t: { name: string }) => t.name)).toEqual(['vip'])
    // The same page for another reader: their own masking and access.
    h.deps.sqlite.query(`UPDATE users SET is_tricked = 'disabled' WHERE id = ?`).run(h.a.attendantId)
    const agent = await h.as(h.a.attendant)
    expect((await agent.get(`/messages/${ticket.id}`)).status).toBe(403)
    const other = await h.as(h.b.admin)
    expect((await other.get(`/messages/${ticket.id}`)).status).toBe(404)
    h.deps.sqlite.query('UPDATE tickets SET user_id = ? WHERE id = ?').run(h.a.attendantId, ticket.id)
    const seen = (await agent.get(`/messages/${ticket.id}`)).body
    expect(seen.ticket.contact.number).toEndWith('****')
    expect((await admin.get(`/messages/${ticket.id}`)).body.ticket.contact.number).toBe(contact.number)
  })

  test('a new unread message is marked read when the page is opened again', async () => {
    const h = await createHarness()
    const { ticket } = await conversation(h, h.a.id)
    addMessage(h, ticket, { body: 'oi', read: true })
    const admin = await h.as(h.a.admin)
    await admin.get(`/messages/${ticket.id}`)
    addMessage(h, ticket, { body: 'nova' })
    h.deps.sqlite.query('UPDATE tickets SET unread_messages = 1 WHERE id = ?').run(ticket.id)
    const body = (await admin.get(`/messages/${ticket.id}`)).body
    expect(body.ticket.unreadMessages).toBe(0)
    expect(body.messages.map((m: { read: boolean }) => m.read)).toEqual([true, true])
    const again = (await admin.get(`/messages/${ticket.id}`)).body
    expect(again).toEqual(body)
  })

  test('signed media links follow the clock', async () => {
    const h = await createHarness()
    const { ticket } = await conversation(h, h.a.id)
    const id = addMessage(h, ticket, { body: '', read: true })
    h.deps.sqlite
      .query(
        `UPDATE messages SET media_type = 'image', media_state = 'stored', media_path = 'f.jpg' WHERE id = ?`,
      )
      .run(id)
    const admin = await h.as(h.a.admin)
    // Links expire on the hour: one millisecond past it gives a later expiry.
    h.clock.set(Math.ceil(h.clock.now() / 3_600_000) * 3_600_000)
    const before = (await admin.get(`/messages/${ticket.id}`)).body.messages[0].mediaUrl
    expect((await admin.get(`/messages/${ticket.id}`)).body.messages[0].mediaUrl).toBe(before)
    h.clock.set(h.clock.now() + 1)
    const after = (await admin.get(`/messages/${ticket.id}`)).body.messages[0].mediaUrl
    expect(after).not.toBe(before)
    expect(after).toStartWith(`/api/media/${h.a.id}/f.jpg?exp=`)
  })
})
