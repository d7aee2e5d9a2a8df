import { describe, expect, test } from 'bun:test'
import {
  decryptMessageNode,
  encodeWAMessage,
  parseAndInjectE2ESessions,
  type proto,
} from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys/lib/WABinary/index.js'
import pino from 'pino'
import { type BaileysCompanion, baileysCompanion } from './baileys-companion.ts'
import { inboundMessageNode, parseOutboundMessage, retryReceiptNode } from './message-stanzas.ts'
import { companionBundleFrom } from './prekey-bundle.ts'
import { SimulatedCustomer } from './simulated-customer.ts'
import { throughTheWire } from './wire.ts'

const silent = pino({ level: 'silent' })

async function companionReads(companion: BaileysCompanion, stanza: BinaryNode) {
  const { fullMessage, decrypt } = decryptMessageNode(
    await throughTheWire(stanza),
    companion.jid,
    companion.lidJid,
    companion.repository,
    silent,
  )
  await decrypt()
  return fullMessage
}

/** Baileys's fan-out of one message to the listed devices, as `relayMessage` builds it. */
async function companionSends(
  companion: BaileysCompanion,
  id: string,
  to: string,
  devices: string[],
  message: proto.IMessage,
) {
  const participants: BinaryNode[] = []
  for (const jid of devices) {
    const { type, ciphertext } = await companion.repository.encryptMessage({
      jid,
      data: encodeWAMessage(message),
    })
    participants.push({
      tag: 'to',
      attrs: { jid },
      content: [{ tag: 'enc', attrs: { v: '2', type }, content: ciphertext }],
    })
  }
  return parseOutboundMessage(
    await throughTheWire({
      tag: 'message',
      attrs: { id, to, type: 'text' },
      content: [{ tag: 'participants', attrs: {}, content: participants }],
    }),
  )
}

describe('a simulated customer', () => {
  test('writes a quote and a reaction; reads a two-device fan-out once, in order', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(3))
    const ana = new SimulatedCustomer({ phone: '5511999990050', name: 'Ana', devices: [0, 1] })
    expect(ana.devices.map((d) => d.lid)).toEqual([ana.lid, ana.lid])
    expect(ana.usyncAccount()).toEqual({ phone: '5511999990050', lid: ana.lid, devices: [0, 1] })

    const hello = await ana.send([{ jid: companion.jid, keys }], { kind: 'text', text: 'Oi' })
    expect(hello.type).toBe('text')
    const first = await companionReads(
      companion,
      inboundMessageNode({
        id: hello.id,
        from: ana.phoneUserJid,
        t: 1,
        enc: [hello.encs[0]!.enc],
        notify: ana.name,
      }),
    )
    expect(first.message?.conversation).toBe('Oi')

    const reaction = await ana.send([{ jid: companion.jid }], {
      kind: 'reaction',
      target: { id: 'M1', chat: '5511888880000@s.whatsapp.net', fromMe: false },
      emoji: '🙏',
    })
    expect(reaction.type).toBe('reaction')
    // Still a pkmsg: libsignal keeps the pre-key header until the companion answers.
    expect(reaction.encs[0]?.enc).toMatchObject({ type: 'pkmsg', decryptFail: 'hide' })
    expect(reaction.encs[0]?.enc.mediatype).toBeUndefined()

    await parseAndInjectE2ESessions(
      await throughTheWire({
        tag: 'iq',
        attrs: {},
        content: [
          { tag: 'list', attrs: {}, content: [ana.devices[1]!.bundleNode('5511999990050:1@s.whatsapp.net')] },
        ],
      }),
      companion.repository,
    )
    const answer = await companionSends(
      companion,
      'OUT1',
      ana.phoneUserJid,
      [ana.phoneUserJid, '5511999990050:1@s.whatsapp.net'],
      {
        extendedTextMessage: { text: 'Olá Ana', contextInfo: { stanzaId: hello.id } },
      },
    )
    const { entries, failures } = await ana.receive(answer, companion.jid)
    expect(failures).toEqual([])
    expect(entries).toEqual([
      { id: 'OUT1', from: companion.jid, kind: 'text', text: 'Olá Ana', quotedId: hello.id },
    ])
    expect(ana.received()).toHaveLength(1)
  })

  test('a device without the session reports a failure; the companion resends after the retry and it is read', async () => {
    const companion = baileysCompanion()
    const bia = new SimulatedCustomer({ phone: '5511999990051' })
    await parseAndInjectE2ESessions(
      await throughTheWire({
        tag: 'iq',
        attrs: {},
        content: [{ tag: 'list', attrs: {}, content: [bia.primary.bundleNode(bia.phoneUserJid)] }],
      }),
      companion.repository,
    )
    await companionSends(companion, 'OUT1', bia.phoneUserJid, [bia.phoneUserJid], {
      conversation: 'primeira',
    })
    const lost = await companionSends(companion, 'OUT2', bia.phoneUserJid, [bia.phoneUserJid], {
      conversation: 'segunda',
    })
    // OUT1 never arrived; OUT2 still carries the pre-key header, so the device opens the session from it.
    const result = await bia.receive(lost, companion.jid)
    expect(result.entries.map((e) => e.text)).toEqual(['segunda'])
    // The phone loses its session (reinstall): the next message cannot be placed.
    bia.primary.forgetSession(companion.jid)
    const broken = await companionSends(companion, 'OUT3', bia.phoneUserJid, [bia.phoneUserJid], {
      conversation: 'terceira',
    })
    const failed = await bia.receive(broken, companion.jid)
    expect(failed.entries).toEqual([])
    expect(failed.failures).toHaveLength(1)

    const receipt = await throughTheWire(
      retryReceiptNode({
        id: 'OUT3',
        from: bia.phoneUserJid,
        t: 2,
        count: 1,
        messageT: 1,
        registration: bia.primary.registrationBytes(),
        keys: bia.primary.retryKeysNode(),
      }),
    )
    const { extractE2ESessionFromRetryReceipt } = await import('@whiskeysockets/baileys')
    await companion.repository.injectE2ESession({
      jid: bia.phoneUserJid,
      session: extractE2ESessionFromRetryReceipt(receipt)!,
    })
    const resent = await companionSends(companion, 'OUT3', bia.phoneUserJid, [bia.phoneUserJid], {
      conversation: 'terceira',
    })
    expect((await bia.receive(resent, companion.jid)).entries.map((e) => e.text)).toEqual(['terceira'])
    expect(bia.received().map((e) => e.id)).toEqual(['OUT2', 'OUT3'])
  })

  test('answers the companion retry receipt by resending its own message on a fresh session', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(2))
    const caio = new SimulatedCustomer({ phone: '5511999990052' })
    const sent = await caio.send([{ jid: companion.jid, keys }], { kind: 'text', text: 'perdida' })
    // The companion never got it. Baileys asks again with its keys (sendRetryRequest, count > 1).
    const companionKeys = companionBundleFrom(await companion.uploadPreKeys(1)).takeBundle()
    const receipt = await throughTheWire(
      retryReceiptNode({
        id: sent.id,
        from: companion.jid,
        t: 3,
        count: 2,
        messageT: 1,
        registration: new Uint8Array(Buffer.alloc(4)),
        keys: {
          tag: 'keys',
          attrs: {},
          content: [
            { tag: 'type', attrs: {}, content: new Uint8Array([5]) },
            { tag: 'identity', attrs: {}, content: companion.creds.signedIdentityKey.public },
            {
              tag: 'key',
              attrs: {},
              content: [
                { tag: 'id', attrs: {}, content: new Uint8Array([0, 0, companionKeys.preKey!.keyId]) },
                { tag: 'value', attrs: {}, content: companionKeys.preKey!.publicKey.slice(1) },
              ],
            },
            {
              tag: 'skey',
              attrs: {},
              content: [
                { tag: 'id', attrs: {}, content: new Uint8Array([0, 0, companionKeys.signedPreKey.keyId]) },
                { tag: 'value', attrs: {}, content: companionKeys.signedPreKey.publicKey.slice(1) },
                { tag: 'signature', attrs: {}, content: companionKeys.signedPreKey.signature },
              ],
            },
          ],
        },
      }),
    )
    const resend = await caio.resendFor(receipt, companion.jid)
    expect(resend.id).toBe(sent.id)
    expect(resend.encs[0]?.enc).toMatchObject({ type: 'pkmsg', count: 2 })
    const read = await companionReads(
      companion,
      inboundMessageNode({ id: resend.id, from: caio.phoneUserJid, t: 4, enc: [resend.encs[0]!.enc] }),
    )
    expect(read.message?.conversation).toBe('perdida')
    expect(read.retryCount).toBe(2)
  })

  test('the companion named by PN first and LID later is one peer once known', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(2))
    const dani = new SimulatedCustomer({ phone: '5511999990053' })
    await dani
      .send([{ jid: companion.jid, keys }], { kind: 'text', text: 'oi' })
      .then((out) =>
        companionReads(
          companion,
          inboundMessageNode({ id: out.id, from: dani.phoneUserJid, t: 1, enc: [out.encs[0]!.enc] }),
        ),
      )
    dani.knowPeer('5511888880000@s.whatsapp.net', '200000000000001@lid')
    const reply = await companionSends(companion, 'OUT1', dani.phoneUserJid, [dani.phoneUserJid], {
      conversation: 'oi!',
    })
    expect(reply.devices[0]?.type).toBe('msg')
    expect((await dani.receive(reply, companion.lidJid)).entries.map((e) => e.text)).toEqual(['oi!'])
  })
})

describe('the stanzas for what a customer sent', () => {
  test('1:1 PN and LID addressing, read by decryptMessageNode with the alternate identity', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(2))
    const eva = new SimulatedCustomer({ phone: '5511999990054', lid: '300000000000054', name: 'Eva' })
    const first = await eva.send([{ jid: companion.jid, keys }], { kind: 'text', text: 'pn' })
    const [pn] = eva.stanzasFor(first, { t: 1 })
    expect(pn?.to).toBe(companion.jid)
    const byPhone = await companionReads(companion, pn!.node)
    expect(byPhone.key).toMatchObject({ remoteJid: eva.phoneUserJid, remoteJidAlt: eva.lidUserJid })
    expect(byPhone.pushName).toBe('Eva')
    expect(byPhone.message?.conversation).toBe('pn')

    const second = await eva.send([{ jid: companion.jid }], { kind: 'text', text: 'lid' })
    const [lid] = eva.stanzasFor(second, { t: 2, addressing: 'lid', offline: true })
    const byLid = await companionReads(companion, lid!.node)
    expect(byLid.key).toMatchObject({
      remoteJid: eva.lidUserJid,
      remoteJidAlt: eva.phoneUserJid,
      addressingMode: 'lid',
    })
    expect(byLid.message?.conversation).toBe('lid')
  })

  test('a group message: SKDM + skmsg the first time, skmsg alone after', async () => {
    const group = '120363000000000009@g.us'
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(2))
    const fabi = new SimulatedCustomer({ phone: '5511999990055', lid: '300000000000055' })
    const first = await fabi.sendToGroup(group, [{ jid: companion.lidJid, keys }], {
      kind: 'text',
      text: 'g1',
    })
    const [one] = fabi.stanzasFor(first, { t: 1, addressing: 'lid' })
    const read = await companionReads(companion, one!.node)
    expect(read.key).toMatchObject({
      remoteJid: group,
      participant: fabi.lidUserJid,
      participantAlt: fabi.phoneUserJid,
    })
    expect(read.message?.conversation).toBe('g1')

    const second = await fabi.sendToGroup(group, [{ jid: companion.lidJid }], { kind: 'text', text: 'g2' })
    expect(second.encs).toEqual([])
    const [two] = fabi.stanzasFor(second, { t: 2, addressing: 'lid' })
    expect((await companionReads(companion, two!.node)).message?.conversation).toBe('g2')
  })
})

describe("a customer's receipts", () => {
  test('delivery and read receipts name the customer as the chat does; a retry carries keys from the second try', async () => {
    const gil = new SimulatedCustomer({ phone: '5511999990056', lid: '300000000000056', devices: [0, 4] })
    const delivered = await throughTheWire(gil.receipt(['OUT1', 'OUT2'], { t: 5 }))
    expect(delivered.attrs).toEqual({ id: 'OUT1', from: gil.phoneUserJid, t: '5' })
    const read = await throughTheWire(
      gil.receipt(['OUT1'], { t: 6, type: 'read', addressing: 'lid', device: gil.devices[1] }),
    )
    expect(read.attrs).toMatchObject({ from: '300000000000056:4@lid', type: 'read' })

    const { extractE2ESessionFromRetryReceipt } = await import('@whiskeysockets/baileys')
    const firstTry = await throughTheWire(gil.retryReceipt({ id: 'OUT1', t: 7, messageT: 4, count: 1 }))
    expect(extractE2ESessionFromRetryReceipt(firstTry)).toBeNull()
    const secondTry = await throughTheWire(gil.retryReceipt({ id: 'OUT1', t: 8, messageT: 4, count: 2 }))
    expect(extractE2ESessionFromRetryReceipt(secondTry)?.registrationId).toBe(gil.primary.registrationId)
  })
})
