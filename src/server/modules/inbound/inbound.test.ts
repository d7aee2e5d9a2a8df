import { describe, expect, test } from 'bun:test'
import type { MessageDto, TicketDto } from '../../../shared/api'
import { decodeWAMessage } from '../../channels/normalize'
import { storedMessages } from '../../channels/providers'
import { createHarness } from '../../test/harness'
import { PLACEHOLDER_BODIES } from './store'
import { count, messagesOf, sandboxHarness, textMessage, ticketsOf } from './testing'

const CUSTOMER = '5511988887777'

type Live = { room: string; event: string; data: unknown }
const created = (events: Live[], companyId: number) =>
  events.filter(
    (e) =>
      e.event === `company-${companyId}-appMessage` &&
      e.room.endsWith(':admins') &&
      (e.data as { action: string }).action === 'create',
  )

describe('inbound messages', () => {
  test('a first message makes the contact, a pending ticket and the message, and tells the rooms live', async () => {
    const { h, net, conn } = await sandboxHarness()
    const events = h.recordEvents()
    const { id: wid } = await net.inject(conn.id, {
      from: CUSTOMER,
      name: 'Maria Souza',
      body: 'Olá, bom dia!',
    })

    const [contact] = h.deps.sqlite
      .query<{ id: number; name: string; number: string; lid: string | null }, [number]>(
        'SELECT id, name, number, lid FROM contacts WHERE company_id = ?',
      )
      .all(h.a.id)
    expect(contact).toMatchObject({ name: 'Maria Souza', number: CUSTOMER })
    expect(contact!.lid).toMatch(/^\d+$/)
    const [ticket] = ticketsOf(h)
    expect(ticket).toMatchObject({
      status: 'pending',
      contactId: contact!.id,
      whatsappId: conn.id,
      lastMessage: 'Olá, bom dia!',
      unreadMessages: 1,
      imported: 0,
      companyId: h.a.id,
    })
    const [message] = messagesOf(h)
    expect(message).toMatchObject({
      wid,
      ticketId: ticket!.id,
      contactId: contact!.id,
      body: 'Olá, bom dia!',
      fromMe: 0,
      read: 0,
      mediaType: 'chat',
      createdAt: h.clock.now(),
    })

    const ticketEvents = events.filter(
      (e) => e.event === `company-${h.a.id}-ticket` && e.room.endsWith(':admins'),
    )
    expect((ticketEvents.at(-1)!.data as { ticket: TicketDto }).ticket).toMatchObject({
      id: ticket!.id,
      status: 'pending',
      unreadMessages: 1,
    })
    const [create] = created(events, h.a.id)
    const data = create!.data as { message: MessageDto; ticket: TicketDto }
    expect(data.message).toMatchObject({ id: message!.id, body: 'Olá, bom dia!', fromMe: false })
    expect(data.ticket.id).toBe(ticket!.id)
    // no event of company A reaches company B's rooms
    expect(events.some((e) => e.room.startsWith(`company:${h.b.id}`))).toBe(false)

    // and the admin reads it through the API
    const admin = await h.as(h.a.admin)
    const page = await admin.get(`/messages/${ticket!.id}`)
    expect(page.status).toBe(200)
    expect(page.body.messages.map((m: MessageDto) => m.body)).toEqual(['Olá, bom dia!'])
  })

  test('the same provider id twice is stored once (no second unread, no second event)', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, { from: CUSTOMER, id: 'ABCDEF123456', body: 'uma vez' })
    const events = h.recordEvents()
    await net.inject(conn.id, { from: CUSTOMER, id: 'ABCDEF123456', body: 'uma vez' })
    await net.inject(conn.id, { from: CUSTOMER, id: 'ABCDEF123456', body: 'uma vez', offline: true })
    expect(count(h, 'messages')).toBe(1)
    expect(ticketsOf(h)[0]!.unreadMessages).toBe(1)
    expect(created(events, h.a.id)).toEqual([])
    expect(h.inbound.stats.duplicate).toBe(2)
  })

  test('a burst of 50 concurrent messages from a new customer: one contact, one ticket, 50 messages in order', async () => {
    const { h, net, conn } = await sandboxHarness()
    const events = h.recordEvents()
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        net.inject(conn.id, {
          from: CUSTOMER,
          name: 'Rajada',
          body: `msg ${i}`,
          timestamp: h.clock.now() + i,
        }),
      ),
    )
    expect(count(h, 'contacts', 'company_id = ?', h.a.id)).toBe(1)
    const tickets = ticketsOf(h)
    expect(tickets).toHaveLength(1)
    expect(tickets[0]).toMatchObject({ unreadMessages: 50, lastMessage: 'msg 49', status: 'pending' })
    const rows = messagesOf(h)
    expect(rows.map((m) => m.body)).toEqual(Array.from({ length: 50 }, (_, i) => `msg ${i}`))
    expect(rows.every((m) => m.ticketId === tickets[0]!.id)).toBe(true)
    const times = rows.map((m) => m.createdAt)
    expect(times).toEqual([...times].sort((a, b) => a - b))
    expect(created(events, h.a.id)).toHaveLength(50)
    // the conversation as the API pages it: oldest first within the page, the newest 20
    const admin = await h.as(h.a.admin)
    const page = await admin.get(`/messages/${tickets[0]!.id}`)
    expect(page.body.messages.map((m: MessageDto) => m.body)).toEqual(
      Array.from({ length: 20 }, (_, i) => `msg ${i + 30}`),
    )
  })

  test('a message after the ticket was closed opens a new pending ticket; the closed one keeps its history', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, { from: CUSTOMER, body: 'primeiro atendimento' })
    const [first] = ticketsOf(h)
    h.deps.sqlite
      .query(`UPDATE tickets SET status = 'closed', unread_messages = 0 WHERE id = ?`)
      .run(first!.id)
    h.clock.advance(60_000)
    await net.inject(conn.id, { from: CUSTOMER, body: 'voltei' })
    const tickets = ticketsOf(h)
    expect(tickets).toHaveLength(2)
    expect(tickets[0]).toMatchObject({ id: first!.id, status: 'closed', lastMessage: 'primeiro atendimento' })
    expect(tickets[1]).toMatchObject({ status: 'pending', lastMessage: 'voltei', unreadMessages: 1 })
    expect(tickets[1]!.contactId).toBe(first!.contactId)
    expect(messagesOf(h).map((m) => [m.ticketId, m.body])).toEqual([
      [first!.id, 'primeiro atendimento'],
      [tickets[1]!.id, 'voltei'],
    ])
  })

  test('messages written on the company phone are stored as ours, with their ack, and add no unread', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, { from: CUSTOMER, body: 'oi' })
    await net.inject(conn.id, { from: CUSTOMER, body: 'respondido pelo celular', fromMe: true })
    const rows = messagesOf(h)
    expect(rows[1]).toMatchObject({ body: 'respondido pelo celular', fromMe: 1, ack: 1, read: 1 })
    expect(ticketsOf(h)[0]).toMatchObject({ unreadMessages: 1, lastMessage: 'respondido pelo celular' })
    // the same contact, however the phone addressed it
    expect(new Set(rows.map((m) => m.contactId)).size).toBe(1)
  })

  test('a contact writing by LID only is the same contact as by number', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, { from: CUSTOMER, body: 'pelo número' })
    await net.inject(conn.id, { from: CUSTOMER, body: 'pelo LID', lidOnly: true })
    expect(count(h, 'contacts', 'company_id = ?', h.a.id)).toBe(1)
    expect(ticketsOf(h)).toHaveLength(1)
    expect(messagesOf(h)).toHaveLength(2)
  })

  // Changed with issue 20 (defect 13): the placeholder is a row the attendant sees ("waiting for this message"),
  // which the real message replaces in place.
  test('an undecryptable placeholder is a waiting row; the real message with that id replaces it in place', async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    await h.deps.channels.start(conn)
    const session = h.sessions.get(conn.id)!
    await session.emit({ t: 'status', status: 'CONNECTED' })
    const msg = textMessage({ from: CUSTOMER, text: '' })
    await session.emit({ ...msg, undecryptable: true })
    const [waiting] = messagesOf(h)
    expect(waiting?.body).toBe(PLACEHOLDER_BODIES.waiting)
    await session.emit({ ...msg, undecryptable: true })
    await session.emit({ ...msg, body: 'agora sim' })
    const rows = messagesOf(h)
    expect(rows.map((m) => m.body)).toEqual(['agora sim'])
    expect(rows[0]?.id).toBe(waiting?.id)
    await session.emit({ ...msg, body: 'de novo' })
    expect(messagesOf(h).map((m) => m.body)).toEqual(['agora sim'])
  })

  test('locations and contact cards are stored as their media types', async () => {
    const { h, net, conn } = await sandboxHarness()
    await net.inject(conn.id, {
      from: CUSTOMER,
      location: { latitude: -23.55, longitude: -46.63, name: 'Loja Centro' },
    })
    await net.inject(conn.id, { from: CUSTOMER, contact: { name: 'João Lima', phone: '5511977776666' } })
    const [loc, card] = messagesOf(h)
    expect(loc).toMatchObject({ mediaType: 'locationMessage' })
    expect(loc!.body).toBe('Loja Centro\nhttps://maps.google.com/maps?q=-23.55%2C-46.63&z=17')
    expect(card).toMatchObject({ mediaType: 'contactMessage' })
    expect(card!.body).toContain('BEGIN:VCARD')
    expect(ticketsOf(h)[0]!.lastMessage).toBe('João Lima')
  })
})

describe('the raw message kept on the row', () => {
  test("answers Baileys' getMessage (retries, quotes) after a restart, for that connection only", async () => {
    const { h, net, conn, connB } = await sandboxHarness({}, { companyB: true })
    const { id } = await net.inject(conn.id, { from: CUSTOMER, body: 'guardada no banco' })
    const store = storedMessages(h.deps.sqlite)
    const raw = await store.load(conn.id, id)
    expect(decodeWAMessage(raw!).message?.conversation).toBe('guardada no banco')
    expect(await store.load(connB!.id, id)).toBeUndefined()
    expect(await store.load(conn.id, 'UNKNOWN')).toBeUndefined()
  })
})

describe('receipts', () => {
  test("acks go through the messages area's applyAck: forward only, live", async () => {
    const h = await createHarness()
    const conn = h.makeConnection(h.a.id)
    await h.deps.channels.start(conn)
    const session = h.sessions.get(conn.id)!
    await session.emit({ t: 'status', status: 'CONNECTED' })
    // written on the phone: ours, sent (1)
    const msg = textMessage({ from: CUSTOMER, text: 'do celular', ack: 1 })
    msg.ref.fromMe = true
    await session.emit(msg)
    expect(messagesOf(h)[0]!.ack).toBe(1)
    const events = h.recordEvents()
    await session.emit({ t: 'ack', ref: msg.ref, ack: 4 })
    await session.emit({ t: 'ack', ref: msg.ref, ack: 2 })
    expect(messagesOf(h)[0]!.ack).toBe(4)
    const acks = events
      .filter((e) => e.event === `company-${h.a.id}-appMessage` && e.room.endsWith(':admins'))
      .map((e) => (e.data as { message: MessageDto }).message.ack)
    expect(acks).toEqual([4])
    // a receipt on company A's connection never touches company B's message with that id
    const connB = h.makeConnection(h.b.id)
    await h.deps.channels.start(connB)
    const sessionB = h.sessions.get(connB.id)!
    await sessionB.emit({ t: 'status', status: 'CONNECTED' })
    const inB = textMessage({ from: CUSTOMER, text: 'em B', ack: 1 })
    inB.ref.fromMe = true
    await sessionB.emit(inB)
    await session.emit({ t: 'ack', ref: { ...msg.ref, id: inB.ref.id }, ack: 4 })
    expect(messagesOf(h, 'company_id = ?', h.b.id).map((m) => m.ack)).toEqual([1])
  })
})

describe('groups', () => {
  test('ignored unless the connection allows groups and the company does not ignore them', async () => {
    const { h, net, conn } = await sandboxHarness()
    const group = { id: '120363000000000001', name: 'Equipe' }
    await net.inject(conn.id, { from: CUSTOMER, group, body: 'no grupo' })
    expect(count(h, 'messages')).toBe(0)
    expect(h.inbound.stats.group).toBe(1)
    // nor are its reactions kept waiting for a message that will never be stored
    await net.inject(conn.id, { from: CUSTOMER, group, reaction: { to: 'GROUPMSG0001', emoji: '👍' } })
    expect(count(h, 'inbound_pending')).toBe(0)

    h.deps.sqlite.query('UPDATE whatsapps SET allow_group = 1 WHERE id = ?').run(conn.id)
    // CheckMsgIsGroup is 'enabled' ("ignore group messages") by default
    await net.inject(conn.id, { from: CUSTOMER, group, body: 'ainda ignorado' })
    expect(count(h, 'messages')).toBe(0)

    const admin = await h.as(h.a.admin)
    expect((await admin.put('/settings/CheckMsgIsGroup', { value: 'disabled' })).status).toBe(200)
    await net.inject(conn.id, { from: CUSTOMER, name: 'Ana', group, body: 'agora entra' })
    await net.inject(conn.id, {
      from: '5511966665555',
      name: 'Bruno',
      group,
      body: 'eu também',
      lidOnly: true,
    })
    await net.inject(conn.id, { from: CUSTOMER, group, body: 'enviado pelo celular', fromMe: true })

    const tickets = ticketsOf(h)
    expect(tickets).toHaveLength(1)
    expect(tickets[0]).toMatchObject({ isGroup: 1, unreadMessages: 2 })
    const rows = messagesOf(h)
    expect(rows.map((m) => [m.body, m.participantName, m.fromMe])).toEqual([
      ['agora entra', 'Ana', 0],
      ['eu também', 'Bruno', 0],
      ['enviado pelo celular', null, 1],
    ])
    expect(rows[0]!.participant).toBe(`${CUSTOMER}@s.whatsapp.net`)
    expect(rows[1]!.participant).toMatch(/@lid$/)
    // one contact for the group; none for its participants
    const contacts = h.deps.sqlite
      .query<{ number: string; isGroup: number }, [number]>(
        'SELECT number, is_group AS isGroup FROM contacts WHERE company_id = ?',
      )
      .all(h.a.id)
    expect(contacts).toEqual([{ number: '120363000000000001', isGroup: 1 }])
    const page = await admin.get(`/messages/${tickets[0]!.id}`)
    expect(page.body.messages.map((m: MessageDto) => m.participantName)).toEqual(['Ana', 'Bruno', null])
  })
})

describe('tenancy', () => {
  test("one customer writing to two companies' numbers: each company has its own contact, ticket and message", async () => {
    const { h, net, conn, connB } = await sandboxHarness({}, { companyB: true })
    await net.inject(conn.id, { from: CUSTOMER, id: 'SAMEID000001', body: 'para A' })
    await net.inject(connB!.id, { from: CUSTOMER, id: 'SAMEID000002', body: 'para B' })
    // a reaction arriving on A's connection to B's message is kept for A, never applied to B
    await net.inject(conn.id, { from: CUSTOMER, reaction: { to: 'SAMEID000002', emoji: '👍' } })
    expect(count(h, 'contacts', 'company_id = ?', h.a.id)).toBe(1)
    expect(count(h, 'contacts', 'company_id = ?', h.b.id)).toBe(1)
    expect(messagesOf(h, 'company_id = ?', h.a.id).map((m) => m.body)).toEqual(['para A'])
    expect(messagesOf(h, 'company_id = ?', h.b.id).map((m) => m.body)).toEqual(['para B'])
    expect(count(h, 'message_reactions')).toBe(0)
    expect(count(h, 'inbound_pending', 'company_id = ?', h.a.id)).toBe(1)
    for (const t of ticketsOf(h)) expect(t.unreadMessages).toBe(1)
  })
})
