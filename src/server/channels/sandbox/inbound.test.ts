import { describe, expect, test } from 'bun:test'
import { AppError } from '../../../shared/errors'
import type { InboundMessage } from '../types'
import { customerNameOf, lidOf } from './identities'
import { connectedSession, createTestNetwork } from './testing'

const MARIA = '5511999990001'
const MARIA_JID = `${MARIA}@s.whatsapp.net`
const MARIA_LID = `${lidOf(MARIA)}@lid`
const ME = '5511980000001'
const ME_JID = `${ME}@s.whatsapp.net`

async function setup() {
  const t = createTestNetwork()
  const s = await connectedSession(t.network)
  const inject = async (input: Record<string, unknown>) => {
    const r = await t.network.inject(1, input)
    return r.id
  }
  const messages = () => s.of('message')
  return { ...t, ...s, inject, messages }
}

async function validationError(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  expect((err as AppError).code).toBe('ERR_VALIDATION')
  return (err as AppError).fields ?? []
}

describe('sandbox inbound', () => {
  test('a text with a push name becomes one message event', async () => {
    const { inject, events, clock } = await setup()
    const id = await inject({ from: MARIA, name: 'Maria', body: 'Olá' })
    expect(id).toMatch(/^3EB0[0-9A-F]{36}$/)
    expect(events).toHaveLength(1)
    const msg = events[0] as InboundMessage
    expect(msg).toMatchObject({
      t: 'message',
      ref: { id, chatJid: MARIA_JID, fromMe: false },
      chat: { jid: MARIA_JID, pn: MARIA, lid: MARIA_LID },
      sender: { jid: MARIA_JID, pn: MARIA, lid: MARIA_LID },
      pushName: 'Maria',
      timestamp: Math.floor(clock.now() / 1000) * 1000,
      isGroup: false,
      offline: false,
      body: 'Olá',
    })
    expect(msg.raw).toBeInstanceOf(Uint8Array)
  })

  test('customers get a deterministic name, and keep the last push name they used', async () => {
    const { inject, messages } = await setup()
    await inject({ from: '5511999990002', body: 'a' })
    await inject({ from: '5511999990002', name: 'Zé', body: 'b' })
    await inject({ from: '5511999990002', body: 'c', id: 'ABCDEF123456' })
    expect(messages().map((m) => m.pushName)).toEqual([customerNameOf('5511999990002'), 'Zé', 'Zé'])
    expect(messages()[2]?.ref.id).toBe('ABCDEF123456')
  })

  test('an image: media fields, caption as body, and download returns the injected bytes', async () => {
    const { inject, messages } = await setup()
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3, 4])
    await inject({
      from: MARIA,
      media: {
        kind: 'image',
        mimetype: 'image/jpeg',
        caption: 'foto',
        dataBase64: Buffer.from(bytes).toString('base64'),
      },
    })
    const [msg] = messages()
    expect(msg?.body).toBe('foto')
    expect(msg?.media).toMatchObject({
      kind: 'image',
      mimetype: 'image/jpeg',
      caption: 'foto',
      size: bytes.length,
    })
    expect(await msg!.media!.download()).toEqual(bytes)
  })

  test('documents (with caption, wrapped), voice notes, and media without bytes', async () => {
    const { inject, messages } = await setup()
    await inject({
      from: MARIA,
      body: 'segue o contrato',
      media: {
        kind: 'document',
        mimetype: 'application/pdf',
        fileName: 'contrato.pdf',
        dataBase64: 'JVBERi0=',
      },
    })
    await inject({
      from: MARIA,
      media: { kind: 'audio', mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 7 },
    })
    await inject({ from: MARIA, media: { kind: 'sticker', mimetype: 'image/webp' } })
    const [doc, voice, sticker] = messages()
    expect(doc?.media).toMatchObject({
      kind: 'document',
      mimetype: 'application/pdf',
      fileName: 'contrato.pdf',
      caption: 'segue o contrato',
      size: 5,
    })
    expect(doc?.body).toBe('segue o contrato')
    expect(new TextDecoder().decode(await doc!.media!.download())).toBe('%PDF-')
    expect(voice?.media).toMatchObject({ kind: 'audio', ptt: true, seconds: 7 })
    expect((await voice!.media!.download()).byteLength).toBeGreaterThan(0)
    expect(sticker?.media?.kind).toBe('sticker')
    expect((await sticker!.media!.download()).slice(1, 4)).toEqual(new TextEncoder().encode('PNG'))
  })

  test("a reply quotes the earlier message: the customer's own, or ours", async () => {
    const { inject, messages, session } = await setup()
    const first = await inject({ from: MARIA, body: 'primeira' })
    const ours = await session.send({ jid: MARIA_JID }, { kind: 'text', body: 'nossa' })
    await inject({ from: MARIA, body: 'respondendo a mim', replyTo: first })
    await inject({ from: MARIA, body: 'respondendo a vocês', replyTo: ours.id })
    const [, toSelf, toUs] = messages()
    expect(toSelf?.quoted).toEqual({ id: first, chatJid: MARIA_JID, fromMe: false })
    expect(toSelf?.body).toBe('respondendo a mim')
    expect(toUs?.quoted).toEqual({ id: ours.id, chatJid: MARIA_JID, fromMe: true })
  })

  test('a reaction is a reaction event, not a message; an empty emoji removes it', async () => {
    const { inject, events, clock } = await setup()
    const first = await inject({ from: MARIA, body: 'oi' })
    events.length = 0
    await inject({ from: MARIA, reaction: { to: first, emoji: '👍' } })
    await inject({ from: MARIA, reaction: { to: first, emoji: '' } })
    expect(events).toEqual([
      {
        t: 'reaction',
        target: expect.objectContaining({ id: first, chatJid: MARIA_JID }),
        emoji: '👍',
        from: { jid: MARIA_JID, pn: MARIA, lid: MARIA_LID },
        fromMe: false,
        timestamp: clock.now(),
      },
      expect.objectContaining({ t: 'reaction', emoji: '' }),
    ])
  })

  // Baileys' cleanMessage (process-message.js normaliseKey) hands reaction targets over from our point of view.
  test('reaction targets keep fromMe from our point of view', async () => {
    const { inject, session, of } = await setup()
    const ours = await session.send({ jid: MARIA_JID }, { kind: 'text', body: 'nossa' })
    const theirs = await inject({ from: MARIA, body: 'dela' })
    await inject({ from: MARIA, reaction: { to: ours.id, emoji: '❤️' } })
    await inject({ from: MARIA, reaction: { to: theirs, emoji: '😂' } })
    expect(of('reaction').map((r) => r.target)).toEqual([
      { id: ours.id, chatJid: MARIA_JID, fromMe: true },
      { id: theirs, chatJid: MARIA_JID, fromMe: false },
    ])
  })

  test('an edit and a delete of an earlier message', async () => {
    const { inject, events, clock } = await setup()
    const first = await inject({ from: MARIA, body: 'oi' })
    events.length = 0
    await inject({ from: MARIA, edit: { id: first, body: 'olá!' } })
    await inject({ from: MARIA, delete: { id: first } })
    const ref = { id: first, chatJid: MARIA_JID, fromMe: false }
    expect(events).toEqual([
      { t: 'edit', ref, body: 'olá!', timestamp: Math.floor(clock.now() / 1000) * 1000 },
      { t: 'delete', ref },
    ])
  })

  test("a customer cannot edit or delete someone else's message", async () => {
    const { inject, session } = await setup()
    const ours = await session.send({ jid: MARIA_JID }, { kind: 'text', body: 'nossa' })
    const other = await inject({ from: '5511999990003', body: 'outro' })
    expect(await validationError(inject({ from: MARIA, edit: { id: ours.id, body: 'x' } }))).toEqual([
      { field: 'edit.id', message: 'must be a message this customer sent' },
    ])
    expect(await validationError(inject({ from: MARIA, delete: { id: other } }))).toEqual([
      { field: 'delete.id', message: 'must be a message this customer sent' },
    ])
  })

  test('a LID-only chat is keyed by the LID and still resolves the phone number', async () => {
    const { inject, messages } = await setup()
    const id = await inject({ from: MARIA, name: 'Maria', body: 'via LID', lidOnly: true })
    const [msg] = messages()
    expect(msg?.ref).toEqual({ id, chatJid: MARIA_LID, fromMe: false })
    expect(msg?.chat).toEqual({ jid: MARIA_LID, lid: MARIA_LID, pn: MARIA })
    expect(msg?.sender).toEqual(msg!.chat)
  })

  test('messages queued while offline arrive as append (offline: true)', async () => {
    const { inject, messages } = await setup()
    await inject({
      from: MARIA,
      body: 'enquanto estava offline',
      offline: true,
      timestamp: 1_700_000_000_000,
    })
    expect(messages()[0]).toMatchObject({ offline: true, timestamp: 1_700_000_000_000 })
  })

  test('group messages: the group is the chat, the customer the sender', async () => {
    const { inject, messages, network, session } = await setup()
    const id = await inject({
      from: MARIA,
      body: 'no grupo',
      group: { id: '120363000000000001', name: 'Clientes VIP' },
    })
    const [msg] = messages()
    expect(msg).toMatchObject({
      ref: { id, chatJid: '120363000000000001@g.us', fromMe: false, participant: MARIA_JID },
      chat: { jid: '120363000000000001@g.us' },
      sender: { jid: MARIA_JID, pn: MARIA, lid: MARIA_LID },
      isGroup: true,
    })
    expect(network.groupName('120363000000000001@g.us')).toBe('Clientes VIP')
    expect(await session.profilePictureUrl({ jid: '120363000000000001@g.us' })).toStartWith(
      'data:image/svg+xml',
    )
  })

  test('locations and contact cards', async () => {
    const { inject, messages } = await setup()
    await inject({ from: MARIA, location: { latitude: -23.55, longitude: -46.63, name: 'Loja Centro' } })
    await inject({ from: MARIA, contact: { name: 'João', phone: '5511988887777' } })
    const [loc, card] = messages()
    expect(loc?.location).toEqual({ latitude: -23.55, longitude: -46.63, name: 'Loja Centro' })
    expect(card?.vcards?.[0]?.displayName).toBe('João')
    expect(card?.vcards?.[0]?.vcard).toContain('waid=5511988887777:+5511988887777')
  })

  test('a message sent from the company phone is fromMe, without a push name', async () => {
    const { inject, messages } = await setup()
    await inject({ from: MARIA, body: 'enviado pelo celular', fromMe: true })
    expect(messages()[0]).toMatchObject({
      ref: { chatJid: MARIA_JID, fromMe: true },
      chat: { jid: MARIA_JID, pn: MARIA },
      sender: { jid: ME_JID, pn: ME },
      body: 'enviado pelo celular',
    })
    expect(messages()[0]?.pushName).toBeUndefined()
  })

  test('bad input is rejected with field errors, before anything is emitted', async () => {
    const { inject, events } = await setup()
    expect(await validationError(inject({ from: '+55 11 9999', body: 'x' }))).toEqual([
      { field: 'from', message: 'must be a phone number: 8 to 15 digits, no + or spaces' },
    ])
    expect(await validationError(inject({ from: MARIA }))).toEqual([
      { field: 'body', message: 'is required (or media, location, contact, reaction, edit or delete)' },
    ])
    expect(
      await validationError(inject({ from: MARIA, body: 'x', reaction: { to: 'ABCDEF123', emoji: '👍' } })),
    ).toEqual([{ field: 'body', message: 'cannot be combined with reaction' }])
    const fields = await validationError(
      inject({ from: MARIA, media: { kind: 'gif', mimetype: 'nope', dataBase64: '***' }, lidOnly: 'yes' }),
    )
    expect(fields.map((f) => f.field).sort()).toEqual([
      'lidOnly',
      'media.dataBase64',
      'media.kind',
      'media.mimetype',
    ])
    expect(events).toEqual([])
  })

  test('injecting while the session is not connected fails', async () => {
    const { network, session } = await setup()
    await session.stop()
    const err = await network.inject(1, { from: MARIA, body: 'oi' }).catch((e: AppError) => e)
    expect((err as AppError).code).toBe('ERR_WAPP_NOT_INITIALIZED')
  })
})
