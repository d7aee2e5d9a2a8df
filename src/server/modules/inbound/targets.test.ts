import { describe, expect, test } from 'bun:test'
import type { MessageDto } from '../../../shared/api'
import { createHarness } from '../../test/harness'
import { count, messagesOf, sandboxHarness, textMessage, ticketsOf } from './testing'

const CUSTOMER = '5511988887777'

type Live = { room: string; event: string; data: unknown }
const updates = (events: Live[], companyId: number) =>
  events
    .filter(
      (e) =>
        e.event === `company-${companyId}-appMessage` &&
        e.room.endsWith(':admins') &&
        (e.data as { action: string }).action === 'update',
    )
    .map((e) => (e.data as { message: MessageDto }).message)

/** A customer with a long conversation: 120 messages, ids M000..M119. */
async function longConversation() {
  const s = await sandboxHarness()
  for (let i = 0; i < 120; i++)
    await s.net.inject(s.conn.id, {
      from: CUSTOMER,
      id: `M${String(i).padStart(5, '0')}`,
      body: `texto ${i}`,
    })
  const first = messagesOf(s.h, 'wid = ?', 'M00000')[0]!
  return { ...s, first }
}

describe('reactions, edits, deletions and quotes attach to their target', () => {
  test('a reaction far back in the history goes on that message; another emoji replaces it; empty removes it', async () => {
    const { h, net, conn, first } = await longConversation()
    const events = h.recordEvents()
    await net.inject(conn.id, { from: CUSTOMER, reaction: { to: 'M00000', emoji: '❤️' } })
    expect(count(h, 'messages')).toBe(120)
    const reactions = () =>
      h.deps.sqlite
        .query<{ messageId: number; emoji: string; senderName: string | null }, []>(
          'SELECT message_id AS messageId, emoji, sender_name AS senderName FROM message_reactions',
        )
        .all()
    expect(reactions()).toEqual([{ messageId: first.id, emoji: '❤️', senderName: expect.any(String) }])
    const [update] = updates(events, h.a.id)
    expect(update).toMatchObject({ id: first.id, reactions: [{ emoji: '❤️', fromMe: false }] })

    await net.inject(conn.id, { from: CUSTOMER, reaction: { to: 'M00000', emoji: '👍' } })
    expect(reactions().map((r) => r.emoji)).toEqual(['👍'])
    await net.inject(conn.id, { from: CUSTOMER, reaction: { to: 'M00000', emoji: '' } })
    expect(reactions()).toEqual([])
    expect(updates(events, h.a.id).map((m) => m.reactions.map((r) => r.emoji))).toEqual([['❤️'], ['👍'], []])
    // the ticket's preview and unread count are not touched by reactions
    expect(ticketsOf(h)[0]).toMatchObject({ lastMessage: 'texto 119', unreadMessages: 120 })
  })

  test('an edit keeps the old text in oldMessages and marks the message edited; a repeat changes nothing', async () => {
    const { h, net, conn, first } = await longConversation()
    const events = h.recordEvents()
    h.clock.advance(5_000)
    await net.inject(conn.id, { from: CUSTOMER, edit: { id: 'M00000', body: 'texto 0 corrigido' } })
    await net.inject(conn.id, { from: CUSTOMER, edit: { id: 'M00000', body: 'texto 0 corrigido' } })
    const [row] = messagesOf(h, 'id = ?', first.id)
    expect(row).toMatchObject({ body: 'texto 0 corrigido', isEdited: 1 })
    expect(JSON.parse(row!.oldMessages!)).toEqual([{ body: 'texto 0', createdAt: h.clock.now() }])
    expect(count(h, 'messages')).toBe(120)
    const edited = updates(events, h.a.id)
    expect(edited).toHaveLength(1)
    expect(edited[0]).toMatchObject({ id: first.id, isEdited: true, oldMessages: [{ body: 'texto 0' }] })
  })

  test("editing the ticket's last message updates the list's preview", async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, { from: CUSTOMER, id: 'LAST00000001', body: 'errado' })
    await net.inject(conn.id, { from: CUSTOMER, edit: { id: 'LAST00000001', body: 'certo' } })
    expect(ticketsOf(h)[0]!.lastMessage).toBe('certo')
  })

  test('a deletion for everyone marks the message deleted (kept, shown as deleted)', async () => {
    const { h, net, conn, first } = await longConversation()
    const events = h.recordEvents()
    await net.inject(conn.id, { from: CUSTOMER, delete: { id: 'M00000' } })
    expect(messagesOf(h, 'id = ?', first.id)[0]).toMatchObject({ isDeleted: 1, body: 'texto 0' })
    expect(updates(events, h.a.id)).toEqual([expect.objectContaining({ id: first.id, isDeleted: true })])
    expect(count(h, 'messages')).toBe(120)
  })

  test('a reply far back sets quotedMsgId, and the DTO carries the quoted message', async () => {
    const { h, net, conn, first } = await longConversation()
    const events = h.recordEvents()
    await net.inject(conn.id, { from: CUSTOMER, replyTo: 'M00000', body: 'sobre aquilo' })
    const reply = messagesOf(h).at(-1)!
    expect(reply).toMatchObject({ body: 'sobre aquilo', quotedMsgId: first.id })
    const create = events.find(
      (e) => e.event === `company-${h.a.id}-appMessage` && (e.data as { action: string }).action === 'create',
    )
    expect((create!.data as { message: MessageDto }).message.quotedMsg).toMatchObject({
      id: first.id,
      body: 'texto 0',
    })
  })

  test("edits and deletions by someone who is not the message's author change nothing", async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    await h.deps.channels.start(conn)
    const session = h.sessions.get(conn.id)!
    await session.emit({ t: 'status', status: 'CONNECTED' })
    const msg = textMessage({ from: CUSTOMER, text: 'do cliente' })
    await session.emit(msg)
    // a ref claiming the message is ours: not the author
    const ours = { ...msg.ref, fromMe: true }
    await session.emit({ t: 'edit', ref: ours, body: 'alterado', timestamp: h.clock.now() })
    await session.emit({ t: 'delete', ref: ours })
    expect(messagesOf(h)[0]).toMatchObject({ body: 'do cliente', isEdited: 0, isDeleted: 0 })
  })
})

describe('actions that arrive before their target', () => {
  test('a reaction, an edit and a quote kept pending are applied when the message arrives; nothing loose is stored', async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    await h.deps.channels.start(conn)
    const session = h.sessions.get(conn.id)!
    await session.emit({ t: 'status', status: 'CONNECTED' })
    const target = textMessage({ from: CUSTOMER, text: 'original' })
    const jid = `${CUSTOMER}@s.whatsapp.net`
    const at = h.clock.now()
    // WhatsApp replays out of order: first the reply quoting it, a reaction and an edit, then the message
    const reply = textMessage({ from: CUSTOMER, text: 'resposta', quoted: target.ref, timestamp: at + 2_000 })
    await session.emit(reply)
    await session.emit({
      t: 'reaction',
      target: target.ref,
      emoji: '😂',
      from: { jid, pn: CUSTOMER },
      fromMe: false,
      timestamp: at + 3_000,
    })
    await session.emit({ t: 'edit', ref: target.ref, body: 'editado', timestamp: at + 4_000 })
    expect(messagesOf(h).map((m) => m.body)).toEqual(['resposta'])
    expect(count(h, 'inbound_pending')).toBe(3)
    expect(h.inbound.stats.pending).toBe(2)

    const events = h.recordEvents()
    await session.emit({ ...target, timestamp: at })
    const [replyRow, targetRow] = messagesOf(h)
    expect(targetRow).toMatchObject({ body: 'editado', isEdited: 1, createdAt: at })
    expect(JSON.parse(targetRow!.oldMessages!)).toEqual([{ body: 'original', createdAt: at + 4_000 }])
    expect(replyRow!.quotedMsgId).toBe(targetRow!.id)
    expect(
      h.deps.sqlite
        .query<{ emoji: string }, []>('SELECT emoji FROM message_reactions')
        .all()
        .map((r) => r.emoji),
    ).toEqual(['😂'])
    expect(count(h, 'inbound_pending')).toBe(0)
    // the reply's quote is published as an update; the ticket's preview stays the newest message
    expect(updates(events, h.a.id).map((m) => m.id)).toEqual([replyRow!.id])
    expect(ticketsOf(h)[0]!.lastMessage).toBe('resposta')
  })

  test('pending actions older than 30 days are dropped at boot', async () => {
    const h = await createHarness()
    h.deps.sqlite
      .query(
        `INSERT INTO inbound_pending (company_id, target_wid, kind, payload, created_at) VALUES (?, 'X1', 'delete', '{}', ?)`,
      )
      .run(h.a.id, h.clock.now() - 31 * 24 * 60 * 60 * 1000)
    const { loadPendingCount } = await import('./targets')
    expect(loadPendingCount(h.deps.sqlite, h.clock.now()).count).toBe(0)
    expect(count(h, 'inbound_pending')).toBe(0)
  })
})
