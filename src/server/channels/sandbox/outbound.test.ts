import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AppError } from '../../../shared/errors'
import { connectedSession, createTestNetwork } from './testing'

const MARIA = '5511999990001'
const MARIA_JID = `${MARIA}@s.whatsapp.net`
const dir = mkdtempSync(join(tmpdir(), 'balcao-sandbox-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function setup(options = {}) {
  const t = createTestNetwork(options)
  const s = await connectedSession(t.network)
  return { ...t, ...s }
}

async function code(promise: Promise<unknown>) {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(AppError)
  return (err as AppError).code
}

describe('sandbox outbound', () => {
  test('a sent text is recorded at once and its ack advances 1 → 2 → 4 over time', async () => {
    const { session, network, clock, events } = await setup()
    const at = clock.now()
    const ref = await session.send({ jid: MARIA_JID, pn: MARIA }, { kind: 'text', body: 'Bom dia!' })
    expect(ref).toEqual({ id: expect.stringMatching(/^3EB0[0-9A-F]+$/), chatJid: MARIA_JID, fromMe: true })
    expect(network.outbound(1)).toEqual([
      { id: ref.id, to: MARIA_JID, kind: 'text', body: 'Bom dia!', at, ack: 0 },
    ])
    expect(events).toEqual([])

    await clock.tick(50)
    await clock.tick(250)
    await clock.tick(1_699)
    expect(events.map((e) => e.t === 'ack' && e.ack)).toEqual([1, 2])
    await clock.tick(1)
    expect(events).toEqual([
      { t: 'ack', ref, ack: 1, timestamp: Math.floor((at + 50) / 1000) * 1000 },
      { t: 'ack', ref, ack: 2, timestamp: Math.floor((at + 300) / 1000) * 1000 },
      { t: 'ack', ref, ack: 4, timestamp: Math.floor((at + 2_000) / 1000) * 1000 },
    ])
    expect(network.outbound(1)[0]?.ack).toBe(4)
    expect(clock.pendingTimers).toBe(0)
  })

  test('a message to a number that is not on WhatsApp stops at sent', async () => {
    const { session, clock, of } = await setup()
    await session.send({ jid: '5511999990000@s.whatsapp.net' }, { kind: 'text', body: 'alô?' })
    await clock.tick(5_000)
    expect(of('ack').map((e) => e.ack)).toEqual([1])
  })

  test('acks are scaled by timeScale', async () => {
    const { session, clock, of } = await setup({ timeScale: 0.1 })
    await session.send({ jid: MARIA_JID }, { kind: 'text', body: 'rápido' })
    await clock.tick(200)
    expect(of('ack').map((e) => e.ack)).toEqual([1, 2, 4])
  })

  test('replies, locations, contacts and media are recorded with their details', async () => {
    const { session, network } = await setup()
    const first = await session.send({ jid: MARIA_JID }, { kind: 'text', body: 'primeira' })
    await session.send({ jid: MARIA_JID }, { kind: 'text', body: 'resposta' }, { quoted: first })
    await session.send(
      { jid: MARIA_JID },
      { kind: 'location', latitude: -23.5, longitude: -46.6, name: 'Loja' },
    )
    await session.send(
      { jid: MARIA_JID },
      { kind: 'contacts', contacts: [{ displayName: 'Suporte', vcard: 'BEGIN:VCARD\nEND:VCARD' }] },
    )
    const path = join(dir, 'boleto.pdf')
    writeFileSync(path, 'x'.repeat(1234))
    await session.send(
      { jid: MARIA_JID },
      { kind: 'document', path, mimetype: 'application/pdf', caption: 'seu boleto' },
    )
    const [, reply, location, contacts, doc] = network.outbound(1)
    expect(reply).toMatchObject({ kind: 'text', body: 'resposta', quotedId: first.id })
    expect(location).toMatchObject({ kind: 'location', body: 'Loja' })
    expect(contacts).toMatchObject({ kind: 'contacts', body: 'Suporte' })
    expect(doc).toMatchObject({
      kind: 'document',
      body: 'seu boleto',
      media: { mimetype: 'application/pdf', fileName: 'boleto.pdf', size: 1234 },
    })
  })

  test('sending a file that does not exist, or to an address that is not WhatsApp, fails', async () => {
    const { session } = await setup()
    expect(
      await code(
        session.send(
          { jid: MARIA_JID },
          { kind: 'image', path: join(dir, 'nope.jpg'), mimetype: 'image/jpeg' },
        ),
      ),
    ).toBe('ERR_SENDING_WAPP_MSG')
    expect(await code(session.send({ jid: 'someone@example.com' }, { kind: 'text', body: 'x' }))).toBe(
      'ERR_WAPP_INVALID_CONTACT',
    )
  })

  test('react, edit and delete are recorded; only our own messages can be edited or deleted', async () => {
    const { session, network } = await setup()
    const ref = await session.send({ jid: MARIA_JID }, { kind: 'text', body: 'oi' })
    const { id: theirs } = await network.inject(1, { from: MARIA, body: 'olá' })
    const theirRef = { id: theirs, chatJid: MARIA_JID, fromMe: false }
    await session.react(theirRef, '👍')
    await session.edit(ref, 'oi, tudo bem?')
    await session.deleteForEveryone(ref)
    expect(network.outbound(1).slice(1)).toEqual([
      expect.objectContaining({ kind: 'reaction', emoji: '👍', reactionTo: theirs, to: MARIA_JID, ack: 1 }),
      expect.objectContaining({ kind: 'edit', body: 'oi, tudo bem?', editOf: ref.id, ack: 1 }),
      expect.objectContaining({ kind: 'delete', deleteOf: ref.id, ack: 1 }),
    ])
    expect(await code(session.edit(theirRef, 'x'))).toBe('ERR_VALIDATION')
    expect(await code(session.deleteForEveryone(theirRef))).toBe('ERR_DELETE_WAPP_MSG')
  })

  test('forward re-sends a message we hold (its raw bytes)', async () => {
    const { session, network, of } = await setup()
    await network.inject(1, { from: MARIA, body: 'encaminha isso' })
    const [msg] = of('message')
    const ref = await session.forward({ jid: '5511999990002@s.whatsapp.net' }, msg!.ref, msg!.raw!)
    expect(network.outbound(1)).toEqual([
      expect.objectContaining({
        id: ref.id,
        to: '5511999990002@s.whatsapp.net',
        kind: 'text',
        body: 'encaminha isso',
        forwardOf: msg!.ref.id,
      }),
    ])
    expect(await code(session.forward({ jid: MARIA_JID }, msg!.ref, new Uint8Array([1, 2, 3])))).toBe(
      'ERR_VALIDATION',
    )
  })

  test('checkNumbers: numbers ending in 0 are not on WhatsApp', async () => {
    const { session } = await setup()
    expect(await session.checkNumbers(['5511999990001', '+55 (11) 99999-0010'])).toEqual([
      { phone: '5511999990001', exists: true, jid: '5511999990001@s.whatsapp.net' },
      { phone: '+55 (11) 99999-0010', exists: false },
    ])
  })

  test('profilePictureUrl: a generated SVG avatar, none for numbers ending in 9 (or not on WhatsApp)', async () => {
    const { session, network } = await setup()
    const url = await session.profilePictureUrl({ jid: MARIA_JID })
    expect(url).toStartWith('data:image/svg+xml;base64,')
    const svg = Buffer.from(url!.split(',')[1]!, 'base64').toString()
    expect(svg).toContain('<svg')
    expect(svg).toContain(
      `>${network
        .customer(MARIA)
        .name.split(' ')
        .map((w) => w[0])
        .join('')}<`,
    )
    expect(await session.profilePictureUrl({ jid: '5511999990009@s.whatsapp.net' })).toBeNull()
    expect(await session.profilePictureUrl({ jid: '5511999990000@s.whatsapp.net' })).toBeNull()
    // by LID, once the network knows the customer
    expect(await session.profilePictureUrl({ jid: network.customer(MARIA).lidJid })).toBe(url)
  })

  test('sending, reacting and asking while not connected fails with ERR_WAPP_NOT_INITIALIZED', async () => {
    const { session } = await setup()
    await session.stop()
    const ref = { id: 'ABCDEF123456', chatJid: MARIA_JID, fromMe: true }
    for (const call of [
      session.send({ jid: MARIA_JID }, { kind: 'text', body: 'x' }),
      session.react(ref, '👍'),
      session.edit(ref, 'x'),
      session.deleteForEveryone(ref),
      session.checkNumbers([MARIA]),
      session.profilePictureUrl({ jid: MARIA_JID }),
    ]) {
      expect(await code(call)).toBe('ERR_WAPP_NOT_INITIALIZED')
    }
  })

  test('receipts due during a reconnect arrive once the session is back; stop cancels them', async () => {
    const { session, network, clock, of } = await setup()
    await session.send({ jid: MARIA_JID }, { kind: 'text', body: 'x' })
    await network.simulateDisconnect(1, 408)
    await clock.tick(500)
    expect(of('ack')).toEqual([])
    await clock.tick(500)
    expect(of('ack').map((e) => e.ack)).toEqual([1, 2])
    await session.stop()
    expect(clock.pendingTimers).toBe(0)
  })
})
