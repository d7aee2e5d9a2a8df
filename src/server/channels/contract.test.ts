/**
 * Contract tests: the same scenarios against both providers, so the sandbox and the Baileys adapter cannot
 * drift apart. Each driver makes "the customer" do something its own way (the sandbox through
 * `network.inject`, Baileys through the fake socket's real-stanza driver) and the normalized ChannelEvents must
 * come out the same.
 */
import { describe, expect, test } from 'bun:test'
import { initAuthCreds } from '@whiskeysockets/baileys'
import { ManualClock } from '../clock'
import { silentLogger } from '../logger'
import { type AuthHandle, BaileysChannelSession } from './baileys/session'
import { downloadFromFake, type FakeSocket, fakeSocketFactory, settle } from './baileys/testing/fake-socket'
import { lidOf } from './sandbox/identities'
import { connectedSession, createTestNetwork } from './sandbox/testing'
import type { ChannelEvent, ChannelSession, InboundMessage, MsgRef } from './types'

const ME = '5511980000001'
const ME_JID = `${ME}@s.whatsapp.net`
const ME_LID = `${lidOf(ME)}@lid`
const MARIA = '5511999990001'
const MARIA_JID = `${MARIA}@s.whatsapp.net`
const MARIA_LID = `${lidOf(MARIA)}@lid`

type Say = { body: string; name?: string; lidOnly?: boolean; replyTo?: { id: string; ours: boolean } }

/** What a scenario needs from a provider. */
type Driver = {
  session: ChannelSession
  events: ChannelEvent[]
  clock: ManualClock
  /** Maria writes; returns the message id. */
  say(input: Say): Promise<string>
  /** Maria reacts to a message (hers, or ours). */
  react(target: { id: string; ours: boolean }, emoji: string): Promise<void>
  /** Maria edits / deletes one of her messages. */
  edit(id: string, body: string): Promise<void>
  revoke(id: string): Promise<void>
  /** The receipts of a message we sent at `sentAt`: server ack after 50 ms, delivered at 300 ms, read at 2 s. */
  receipts(ref: MsgRef, sentAt: number): Promise<void>
}

async function sandboxDriver(): Promise<Driver> {
  const { network, clock } = createTestNetwork()
  const { session, events } = await connectedSession(network)
  const inject = (input: Record<string, unknown>) => network.inject(1, { from: MARIA, ...input })
  return {
    session,
    events,
    clock,
    async say({ body, name, lidOnly, replyTo }) {
      const r = await inject({ body, name, lidOnly, replyTo: replyTo?.id })
      return r.id
    },
    async react(target, emoji) {
      await inject({ reaction: { to: target.id, emoji } })
    },
    async edit(id, body) {
      await inject({ edit: { id, body } })
    },
    async revoke(id) {
      await inject({ delete: { id } })
    },
    async receipts(_ref, sentAt) {
      await clock.tick(sentAt + 2_000 - clock.now())
    },
  }
}

async function baileysDriver(): Promise<Driver> {
  const clock = new ManualClock()
  const fake = fakeSocketFactory({ auto: true, mePhone: ME, meLid: ME_LID, now: () => clock.now() })
  const creds = initAuthCreds()
  creds.me = { id: `${ME}:1@s.whatsapp.net`, lid: ME_LID, name: 'Loja' }
  creds.registered = true
  // linked: pair-success brought the account signature (creds without it are an unfinished pairing)
  creds.account = { details: new Uint8Array([1]), accountSignatureKey: new Uint8Array(32) }
  const auth: AuthHandle = {
    state: { creds, keys: { get: async () => ({}), set: async () => {} } },
    saveCreds() {},
    clear() {},
  }
  const session = new BaileysChannelSession({
    connectionId: 1,
    companyId: 1,
    log: silentLogger,
    clock,
    authState: async () => auth,
    socketFactory: fake.factory,
    downloadMedia: (msg, sock) => downloadFromFake(sock as FakeSocket, msg),
    watchdogMs: 0,
  })
  const events: ChannelEvent[] = []
  session.on((e) => {
    events.push(e)
  })
  await session.start()
  await settle()
  expect(session.status).toBe('CONNECTED')
  events.length = 0
  const sim = () => fake.current.sim
  const attrs = (lidOnly?: boolean, name?: string) =>
    lidOnly
      ? { from: MARIA_LID, addressing_mode: 'lid' as const, sender_pn: MARIA_JID, notify: name }
      : { from: MARIA_JID, sender_lid: MARIA_LID, notify: name }
  /** Her key of a message: ours are not hers, and she addresses the chat by our JID. */
  const herKey = (id: string, ours: boolean) => ({ remoteJid: ME_JID, fromMe: !ours, id })
  return {
    session,
    events,
    clock,
    async say({ body, name, lidOnly, replyTo }) {
      const message = replyTo
        ? {
            extendedTextMessage: {
              text: body,
              contextInfo: {
                stanzaId: replyTo.id,
                participant: replyTo.ours ? ME_JID : MARIA_JID,
                quotedMessage: { conversation: '…' },
              },
            },
          }
        : { conversation: body }
      const msg = sim().inbound(attrs(lidOnly, name), message)
      await settle()
      return msg.key.id!
    },
    async react(target, emoji) {
      sim().react(attrs(), herKey(target.id, target.ours), emoji)
      await settle()
    },
    async edit(id, body) {
      sim().edit(attrs(), herKey(id, false), body)
      await settle()
    },
    async revoke(id) {
      sim().revoke(attrs(), herKey(id, false))
      await settle()
    },
    async receipts(ref, sentAt) {
      const key = { remoteJid: ref.chatJid, fromMe: true, id: ref.id }
      for (const [status, ms] of [
        [2, 50],
        [3, 300],
        [4, 2_000],
      ] as const) {
        clock.set(sentAt + ms)
        sim().ack(key, status)
      }
      await settle()
    },
  }
}

/** The comparable part of a message event (raw bytes differ: ids, secrets). */
function view(e: InboundMessage) {
  const { raw: _raw, media: _media, ...rest } = e
  return rest
}

const drivers: [string, () => Promise<Driver>][] = [
  ['sandbox', sandboxDriver],
  ['baileys (fake socket)', baileysDriver],
]

for (const [name, make] of drivers) {
  describe(`channel contract: ${name}`, () => {
    test('inbound text with a push name', async () => {
      const d = await make()
      const id = await d.say({ body: 'Olá', name: 'Maria' })
      const ts = Math.floor(d.clock.now() / 1000) * 1000
      expect(d.events.map((e) => (e.t === 'message' ? view(e) : e))).toEqual([
        {
          t: 'message',
          ref: { id, chatJid: MARIA_JID, fromMe: false },
          chat: { jid: MARIA_JID, pn: MARIA, lid: MARIA_LID },
          sender: { jid: MARIA_JID, pn: MARIA, lid: MARIA_LID },
          pushName: 'Maria',
          timestamp: ts,
          isGroup: false,
          offline: false,
          body: 'Olá',
        },
      ])
    })

    test('a reply quotes an earlier message: hers, then ours', async () => {
      const d = await make()
      const first = await d.say({ body: 'primeira', name: 'Maria' })
      const ours = await d.session.send({ jid: MARIA_JID, pn: MARIA }, { kind: 'text', body: 'nossa' })
      await d.say({ body: 'sobre a primeira', name: 'Maria', replyTo: { id: first, ours: false } })
      await d.say({ body: 'sobre a sua', name: 'Maria', replyTo: { id: ours.id, ours: true } })
      const messages = d.events.filter((e): e is InboundMessage => e.t === 'message')
      expect(messages.map((m) => [m.body, m.quoted])).toEqual([
        ['primeira', undefined],
        ['sobre a primeira', { id: first, chatJid: MARIA_JID, fromMe: false }],
        ['sobre a sua', { id: ours.id, chatJid: MARIA_JID, fromMe: true }],
      ])
    })

    test('a reaction to her message, then its removal', async () => {
      const d = await make()
      const first = await d.say({ body: 'oi', name: 'Maria' })
      d.events.length = 0
      await d.react({ id: first, ours: false }, '👍')
      await d.react({ id: first, ours: false }, '')
      const reactions = d.events.filter((e) => e.t === 'reaction')
      expect(d.events).toHaveLength(2)
      expect(
        reactions.map((r) => r.t === 'reaction' && [r.target.id, r.target.chatJid, r.emoji, r.fromMe]),
      ).toEqual([
        [first, MARIA_JID, '👍', false],
        [first, MARIA_JID, '', false],
      ])
      expect(reactions[0]?.t === 'reaction' && reactions[0].from).toEqual({
        jid: MARIA_JID,
        pn: MARIA,
        lid: MARIA_LID,
      })
    })

    // Real Baileys hands `messages.reaction` keys over after cleanMessage, from OUR point of view; the fake
    // socket runs cleanMessage too and the sandbox builds the same shape.
    test('a reaction target keeps fromMe from our point of view', async () => {
      const d = await make()
      const hers = await d.say({ body: 'oi', name: 'Maria' })
      const ours = await d.session.send({ jid: MARIA_JID }, { kind: 'text', body: 'nossa' })
      await d.react({ id: hers, ours: false }, '😂')
      await d.react({ id: ours.id, ours: true }, '❤️')
      const targets = d.events.flatMap((e) => (e.t === 'reaction' ? [e.target] : []))
      expect(targets).toEqual([
        { id: hers, chatJid: MARIA_JID, fromMe: false },
        { id: ours.id, chatJid: MARIA_JID, fromMe: true },
      ])
    })

    test('an edit and a delete of her message', async () => {
      const d = await make()
      const first = await d.say({ body: 'oi', name: 'Maria' })
      d.events.length = 0
      await d.edit(first, 'olá!')
      await d.revoke(first)
      const ref = { id: first, chatJid: MARIA_JID, fromMe: false }
      expect(d.events).toEqual([
        { t: 'edit', ref, body: 'olá!', timestamp: Math.floor(d.clock.now() / 1000) * 1000 },
        { t: 'delete', ref },
      ])
    })

    test('the acks of a sent text progress 1 → 2 → 4', async () => {
      const d = await make()
      const sentAt = d.clock.now()
      const ref = await d.session.send({ jid: MARIA_JID, pn: MARIA }, { kind: 'text', body: 'Bom dia' })
      expect(ref).toEqual({ id: expect.any(String), chatJid: MARIA_JID, fromMe: true })
      await d.receipts(ref, sentAt)
      expect(d.events).toEqual([
        { t: 'ack', ref, ack: 1, timestamp: Math.floor((sentAt + 50) / 1000) * 1000 },
        { t: 'ack', ref, ack: 2, timestamp: Math.floor((sentAt + 300) / 1000) * 1000 },
        { t: 'ack', ref, ack: 4, timestamp: Math.floor((sentAt + 2_000) / 1000) * 1000 },
      ])
    })

    test('a LID chat resolves the phone number', async () => {
      const d = await make()
      const id = await d.say({ body: 'pelo LID', name: 'Maria', lidOnly: true })
      const [msg] = d.events.filter((e): e is InboundMessage => e.t === 'message')
      expect(msg?.ref).toEqual({ id, chatJid: MARIA_LID, fromMe: false })
      expect(msg?.chat).toEqual({ jid: MARIA_LID, lid: MARIA_LID, pn: MARIA })
      expect(msg?.sender).toEqual({ jid: MARIA_LID, lid: MARIA_LID, pn: MARIA })
      expect(msg?.pushName).toBe('Maria')
    })

    test('sending while not connected fails with ERR_WAPP_NOT_INITIALIZED', async () => {
      const d = await make()
      await d.session.stop()
      const err = await d.session
        .send({ jid: MARIA_JID }, { kind: 'text', body: 'x' })
        .catch((e: unknown) => e)
      expect((err as { code?: string }).code).toBe('ERR_WAPP_NOT_INITIALIZED')
    })
  })
}
