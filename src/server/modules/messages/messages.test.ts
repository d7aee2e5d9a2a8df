import { describe, expect, test } from 'bun:test'
import { AppError } from '../../../shared/errors'
import { flushMicrotasks } from '../../clock'
import { createHarness, type Harness } from '../../test/harness'
import { kickSearchIndex } from '../search/indexer'
import { makeContact, makeTicket } from '../tickets/testing'
import { applyAck } from './acks'
import { outboundSender } from './outbound'
import { addMessage, conversation, messageRow, spyOnSends } from './testing'

const MINUTE = 60_000

/** Message ids the text search finds for a word. */
function searchHits(h: Harness, word: string) {
  return h.deps.sqlite
    .query<{ rowid: number }, [string]>('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?')
    .all(word)
    .map((r) => Number(BigInt(r.rowid) & 0xffffffffn))
}

function appMessages(events: { event: string; data: unknown }[]) {
  return events
    .filter((e) => e.event.endsWith('-appMessage'))
    .map((e) => e.data as { action: string; message: { id: number; sendState: string | null; ack: number } })
}

describe('GET /messages/{ticketId}', () => {
  test('20 a page, page 1 the newest, oldest first within a page; count and hasMore', async () => {
    const h = await createHarness()
    const { ticket } = await conversation(h, h.a.id)
    const start = h.clock.now() - 100 * MINUTE
    const ids = Array.from({ length: 45 }, (_, i) =>
      addMessage(h, ticket, { body: `m${i + 1}`, createdAt: start + i * MINUTE, read: true }),
    )
    const admin = await h.as(h.a.admin)
    const p1 = await admin.get(`/messages/${ticket.id}`)
    expect(p1.status).toBe(200)
    expect(p1.body.messages.map((m: { body: string }) => m.body)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${i + 26}`),
    )
    expect(p1.body).toMatchObject({ count: 45, hasMore: true, ticket: { id: ticket.id } })
    const p2 = await admin.get(`/messages/${ticket.id}?pageNumber=2`)
    expect(p2.body.messages[0].body).toBe('m6')
    expect(p2.body.messages.at(-1).body).toBe('m25')
    const p3 = await admin.get(`/messages/${ticket.id}?pageNumber=3`)
    expect(p3.body.messages.map((m: { id: number }) => m.id)).toEqual(ids.slice(0, 5))
    expect(p3.body).toMatchObject({ count: 45, hasMore: false })
    const p9 = await admin.get(`/messages/${ticket.id}?pageNumber=9`)
    expect(p9.body).toMatchObject({ messages: [], count: 45, hasMore: false })
  })

  test('a message shows its quoted message, its reactions and its edit history', async () => {
    const h = await createHarness()
    const { ticket } = await conversation(h, h.a.id)
    const first = addMessage(h, ticket, { body: 'Qual o preço?' })
    const reply = addMessage(h, ticket, { body: 'R$ 10', fromMe: true })
    h.deps.sqlite.query('UPDATE messages SET quoted_msg_id = ? WHERE id = ?').run(first, reply)
    h.deps.sqlite
      .query(
        `INSERT INTO message_reactions (company_id, message_id, sender, sender_name, emoji, created_at)
         VALUES (?, ?, 'me', NULL, '👍', 1), (?, ?, '5511@s.whatsapp.net', 'Ana', '❤️', 2)`,
      )
      .run(h.a.id, reply, h.a.id, reply)
    const admin = await h.as(h.a.admin)
    const { body } = await admin.get(`/messages/${ticket.id}`)
    const shown = body.messages.find((m: { id: number }) => m.id === reply)
    expect(shown.quotedMsg).toMatchObject({ id: first, body: 'Qual o preço?', fromMe: false })
    expect(shown.reactions).toEqual([
      { emoji: '👍', fromMe: true, senderName: null },
      { emoji: '❤️', fromMe: false, senderName: 'Ana' },
    ])
  })

  test('opening reads the ticket: messages read, unread zero, updateUnread live; receipts to the customer', async () => {
    const h = await createHarness()
    const { ticket, session } = await conversation(h, h.a.id, { userId: h.a.attendantId, unread: 2 })
    addMessage(h, ticket, { body: 'oi', wid: 'IN1' })
    addMessage(h, ticket, { body: 'tudo bem?', wid: 'IN2' })
    const events = h.recordEvents()
    const agent = await h.as(h.a.attendant)
    const res = await agent.get(`/messages/${ticket.id}`)
    expect(res.status).toBe(200)
    expect(res.body.ticket.unreadMessages).toBe(0)
    expect(res.body.messages.every((m: { read: boolean }) => m.read)).toBe(true)
    const unread = h.deps.sqlite
      .query('SELECT unread_messages AS n FROM tickets WHERE id = ?')
      .get(ticket.id) as {
      n: number
    }
    expect(unread.n).toBe(0)
    expect(
      events.some(
        (e) =>
          e.event === `company-${h.a.id}-ticket` && (e.data as { action: string }).action === 'updateUnread',
      ),
    ).toBe(true)
    await flushMicrotasks()
    const receipts = session.calls.filter((c) => c.method === 'markRead')
    expect(receipts).toHaveLength(1)
    expect((receipts[0]!.args[0] as { id: string }[]).map((r) => r.id).sort()).toEqual(['IN1', 'IN2'])
  })

  test("the admin's spy view reads nothing; an admin who is not the assignee sends no receipts", async () => {
    const h = await createHarness()
    const { ticket, session } = await conversation(h, h.a.id, { userId: h.a.attendantId, unread: 1 })
    addMessage(h, ticket, { body: 'oi' })
    const admin = await h.as(h.a.admin)
    const spy = await admin.get(`/messages/${ticket.id}?spy=true`)
    expect(spy.body.ticket.unreadMessages).toBe(1)
    expect(spy.body.messages[0].read).toBe(false)
    const looked = await admin.get(`/messages/${ticket.id}`)
    expect(looked.body.ticket.unreadMessages).toBe(0)
    await flushMicrotasks()
    expect(session.calls.filter((c) => c.method === 'markRead')).toHaveLength(0)
  })

  test('another company: 404; an attendant outside the queue: 403; bad input: 4xx', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id)
    const { ticket } = await conversation(h, h.a.id, { queueId: queue.id })
    const other = await h.as(h.b.admin)
    expect((await other.get(`/messages/${ticket.id}`)).body.error).toBe('ERR_NO_TICKET_FOUND')
    expect((await other.get(`/messages/${ticket.id}`)).status).toBe(404)
    const agent = await h.as(h.a.attendant)
    expect((await agent.get(`/messages/${ticket.id}`)).status).toBe(403)
    const admin = await h.as(h.a.admin)
    expect((await admin.get(`/messages/${ticket.id}?pageNumber=0`)).status).toBe(400)
    expect((await admin.get(`/messages/${ticket.id}?pageNumber=abc`)).status).toBe(400)
    expect((await admin.get('/messages/01')).status).toBe(404)
    expect((await admin.get('/messages/999999')).status).toBe(404)
    expect((await h.call('GET', `/messages/${ticket.id}`)).status).toBe(401)
  })
})

async function sendSetup(h: Harness, fields: Parameters<typeof conversation>[2] = {}) {
  const c = await conversation(h, h.a.id, { userId: h.a.adminId, ...fields })
  const spy = spyOnSends(h, c.session)
  const admin = await h.as(h.a.admin)
  return { ...c, spy, admin }
}

describe('POST /messages/{ticketId}', () => {
  test('the row is written first (queued, ack 0), published, then sent: wid, sent, ack 1', async () => {
    const h = await createHarness()
    const { ticket, spy, admin, contact } = await sendSetup(h)
    const events = h.recordEvents()
    const res = await admin.post(`/messages/${ticket.id}`, {
      body: '  Olá, tudo bem?  ',
      read: 1,
      fromMe: true,
    })
    expect(res.status).toBe(201)
    expect(res.body.message).toMatchObject({
      body: 'Olá, tudo bem?',
      fromMe: true,
      ack: 0,
      sendState: 'queued',
      wid: null,
    })
    await flushMicrotasks()
    expect(spy.calls).toHaveLength(1)
    expect(spy.calls[0]).toMatchObject({
      method: 'send',
      to: { jid: `${contact.number}@s.whatsapp.net` },
      content: { kind: 'text', body: 'Olá, tudo bem?' },
      rowAtSend: { sendState: 'sending', ack: 0 },
    })
    const row = messageRow(h, res.body.message.id)
    expect(row).toMatchObject({ wid: 'SENT1', sendState: 'sent', ack: 1, sendAttempts: 1 })
    const live = appMessages(events)
    expect(live[0]).toMatchObject({ action: 'create', message: { sendState: 'queued', ack: 0 } })
    expect(live.at(-1)).toMatchObject({ action: 'update', message: { sendState: 'sent', ack: 1 } })
    const t = h.deps.sqlite.query('SELECT last_message AS m FROM tickets WHERE id = ?').get(ticket.id)
    expect(t).toEqual({ m: 'Olá, tudo bem?' })
    // It becomes searchable shortly (the search index is fed in batches).
    await h.clock.tick(50)
    expect(searchHits(h, 'tudo')).toEqual([res.body.message.id])
  })

  test('empty or whitespace bodies are refused (400) and nothing is written', async () => {
    const h = await createHarness()
    const { ticket, admin, spy } = await sendSetup(h)
    for (const body of [{ body: '' }, { body: '   \n ' }, {}, { body: 5 }, [], 'x'])
      expect((await admin.post(`/messages/${ticket.id}`, body)).status).toBe(400)
    expect(h.deps.sqlite.query('SELECT COUNT(*) AS n FROM messages').get()).toEqual({ n: 0 })
    await flushMicrotasks()
    expect(spy.calls).toHaveLength(0)
  })

  test('only on an open ticket; another company 404; an attendant outside the queue 403', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id)
    const { ticket, admin } = await sendSetup(h, { status: 'pending', userId: null, queueId: queue.id })
    const res = await admin.post(`/messages/${ticket.id}`, { body: 'oi' })
    expect(res.status).toBe(409)
    expect(res.body.error).toBe('ERR_TICKET_NOT_OPEN')
    const other = await h.as(h.b.admin)
    expect((await other.post(`/messages/${ticket.id}`, { body: 'oi' })).status).toBe(404)
    const agent = await h.as(h.a.attendant)
    expect((await agent.post(`/messages/${ticket.id}`, { body: 'oi' })).status).toBe(403)
  })

  test('private notes are kept and never sent', async () => {
    const h = await createHarness()
    const { ticket, admin, spy } = await sendSetup(h)
    const res = await admin.post(`/messages/${ticket.id}`, {
      body: 'cliente pediu desconto',
      isPrivate: true,
    })
    expect(res.status).toBe(201)
    expect(res.body.message).toMatchObject({ isPrivate: true, sendState: null })
    await outboundSender(h.deps).resume()
    await flushMicrotasks()
    expect(spy.calls).toHaveLength(0)
    expect(messageRow(h, res.body.message.id).wid).toBeNull()
  })

  test("a reply quotes the quoted message's WhatsApp id; a message of another conversation is refused", async () => {
    const h = await createHarness()
    const { ticket, admin, spy, contact } = await sendSetup(h)
    const quoted = addMessage(h, ticket, {
      body: 'pergunta',
      wid: 'ABC123',
      remoteJid: `${contact.number}@s.whatsapp.net`,
    })
    const res = await admin.post(`/messages/${ticket.id}`, {
      body: 'resposta',
      quotedMsg: { id: quoted, body: 'x' },
    })
    expect(res.status).toBe(201)
    expect(res.body.message.quotedMsg).toMatchObject({ id: quoted, body: 'pergunta' })
    await flushMicrotasks()
    expect(spy.calls[0]!.options?.quoted).toEqual({
      id: 'ABC123',
      chatJid: `${contact.number}@s.whatsapp.net`,
      fromMe: false,
    })
    const elsewhere = makeTicket(h, h.a.id, { status: 'open' })
    const foreign = addMessage(h, elsewhere, { body: 'outra conversa' })
    const bad = await admin.post(`/messages/${ticket.id}`, { body: 'x', quotedMsg: foreign })
    expect(bad.status).toBe(400)
    expect(bad.body.fields[0].field).toBe('quotedMsg')
  })

  test("an attendant may not quote another queue's message or note of the same contact: 404, nothing shown", async () => {
    const h = await createHarness()
    const mine = h.makeQueue(h.a.id, { name: 'Suporte' })
    const theirs = h.makeQueue(h.a.id, { name: 'Vendas' })
    h.addToQueue(h.a.attendantId, mine.id)
    const seller = h.makeUser(h.a.id, { name: 'Carlos', email: 'carlos@alpha.test' })
    h.addToQueue(seller.id, theirs.id)
    const { ticket, contact } = await conversation(h, h.a.id, { queueId: mine.id, userId: h.a.attendantId })
    const other = makeTicket(h, h.a.id, {
      contactId: contact.id,
      status: 'closed',
      queueId: theirs.id,
      userId: seller.id,
    })
    const secret = addMessage(h, other, { body: 'desconto secreto de Vendas' })
    const note = addMessage(h, other, { body: 'nota interna de Vendas', fromMe: true, isPrivate: true })
    const agent = await h.as(h.a.attendant)
    const count = () => h.deps.sqlite.query('SELECT count(*) AS n FROM messages').get()
    const before = count()
    for (const quotedMsg of [secret, note, { id: note, body: 'x' }])
      for (const isPrivate of [false, true]) {
        const res = await agent.post(`/messages/${ticket.id}`, { body: 'quote', quotedMsg, isPrivate })
        expect(res.status).toBe(404)
        expect(res.body.error).toBe('ERR_NO_MESSAGE_FOUND')
        expect(JSON.stringify(res.body)).not.toContain('de Vendas')
      }
    // A note of another ticket the attendant may open is not quoted elsewhere either.
    const older = makeTicket(h, h.a.id, { contactId: contact.id, status: 'closed', queueId: mine.id })
    const olderNote = addMessage(h, older, { body: 'nota antiga', fromMe: true, isPrivate: true })
    const noted = await agent.post(`/messages/${ticket.id}`, { body: 'quote', quotedMsg: olderNote })
    expect(noted.status).toBe(404)
    expect(count()).toEqual({ n: (before as { n: number }).n + 1 })
    // What the attendant may see is quoted as ever: a message of that ticket, a note of this one.
    const visible = addMessage(h, older, { body: 'pergunta antiga' })
    const ok = await agent.post(`/messages/${ticket.id}`, { body: 'resposta', quotedMsg: visible })
    expect(ok.status).toBe(201)
    expect(ok.body.message.quotedMsg).toMatchObject({ id: visible, body: 'pergunta antiga' })
    const here = addMessage(h, ticket, { body: 'nota daqui', fromMe: true, isPrivate: true })
    expect(
      (await agent.post(`/messages/${ticket.id}`, { body: 'x', quotedMsg: here, isPrivate: true })).status,
    ).toBe(201)
  })

  test('a failure is visible with its reason and can be retried; only a failed message retries', async () => {
    const h = await createHarness()
    const { ticket, admin, spy } = await sendSetup(h)
    spy.state.fail = new AppError('ERR_SENDING_WAPP_MSG', 'rate-overlimit')
    const events = h.recordEvents()
    const res = await admin.post(`/messages/${ticket.id}`, { body: 'oi' })
    await flushMicrotasks()
    const id = res.body.message.id
    expect(messageRow(h, id)).toMatchObject({
      sendState: 'failed',
      sendError: 'ERR_SENDING_WAPP_MSG: rate-overlimit',
      wid: null,
    })
    expect(appMessages(events).at(-1)).toMatchObject({ action: 'update', message: { sendState: 'failed' } })
    const list = await admin.get(`/messages/${ticket.id}`)
    expect(list.body.messages[0]).toMatchObject({
      sendState: 'failed',
      sendError: 'ERR_SENDING_WAPP_MSG: rate-overlimit',
    })
    spy.state.fail = null
    const retried = await admin.post(`/messages/${id}/retry`)
    expect(retried.status).toBe(200)
    expect(retried.body).toMatchObject({ id, sendState: 'sent', wid: 'SENT1', ack: 1 })
    expect(messageRow(h, id).sendAttempts).toBe(2)
    expect((await admin.post(`/messages/${id}/retry`)).status).toBe(400)
    expect(spy.calls).toHaveLength(2)
    const other = await h.as(h.b.admin)
    expect((await other.post(`/messages/${id}/retry`)).status).toBe(404)
  })

  test('nothing is sent twice: racing kicks send once; a send interrupted by a stop is not resent at boot', async () => {
    const h = await createHarness()
    const { ticket, admin, spy } = await sendSetup(h)
    const res = await admin.post(`/messages/${ticket.id}`, { body: 'uma vez' })
    const id = res.body.message.id
    await Promise.all([outboundSender(h.deps).kick([id]), outboundSender(h.deps).kick([id])])
    expect(spy.calls).toHaveLength(1)
    // A row left 'sending' (the process died while WhatsApp had it) and one still 'queued'.
    const interrupted = addMessage(h, ticket, {
      fromMe: true,
      wid: null,
      sendState: 'sending',
      body: 'talvez',
    })
    const queued = addMessage(h, ticket, { fromMe: true, wid: null, sendState: 'queued', body: 'na fila' })
    await outboundSender(h.deps).resume()
    expect(messageRow(h, interrupted)).toMatchObject({ sendState: 'failed' })
    expect(messageRow(h, interrupted).sendError).toStartWith('ERR_SEND_INTERRUPTED')
    expect(messageRow(h, queued)).toMatchObject({ sendState: 'sent', ack: 1 })
    expect(spy.calls.map((c) => (c.content as { body: string }).body)).toEqual(['uma vez', 'na fila'])
  })

  test('a stop waits for the send WhatsApp has, then claims nothing more: no row is left sending', async () => {
    const h = await createHarness()
    const { ticket, admin, session, spy } = await sendSetup(h)
    // WhatsApp holds the first send open until the test releases it.
    const held = Promise.withResolvers<void>()
    const send = session.send
    session.send = async (...args) => {
      await held.promise
      return send(...args)
    }
    const first = (await admin.post(`/messages/${ticket.id}`, { body: 'a caminho' })).body.message.id
    await flushMicrotasks()
    expect(messageRow(h, first).sendState).toBe('sending')
    let stopped = false
    const stopping = (async () => {
      await outboundSender(h.deps).stop()
      stopped = true
    })()
    // Written after the stop began: kept queued for the next boot, never claimed.
    const second = (await admin.post(`/messages/${ticket.id}`, { body: 'depois' })).body.message.id
    await h.clock.tick(60_000)
    expect(stopped).toBe(false)
    expect(messageRow(h, first).sendState).toBe('sending')
    held.resolve()
    await stopping
    expect(messageRow(h, first)).toMatchObject({ sendState: 'sent', ack: 1 })
    expect(messageRow(h, second)).toMatchObject({ sendState: 'queued', sendAttempts: 0 })
    expect(spy.calls.map((c) => (c.content as { body: string }).body)).toEqual(['a caminho'])
  })

  test('a disconnected connection is waited for a while, then the message fails with ERR_WAPP_NOT_INITIALIZED', async () => {
    const h = await createHarness()
    const { ticket, admin, spy, session } = await sendSetup(h)
    await session.emit({ t: 'status', status: 'DISCONNECTED' })
    const a = (await admin.post(`/messages/${ticket.id}`, { body: 'espera' })).body.message.id
    await h.clock.tick(10_000)
    expect(messageRow(h, a).sendState).toBe('queued')
    await session.emit({ t: 'status', status: 'CONNECTED' })
    await h.clock.tick(2_000)
    expect(messageRow(h, a)).toMatchObject({ sendState: 'sent' })
    await session.emit({ t: 'status', status: 'DISCONNECTED' })
    const b = (await admin.post(`/messages/${ticket.id}`, { body: 'desiste' })).body.message.id
    await h.clock.tick(31_000)
    expect(messageRow(h, b)).toMatchObject({ sendState: 'failed' })
    expect(messageRow(h, b).sendError).toStartWith('ERR_WAPP_NOT_INITIALIZED')
    expect(spy.calls).toHaveLength(1)
  })

  test('an unexpected provider error is a failure too, with a code the web translates', async () => {
    const h = await createHarness()
    const { ticket, admin, spy } = await sendSetup(h)
    spy.state.fail = new Error('socket hang up')
    const id = (await admin.post(`/messages/${ticket.id}`, { body: 'oi' })).body.message.id
    await flushMicrotasks()
    expect(messageRow(h, id).sendError).toBe('ERR_SENDING_WAPP_MSG: socket hang up')
  })
})

describe('POST /messages/edit/{messageId}', () => {
  test('edits our sent text on WhatsApp and keeps the history', async () => {
    const h = await createHarness()
    const { ticket, admin, session } = await sendSetup(h)
    const id = addMessage(h, ticket, { fromMe: true, body: 'Olá Ana', wid: 'OUT1' })
    kickSearchIndex(h.deps)
    await h.clock.tick(MINUTE)
    expect(searchHits(h, 'confirmado')).toEqual([])
    const res = await admin.post(`/messages/edit/${id}`, { body: ' Olá, Ana! ' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ body: 'Olá, Ana!', isEdited: true })
    expect(res.body.oldMessages).toEqual([
      { body: 'Olá Ana', createdAt: new Date(h.clock.now()).toISOString() },
    ])
    expect(session.calls.find((c) => c.method === 'edit')?.args).toEqual([
      { id: 'OUT1', chatJid: expect.stringContaining('@s.whatsapp.net'), fromMe: true },
      'Olá, Ana!',
    ])
    const again = await admin.post(`/messages/edit/${id}`, { body: 'Olá, Ana!! Confirmado' })
    expect(again.body.oldMessages.map((o: { body: string }) => o.body)).toEqual(['Olá Ana', 'Olá, Ana!'])
    expect(searchHits(h, 'confirmado')).toEqual([id])
  })

  test("WhatsApp's 15 minutes, customers' messages, deleted ones, bad input, other companies", async () => {
    const h = await createHarness()
    const { ticket, admin } = await sendSetup(h)
    const old = addMessage(h, ticket, {
      fromMe: true,
      body: 'antiga',
      createdAt: h.clock.now() - 16 * MINUTE,
    })
    expect((await admin.post(`/messages/edit/${old}`, { body: 'nova' })).status).toBe(400)
    const inbound = addMessage(h, ticket, { body: 'do cliente' })
    expect((await admin.post(`/messages/edit/${inbound}`, { body: 'mudei' })).status).toBe(403)
    const mine = addMessage(h, ticket, { fromMe: true, body: 'minha' })
    expect((await admin.post(`/messages/edit/${mine}`, { body: '  ' })).status).toBe(400)
    const other = await h.as(h.b.admin)
    expect((await other.post(`/messages/edit/${mine}`, { body: 'x' })).status).toBe(404)
    const note = addMessage(h, ticket, {
      fromMe: true,
      isPrivate: true,
      sendState: null,
      wid: null,
      createdAt: 0,
    })
    const edited = await admin.post(`/messages/edit/${note}`, { body: 'nota corrigida' })
    expect(edited.body).toMatchObject({ body: 'nota corrigida', isEdited: true })
  })
})

describe('DELETE /messages/{id}', () => {
  test('deletes our message for everyone and shows it as deleted; twice is harmless', async () => {
    const h = await createHarness()
    const { ticket, admin, session } = await sendSetup(h)
    const id = addMessage(h, ticket, { fromMe: true, body: 'ops', wid: 'OUT9' })
    const events = h.recordEvents()
    const res = await admin.del(`/messages/${id}`)
    expect(res.status).toBe(200)
    expect(res.body.message).toMatchObject({ id, isDeleted: true })
    expect(session.calls.filter((c) => c.method === 'deleteForEveryone')).toHaveLength(1)
    expect(appMessages(events)[0]).toMatchObject({ action: 'update', message: { id } })
    expect((await admin.del(`/messages/${id}`)).status).toBe(200)
    expect(session.calls.filter((c) => c.method === 'deleteForEveryone')).toHaveLength(1)
  })

  test("a customer's message is refused; another company's is not found; a note is only marked", async () => {
    const h = await createHarness()
    const { ticket, admin, session } = await sendSetup(h)
    const inbound = addMessage(h, ticket, { body: 'do cliente' })
    expect((await admin.del(`/messages/${inbound}`)).status).toBe(403)
    const mine = addMessage(h, ticket, { fromMe: true })
    expect((await (await h.as(h.b.admin)).del(`/messages/${mine}`)).status).toBe(404)
    const note = addMessage(h, ticket, { fromMe: true, isPrivate: true, sendState: null, wid: null })
    expect((await admin.del(`/messages/${note}`)).body.message.isDeleted).toBe(true)
    expect(session.calls.filter((c) => c.method === 'deleteForEveryone')).toHaveLength(0)
  })
})

describe('POST /message/forward', () => {
  test("lands in the contact's ticket; WhatsApp's forward when the original is known, else a copy", async () => {
    const h = await createHarness()
    const { ticket, admin, spy, connection } = await sendSetup(h)
    const withRaw = addMessage(h, ticket, {
      body: 'encaminhe',
      wid: 'RAW1',
      providerData: JSON.stringify({ raw: Buffer.from([1, 2, 3]).toString('base64') }),
    })
    const plain = addMessage(h, ticket, { body: 'sem original', wid: null })
    const target = makeContact(h, h.a.id, { name: 'Bruno' })
    const res = await admin.post('/message/forward', { messageId: withRaw, contactId: target.id })
    expect(res.status).toBe(201)
    const second = await admin.post('/message/forward', { messageId: [plain], contactId: target.id })
    expect(second.status).toBe(201)
    await flushMicrotasks()
    const newTicket = res.body.message.ticketId
    expect(second.body.message.ticketId).toBe(newTicket)
    const t = h.deps.sqlite
      .query<{ contactId: number; whatsappId: number; status: string }, [number]>(
        'SELECT contact_id AS contactId, whatsapp_id AS whatsappId, status FROM tickets WHERE id = ?',
      )
      .get(newTicket)
    expect(t).toEqual({ contactId: target.id, whatsappId: connection.id, status: 'pending' })
    expect(spy.calls.map((c) => c.method)).toEqual(['forward', 'send'])
    expect(spy.calls[0]!.source).toMatchObject({ id: 'RAW1' })
    expect([...spy.calls[0]!.raw!]).toEqual([1, 2, 3])
    expect(spy.calls[1]!.content).toEqual({ kind: 'text', body: 'sem original' })
  })

  test('not into a ticket the user may not open: 409 naming its holder, nothing written', async () => {
    const h = await createHarness()
    const mine = h.makeQueue(h.a.id, { name: 'Suporte' })
    const theirs = h.makeQueue(h.a.id, { name: 'Vendas' })
    h.addToQueue(h.a.attendantId, mine.id)
    const seller = h.makeUser(h.a.id, { name: 'Carlos', email: 'carlos@alpha.test' })
    h.addToQueue(seller.id, theirs.id)
    const { ticket, connection, session } = await conversation(h, h.a.id, {
      queueId: mine.id,
      userId: h.a.attendantId,
    })
    const spy = spyOnSends(h, session)
    const source = addMessage(h, ticket, { body: 'encaminhe isto' })
    const target = makeContact(h, h.a.id, { name: 'Bruno' })
    const held = makeTicket(h, h.a.id, {
      contactId: target.id,
      whatsappId: connection.id,
      status: 'open',
      queueId: theirs.id,
      userId: seller.id,
      lastMessage: 'conversa de Vendas',
    })
    const count = () =>
      h.deps.sqlite
        .query(
          'SELECT (SELECT count(*) FROM messages) AS messages, (SELECT count(*) FROM tickets) AS tickets',
        )
        .get()
    const before = count()
    const agent = await h.as(h.a.attendant)
    const res = await agent.post('/message/forward', { messageId: source, contactId: target.id })
    expect(res.status).toBe(409)
    expect(res.body.code).toBe('ERR_OTHER_OPEN_TICKET')
    expect(JSON.parse(res.body.error)).toEqual({
      userId: seller.id,
      user: { id: seller.id, name: 'Carlos' },
      queueId: theirs.id,
      queue: { id: theirs.id, name: 'Vendas', color: theirs.color },
    })
    expect(JSON.stringify(res.body)).not.toContain('conversa de Vendas')
    expect(count()).toEqual(before)
    await flushMicrotasks()
    expect(spy.calls).toHaveLength(0)
    // The admin may write there: the copy lands in that ticket.
    const admin = await h.as(h.a.admin)
    const ok = await admin.post('/message/forward', { messageId: source, contactId: target.id })
    expect(ok.status).toBe(201)
    expect(ok.body.message.ticketId).toBe(held.id)
  })

  test('at most 4, at least 1, no notes, ids of this company only', async () => {
    const h = await createHarness()
    const { ticket, admin } = await sendSetup(h)
    const target = makeContact(h, h.a.id)
    const ids = Array.from({ length: 5 }, () => addMessage(h, ticket))
    const five = await admin.post('/message/forward', { messageId: ids, contactId: target.id })
    expect(five.status).toBe(400)
    expect(five.body.fields[0].field).toBe('messageId')
    expect((await admin.post('/message/forward', { messageId: [], contactId: target.id })).status).toBe(400)
    expect(
      (await admin.post('/message/forward', { messageId: ids.slice(0, 4), contactId: target.id })).status,
    ).toBe(201)
    const note = addMessage(h, ticket, { fromMe: true, isPrivate: true, sendState: null })
    expect((await admin.post('/message/forward', { messageId: note, contactId: target.id })).status).toBe(400)
    expect((await admin.post('/message/forward', { messageId: 'x', contactId: target.id })).status).toBe(400)
    const foreignContact = makeContact(h, h.b.id)
    expect(
      (await admin.post('/message/forward', { messageId: ids[0], contactId: foreignContact.id })).status,
    ).toBe(404)
    const other = await h.as(h.b.admin)
    expect(
      (await other.post('/message/forward', { messageId: ids[0], contactId: foreignContact.id })).status,
    ).toBe(404)
  })
})

describe('acks', () => {
  test('only ever move forward, played counts as read, errors change nothing; updates are live', async () => {
    const h = await createHarness()
    const { ticket } = await sendSetup(h)
    const id = addMessage(h, ticket, { fromMe: true, wid: 'ACK1' })
    const events = h.recordEvents()
    expect(applyAck(h.deps, h.a.id, 'ACK1', 2)).toBe(true)
    expect(messageRow(h, id).ack).toBe(2)
    expect(applyAck(h.deps, h.a.id, 'ACK1', 1)).toBe(false)
    expect(applyAck(h.deps, h.a.id, 'ACK1', -1)).toBe(false)
    expect(messageRow(h, id).ack).toBe(2)
    expect(applyAck(h.deps, h.a.id, 'ACK1', 5)).toBe(true)
    expect(messageRow(h, id).ack).toBe(4)
    expect(applyAck(h.deps, h.a.id, 'ACK1', 4)).toBe(false)
    expect(applyAck(h.deps, h.b.id, 'ACK1', 4)).toBe(false)
    const admins = events.filter((e) => e.room === `company:${h.a.id}:admins`)
    expect(appMessages(admins).map((e) => e.message.ack)).toEqual([2, 4])
  })

  test('a message marked failed that WhatsApp reports as sent is sent after all', async () => {
    const h = await createHarness()
    const { ticket } = await sendSetup(h)
    const id = addMessage(h, ticket, { fromMe: true, wid: 'ACK2', sendState: 'failed' })
    h.deps.sqlite
      .query(`UPDATE messages SET ack = 0, send_error = 'ERR_SEND_INTERRUPTED' WHERE id = ?`)
      .run(id)
    applyAck(h.deps, h.a.id, 'ACK2', 2)
    expect(messageRow(h, id)).toMatchObject({ sendState: 'sent', sendError: null, ack: 2 })
  })
})

describe('POST /messages/{id}/reaction', () => {
  test('our reaction goes to WhatsApp and shows under the message; empty takes it away', async () => {
    const h = await createHarness()
    const { ticket, admin, session } = await sendSetup(h)
    const id = addMessage(h, ticket, { body: 'obrigado!', wid: 'IN7' })
    const res = await admin.post(`/messages/${id}/reaction`, { emoji: '❤️' })
    expect(res.status).toBe(200)
    expect(res.body.reactions).toEqual([{ emoji: '❤️', fromMe: true, senderName: null }])
    expect(session.calls.find((c) => c.method === 'react')?.args[1]).toBe('❤️')
    const removed = await admin.post(`/messages/${id}/reaction`, { emoji: '' })
    expect(removed.body.reactions).toEqual([])
    expect((await (await h.as(h.b.admin)).post(`/messages/${id}/reaction`, { emoji: '👍' })).status).toBe(404)
  })
})
