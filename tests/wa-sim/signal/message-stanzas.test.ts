import { describe, expect, test } from 'bun:test'
import {
  decodeMessageNode,
  encodeWAMessage,
  extractE2ESessionFromRetryReceipt,
  parseAndInjectE2ESessions,
  type proto,
} from '@whiskeysockets/baileys'
import {
  type BinaryNode,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  getBinaryNodeChildUInt,
} from '@whiskeysockets/baileys/lib/WABinary/index.js'
import { type BaileysCompanion, baileysCompanion } from './baileys-companion.ts'
import { CustomerDevice } from './customer-device.ts'
import {
  inboundMessageNode,
  messageAckNode,
  parseOutboundMessage,
  receiptNode,
  retryReceiptNode,
} from './message-stanzas.ts'
import { throughTheWire } from './wire.ts'

async function withSessionTo(companion: BaileysCompanion, ...devices: [CustomerDevice, string][]) {
  const answer = await throughTheWire({
    tag: 'iq',
    attrs: { type: 'result' },
    content: [{ tag: 'list', attrs: {}, content: devices.map(([device, jid]) => device.bundleNode(jid)) }],
  })
  await parseAndInjectE2ESessions(answer, companion.repository)
}

/** The fan-out `relayMessage` builds for a 1:1 chat (Socket/messages-send.js): one `<to>` per device. */
async function relayed(
  companion: BaileysCompanion,
  attrs: Record<string, string>,
  deviceJids: string[],
  message: proto.IMessage,
  extra: BinaryNode[] = [],
): Promise<BinaryNode> {
  const participants: BinaryNode[] = []
  for (const jid of deviceJids) {
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
  return throughTheWire({
    tag: 'message',
    attrs,
    content: [
      { tag: 'participants', attrs: {}, content: participants },
      { tag: 'device-identity', attrs: {}, content: new Uint8Array([1, 2, 3]) },
      ...extra,
    ],
  })
}

describe('what the companion sends', () => {
  test('1:1 fan-out: each device finds its ciphertext and decrypts it', async () => {
    const companion = baileysCompanion()
    const phone = new CustomerDevice({ phone: '5511999990030' })
    const web = new CustomerDevice({ phone: '5511999990030', lid: phone.lid, device: 2 })
    await withSessionTo(companion, [phone, phone.phoneUserJid], [web, '5511999990030:2@s.whatsapp.net'])
    const stanza = await relayed(
      companion,
      { id: 'OUT1', to: phone.phoneUserJid, type: 'text' },
      [phone.phoneUserJid, '5511999990030:2@s.whatsapp.net'],
      { conversation: 'Olá dos dois' },
      [{ tag: 'meta', attrs: { appdata: 'default' } }],
    )
    const outbound = parseOutboundMessage(stanza)
    expect(outbound).toMatchObject({ id: 'OUT1', to: phone.phoneUserJid, type: 'text' })
    expect(outbound.devices.map((d) => [d.jid, d.type])).toEqual([
      [phone.phoneUserJid, 'pkmsg'],
      ['5511999990030:2@s.whatsapp.net', 'pkmsg'],
    ])
    expect(outbound.deviceIdentity).toEqual(new Uint8Array([1, 2, 3]))
    expect(outbound.otherNodes.map((n) => n.tag)).toEqual(['meta'])
    const [forPhone, forWeb] = outbound.devices
    expect((await phone.decryptMessage(companion.jid, forPhone!)).conversation).toBe('Olá dos dois')
    expect((await web.decryptMessage(companion.jid, forWeb!)).conversation).toBe('Olá dos dois')
  })

  test('group: the SKDM in a participant pkmsg and the skmsg beside it', async () => {
    const group = '120363000000000002@g.us'
    const companion = baileysCompanion()
    const customer = new CustomerDevice({ phone: '5511999990031', lid: '300000000000031' })
    await withSessionTo(companion, [customer, customer.lidUserJid])
    const { ciphertext, senderKeyDistributionMessage } = await companion.repository.encryptGroupMessage({
      group,
      meId: companion.lidJid,
      data: encodeWAMessage({ conversation: 'para o grupo' }),
    })
    const withSkdm = await relayed(
      companion,
      { id: 'GOUT1', to: group, type: 'text', addressing_mode: 'lid' },
      [customer.lidUserJid],
      {
        senderKeyDistributionMessage: {
          groupId: group,
          axolotlSenderKeyDistributionMessage: senderKeyDistributionMessage,
        },
      },
    )
    const stanza = await throughTheWire({
      ...withSkdm,
      content: [
        ...(withSkdm.content as BinaryNode[]),
        { tag: 'enc', attrs: { v: '2', type: 'skmsg' }, content: ciphertext },
      ],
    })
    const outbound = parseOutboundMessage(stanza)
    expect(outbound.addressingMode).toBe('lid')
    expect(outbound.skmsg).toBeDefined()
    expect(outbound.devices).toHaveLength(1)
    const distribution = await customer.decryptMessage(companion.lidJid, outbound.devices[0]!)
    expect(distribution.senderKeyDistributionMessage?.groupId).toBe(group)
    const text = await customer.decryptMessage(companion.lidJid, { type: 'skmsg', ...outbound.skmsg! }, group)
    expect(text.conversation).toBe('para o grupo')
  })

  test('a resend to one device: direct enc with its count, addressed to that device', async () => {
    const stanza = await throughTheWire({
      tag: 'message',
      attrs: { id: 'OUT2', to: '5511999990032:2@s.whatsapp.net', type: 'text', device_fanout: 'false' },
      content: [{ tag: 'enc', attrs: { v: '2', type: 'msg', count: '2' }, content: new Uint8Array([9]) }],
    })
    expect(parseOutboundMessage(stanza)).toMatchObject({
      deviceFanout: false,
      devices: [{ jid: '5511999990032:2@s.whatsapp.net', type: 'msg', count: 2 }],
    })
  })
})

describe("the server's answers around a message", () => {
  test('ack, and an error ack as handleBadAck reads it', async () => {
    const ok = await throughTheWire(
      messageAckNode({ id: 'OUT1', to: '5511999990030@s.whatsapp.net' }, { t: 1700 }),
    )
    expect(ok).toMatchObject({
      tag: 'ack',
      attrs: { class: 'message', id: 'OUT1', from: '5511999990030@s.whatsapp.net', t: '1700' },
    })
    expect(ok.attrs.error).toBeUndefined()
    const rejected = await throughTheWire(
      messageAckNode({ id: 'OUT1', to: '5511999990030@s.whatsapp.net' }, { t: 1700, error: 463 }),
    )
    expect(rejected.attrs.error).toBe('463')
  })

  test('a read receipt for several messages: first id on the node, the rest in list/item', async () => {
    const node = await throughTheWire(
      receiptNode({ ids: ['A', 'B', 'C'], from: '5511999990030@s.whatsapp.net', type: 'read', t: 1700 }),
    )
    expect(node.attrs).toMatchObject({
      id: 'A',
      type: 'read',
      from: '5511999990030@s.whatsapp.net',
      t: '1700',
    })
    // handleReceipt: ids = [attrs.id, ...items of content[0]]
    const items = getBinaryNodeChildren((node.content as BinaryNode[])[0], 'item').map((i) => i.attrs.id)
    expect(items).toEqual(['B', 'C'])
    const delivered = await throughTheWire(
      receiptNode({ ids: ['A'], from: '5511999990030@s.whatsapp.net', t: 1 }),
    )
    expect(delivered.attrs.type).toBeUndefined()
    expect(delivered.content).toBeUndefined()
  })

  test('a retry receipt with keys: Baileys builds a new session from it and the customer reads the resend', async () => {
    const companion = baileysCompanion()
    const customer = new CustomerDevice({ phone: '5511999990033' })
    const receipt = await throughTheWire(
      retryReceiptNode({
        id: 'OUT9',
        from: customer.phoneUserJid,
        t: 1700,
        count: 2,
        messageT: 1690,
        registration: customer.registrationBytes(),
        keys: customer.retryKeysNode(),
      }),
    )
    expect(getBinaryNodeChild(receipt, 'retry')?.attrs).toMatchObject({
      count: '2',
      id: 'OUT9',
      t: '1690',
      v: '1',
    })
    expect(getBinaryNodeChildUInt(receipt, 'registration', 4)).toBe(customer.registrationId)
    const bundle = extractE2ESessionFromRetryReceipt(receipt)
    expect(bundle?.registrationId).toBe(customer.registrationId)
    expect(bundle?.preKey).toBeDefined()
    await companion.repository.injectE2ESession({ jid: customer.phoneUserJid, session: bundle! })
    const resend = await companion.repository.encryptMessage({
      jid: customer.phoneUserJid,
      data: encodeWAMessage({ conversation: 'de novo' }),
    })
    expect(resend.type).toBe('pkmsg')
    expect((await customer.decryptMessage(companion.jid, resend)).conversation).toBe('de novo')
  })
})

describe('inbound stanza attributes, as decodeMessageNode reads them', () => {
  const me = '5511888880000:3@s.whatsapp.net'
  const meLid = '200000000000001:3@lid'
  const enc = [{ type: 'msg' as const, ciphertext: new Uint8Array([1]) }]

  test('PN-addressed 1:1 with the LID in sender_lid, push name, offline', async () => {
    const node = await throughTheWire(
      inboundMessageNode({
        id: 'I1',
        from: '5511999990040@s.whatsapp.net',
        t: 1700,
        enc,
        senderAlt: '300000000000040@lid',
        notify: 'Caio',
        offline: true,
      }),
    )
    expect(node.attrs.sender_lid).toBe('300000000000040@lid')
    expect(node.attrs.offline).toBeTruthy()
    const { fullMessage } = decodeMessageNode(node, me, meLid)
    expect(fullMessage.key).toMatchObject({
      remoteJid: '5511999990040@s.whatsapp.net',
      remoteJidAlt: '300000000000040@lid',
      addressingMode: 'pn',
      fromMe: false,
    })
    expect(fullMessage.pushName).toBe('Caio')
  })

  test('group with a PN participant and its LID in participant_lid', async () => {
    const node = await throughTheWire(
      inboundMessageNode({
        id: 'I2',
        from: '120363000000000003@g.us',
        participant: '5511999990041@s.whatsapp.net',
        t: 1700,
        enc,
        addressingMode: 'pn',
        senderAlt: '300000000000041@lid',
      }),
    )
    expect(node.attrs).toMatchObject({ addressing_mode: 'pn', participant_lid: '300000000000041@lid' })
    const { fullMessage, author } = decodeMessageNode(node, me, meLid)
    expect(author).toBe('5511999990041@s.whatsapp.net')
    expect(fullMessage.key).toMatchObject({
      remoteJid: '120363000000000003@g.us',
      participant: '5511999990041@s.whatsapp.net',
      participantAlt: '300000000000041@lid',
    })
  })

  test('enc attributes: mediatype, count, decrypt-fail', async () => {
    const node = await throughTheWire(
      inboundMessageNode({
        id: 'I3',
        from: '5511999990042@s.whatsapp.net',
        t: 1700,
        type: 'media',
        enc: [
          { type: 'msg', ciphertext: new Uint8Array([1]), mediatype: 'ptt', count: 1, decryptFail: 'hide' },
        ],
      }),
    )
    expect(node.attrs.type).toBe('media')
    expect(getBinaryNodeChild(node, 'enc')?.attrs).toEqual({
      v: '2',
      type: 'msg',
      mediatype: 'ptt',
      count: '1',
      'decrypt-fail': 'hide',
    })
  })
})
