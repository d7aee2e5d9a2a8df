import { describe, expect, test } from 'bun:test'
import {
  decryptMessageNode,
  encodeWAMessage,
  parseAndInjectE2ESessions,
  proto,
  unpadRandomMax16,
} from '@whiskeysockets/baileys'
import {
  type BinaryNode,
  getBinaryNodeChild,
  getBinaryNodeChildUInt,
} from '@whiskeysockets/baileys/lib/WABinary/index.js'
import pino from 'pino'
import { type BaileysCompanion, baileysCompanion } from './baileys-companion.ts'
import { CustomerDevice } from './customer-device.ts'
import { inboundMessageNode } from './message-stanzas.ts'
import { companionBundleFrom } from './prekey-bundle.ts'
import { throughTheWire } from './wire.ts'

const silent = pino({ level: 'silent' })
const now = () => Math.floor(Date.now() / 1000)

/** What Baileys's socket does with an inbound stanza: decode, decrypt, unpad. */
async function companionReceives(companion: BaileysCompanion, stanza: BinaryNode) {
  const onTheWire = await throughTheWire(stanza)
  const { fullMessage, decrypt } = decryptMessageNode(
    onTheWire,
    companion.jid,
    companion.lidJid,
    companion.repository,
    silent,
  )
  await decrypt()
  return fullMessage
}

/** The server's answer to Baileys's `<iq xmlns="encrypt" type="get">` key fetch, through the codec. */
async function keyFetchAnswer(...users: BinaryNode[]): Promise<BinaryNode> {
  return throughTheWire({
    tag: 'iq',
    attrs: { type: 'result', from: 's.whatsapp.net', id: '1' },
    content: [{ tag: 'list', attrs: {}, content: users }],
  })
}

async function companionEncrypts(companion: BaileysCompanion, to: string, message: proto.IMessage) {
  return companion.repository.encryptMessage({ jid: to, data: encodeWAMessage(message) })
}

describe('a customer device against Baileys own Signal repository', () => {
  test('customer writes first: pkmsg to the uploaded pre-keys, then msg both ways', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(5))
    const customer = new CustomerDevice({ phone: '5511999990001' })

    const first = await customer.encryptMessageTo(companion.jid, keys, { conversation: 'Olá, tudo bem?' })
    expect(first.type).toBe('pkmsg')
    expect(keys.remaining).toBe(4)
    const received = await companionReceives(
      companion,
      inboundMessageNode({ id: 'A1', from: customer.phoneUserJid, t: now(), enc: [first], notify: 'Ana' }),
    )
    expect(received.messageStubType ?? null).toBeNull()
    expect(received.message?.conversation).toBe('Olá, tudo bem?')
    expect(received.key).toMatchObject({ remoteJid: customer.phoneUserJid, id: 'A1', fromMe: false })
    expect(received.pushName).toBe('Ana')

    const reply = await companionEncrypts(companion, customer.phoneUserJid, { conversation: 'Tudo, e você?' })
    expect(reply.type).toBe('msg')
    const decrypted = await customer.decryptMessage(companion.jid, reply)
    expect(decrypted.conversation).toBe('Tudo, e você?')

    const second = await customer.encryptMessageTo(companion.jid, keys, {
      conversation: 'Quero um orçamento',
    })
    expect(second.type).toBe('msg')
    expect(keys.remaining).toBe(4)
    const again = await companionReceives(
      companion,
      inboundMessageNode({ id: 'A2', from: customer.phoneUserJid, t: now(), enc: [second] }),
    )
    expect(again.message?.conversation).toBe('Quero um orçamento')
  })

  test('companion writes first: key fetch answered with bundleNode, then msg both ways', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(3))
    const customer = new CustomerDevice({ phone: '5511999990002' })

    await parseAndInjectE2ESessions(
      await keyFetchAnswer(customer.bundleNode(customer.phoneUserJid)),
      companion.repository,
    )
    const unspentAfterFetch = customer.unspentPreKeys
    const first = await companionEncrypts(companion, customer.phoneUserJid, {
      conversation: 'Seu pedido saiu',
    })
    expect(first.type).toBe('pkmsg')
    expect((await customer.decryptMessage(companion.jid, first)).conversation).toBe('Seu pedido saiu')
    expect(customer.unspentPreKeys).toBe(unspentAfterFetch - 1)

    const answer = await customer.encryptMessageTo(companion.jid, keys, { conversation: 'Obrigada!' })
    expect(answer.type).toBe('msg')
    expect(keys.remaining).toBe(3)
    const received = await companionReceives(
      companion,
      inboundMessageNode({ id: 'B1', from: customer.phoneUserJid, t: now(), enc: [answer] }),
    )
    expect(received.message?.conversation).toBe('Obrigada!')

    const second = await companionEncrypts(companion, customer.phoneUserJid, { conversation: 'Chega amanhã' })
    expect(second.type).toBe('msg')
    expect((await customer.decryptMessage(companion.jid, second)).conversation).toBe('Chega amanhã')
  })

  test('a LID-addressed customer: Baileys decrypts under the LID and learns the phone number', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(2))
    const customer = new CustomerDevice({ phone: '5511999990003', lid: '123456789012345' })
    const enc = await customer.encryptMessageTo(companion.lidJid, keys, { conversation: 'por LID' })
    const received = await companionReceives(
      companion,
      inboundMessageNode({
        id: 'L1',
        from: customer.lidUserJid,
        t: now(),
        enc: [enc],
        addressingMode: 'lid',
        senderAlt: customer.phoneUserJid,
      }),
    )
    expect(received.message?.conversation).toBe('por LID')
    expect(received.key).toMatchObject({
      remoteJid: customer.lidUserJid,
      remoteJidAlt: customer.phoneUserJid,
    })
    const reply = await companionEncrypts(companion, customer.lidUserJid, { conversation: 'ok' })
    expect(reply.type).toBe('msg')
    expect((await customer.decryptMessage(companion.lidJid, reply)).conversation).toBe('ok')
  })

  test('a ciphertext for another device does not decrypt (the test can fail)', async () => {
    const companion = baileysCompanion()
    await parseAndInjectE2ESessions(
      await keyFetchAnswer(
        new CustomerDevice({ phone: '5511999990004' }).bundleNode('5511999990004@s.whatsapp.net'),
      ),
      companion.repository,
    )
    const intruder = new CustomerDevice({ phone: '5511999990004' })
    const enc = await companionEncrypts(companion, '5511999990004@s.whatsapp.net', { conversation: 'secret' })
    await expect(intruder.decryptMessage(companion.jid, enc)).rejects.toThrow()
  })

  test('each bundle spends a one-time pre-key; the pool refills', () => {
    const customer = new CustomerDevice({ phone: '5511999990005', preKeyBatch: 2 })
    const ids = [1, 2, 3].map(() => {
      const key = getBinaryNodeChild(customer.bundleNode(), 'key')
      return key ? getBinaryNodeChildUInt(key, 'id', 3) : undefined
    })
    expect(ids).toEqual([1, 2, 3])
    expect(customer.unspentPreKeys).toBe(4)
  })

  test('raw bytes: decrypt returns the padded plaintext Baileys would unpad', async () => {
    const companion = baileysCompanion()
    const customer = new CustomerDevice({ phone: '5511999990006' })
    await parseAndInjectE2ESessions(await keyFetchAnswer(customer.bundleNode()), companion.repository)
    const bytes = encodeWAMessage({ conversation: 'raw' })
    const enc = await companion.repository.encryptMessage({ jid: customer.jid, data: bytes })
    const padded = await customer.decrypt(companion.jid, enc.type, enc.ciphertext)
    expect(proto.Message.decode(unpadRandomMax16(padded)).conversation).toBe('raw')
  })
})

describe('groups (sender keys)', () => {
  const group = '120363000000000001@g.us'

  test('Baileys encryptGroupMessage: the customer reads the skmsg after the SKDM, and the next one alone', async () => {
    const companion = baileysCompanion()
    const customer = new CustomerDevice({ phone: '5511999990010' })
    await parseAndInjectE2ESessions(await keyFetchAnswer(customer.bundleNode()), companion.repository)

    const first = await companion.repository.encryptGroupMessage({
      group,
      meId: companion.lidJid,
      data: encodeWAMessage({ conversation: 'Olá grupo' }),
    })
    const distribution = await companionEncrypts(companion, customer.jid, {
      senderKeyDistributionMessage: {
        groupId: group,
        axolotlSenderKeyDistributionMessage: first.senderKeyDistributionMessage,
      },
    })
    expect(distribution.type).toBe('pkmsg')
    await customer.decryptMessage(companion.lidJid, distribution)
    const text = await customer.decryptMessage(
      companion.lidJid,
      { type: 'skmsg', ciphertext: first.ciphertext },
      group,
    )
    expect(text.conversation).toBe('Olá grupo')

    const second = await companion.repository.encryptGroupMessage({
      group,
      meId: companion.lidJid,
      data: encodeWAMessage({ conversation: 'segunda' }),
    })
    const next = await customer.decryptMessage(
      companion.lidJid,
      { type: 'skmsg', ciphertext: second.ciphertext },
      group,
    )
    expect(next.conversation).toBe('segunda')
  })

  test('a customer writes in a group: Baileys decrypts pkmsg(SKDM) + skmsg from one stanza, then skmsg alone', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(2))
    const customer = new CustomerDevice({ phone: '5511999990011', lid: '300000000000011' })

    const first = await customer.encryptForGroup(group, [{ jid: companion.lidJid, keys }], {
      conversation: 'oi grupo',
    })
    expect(first.devices.map((d) => d.enc.type)).toEqual(['pkmsg'])
    const received = await companionReceives(
      companion,
      inboundMessageNode({
        id: 'G1',
        from: group,
        participant: customer.lidJid,
        t: now(),
        addressingMode: 'lid',
        senderAlt: customer.jid,
        enc: [...first.devices.map((d) => d.enc), first.skmsg],
      }),
    )
    expect(received.message?.conversation).toBe('oi grupo')
    // The binary codec writes device 0 as no device: `…:0@lid` arrives as `…@lid`.
    expect(received.key).toMatchObject({
      remoteJid: group,
      participant: customer.lidUserJid,
      participantAlt: customer.phoneUserJid,
    })

    const second = await customer.encryptForGroup(group, [{ jid: companion.lidJid, keys }], {
      conversation: 'de novo',
    })
    expect(second.devices).toEqual([])
    const again = await companionReceives(
      companion,
      inboundMessageNode({
        id: 'G2',
        from: group,
        participant: customer.lidJid,
        t: now(),
        enc: [second.skmsg],
      }),
    )
    expect(again.message?.conversation).toBe('de novo')
  })
})

describe("the account's own phone as a Signal device", () => {
  test('a peer message (category=peer) and a message the owner typed on the phone (deviceSentMessage + recipient)', async () => {
    const companion = baileysCompanion({ phone: '5511888880000', lid: '200000000000001' })
    const keys = companionBundleFrom(await companion.uploadPreKeys(2))
    const phone = new CustomerDevice({ phone: '5511888880000', lid: '200000000000001', device: 0 })

    const peer = await phone.encryptMessageTo(companion.jid, keys, {
      protocolMessage: { type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION },
    })
    const history = await companionReceives(
      companion,
      inboundMessageNode({ id: 'H1', from: phone.phoneUserJid, t: now(), category: 'peer', enc: [peer] }),
    )
    expect(history.key.fromMe).toBe(true)
    expect(history.category).toBe('peer')
    expect(history.message?.protocolMessage?.type).toBe(
      proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
    )

    const customer = '5511999990070@s.whatsapp.net'
    const typed = await phone.encryptMessageTo(companion.jid, keys, {
      deviceSentMessage: { destinationJid: customer, message: { conversation: 'enviei do celular' } },
    })
    const own = await companionReceives(
      companion,
      inboundMessageNode({ id: 'S1', from: phone.phoneUserJid, recipient: customer, t: now(), enc: [typed] }),
    )
    expect(own.key).toMatchObject({ remoteJid: customer, fromMe: true, id: 'S1' })
    expect(own.message?.conversation).toBe('enviei do celular')
  })
})
