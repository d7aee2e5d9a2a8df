import { describe, expect, test } from 'bun:test'
import {
  type BinaryNode,
  decodeMessageNode,
  generateWAMessageContent,
  generateWAMessageFromContent,
  proto,
  type WAMessage,
  WAMessageStubType,
} from '@whiskeysockets/baileys'
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger'
import {
  baileysStatusToAck,
  decodeWAMessage,
  type NormalizeContext,
  normalizeBaileysEvents,
} from './normalize'
import {
  ackToBaileysStatus,
  buildAckUpdate,
  buildEditUpdate,
  buildGroupReceipt,
  buildReaction,
  buildRevokeUpdate,
  buildWAMessage,
} from './normalize.fixtures'
import type { ChannelEventOf, InboundMessage } from './types'

const ME = '5511900000000@s.whatsapp.net'
const ME_LID = '99000000000001@lid'
const CUSTOMER = '5511988887777@s.whatsapp.net'
const CUSTOMER_LID = '123456789012345@lid'
const GROUP = '120363000000000001@g.us'

const silent: ILogger = {
  level: 'silent',
  child: () => silent,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
}

function makeCtx(extra: Partial<NormalizeContext> = {}) {
  const downloads: WAMessage[] = []
  const ctx: NormalizeContext = {
    meJid: ME,
    meLid: ME_LID,
    download: async (msg) => {
      downloads.push(msg)
      return new Uint8Array([1, 2, 3])
    },
    now: () => 1_700_000_000_000,
    ...extra,
  }
  return { ctx, downloads }
}

/** Runs a stanza through Baileys' real decodeMessageNode, then sets the content. */
function fromStanza(attrs: Record<string, string>, message: proto.IMessage): WAMessage {
  const stanza: BinaryNode = { tag: 'message', attrs: { t: '1700000000', type: 'text', ...attrs } }
  const { fullMessage } = decodeMessageNode(stanza, ME, ME_LID)
  fullMessage.message = proto.Message.fromObject(message)
  return fullMessage
}

function inbound(
  messages: WAMessage[],
  type: 'notify' | 'append' = 'notify',
  ctx = makeCtx().ctx,
): InboundMessage[] {
  return normalizeBaileysEvents({ 'messages.upsert': { messages, type } }, ctx).filter(
    (e): e is InboundMessage => e.t === 'message',
  )
}

const fakeUpload = async (_path: string, o: { fileEncSha256B64: string }) => ({
  mediaUrl: `https://mmg.whatsapp.net/test/${encodeURIComponent(o.fileEncSha256B64)}`,
  directPath: `/test/${encodeURIComponent(o.fileEncSha256B64)}`,
})

async function mediaMessage(
  content: Parameters<typeof generateWAMessageContent>[0],
): Promise<proto.IMessage> {
  return generateWAMessageContent(content, { upload: fakeUpload, logger: silent })
}

describe('normalizeBaileysEvents: messages.upsert', () => {
  test('a plain text from a PN chat', () => {
    const msg = fromStanza({ from: CUSTOMER, id: 'A1', notify: 'Maria' }, { conversation: 'Olá' })
    const [e] = inbound([msg])
    expect(e).toMatchObject({
      t: 'message',
      ref: { id: 'A1', chatJid: CUSTOMER, fromMe: false },
      chat: { jid: CUSTOMER, pn: '5511988887777' },
      sender: { jid: CUSTOMER, pn: '5511988887777' },
      pushName: 'Maria',
      timestamp: 1_700_000_000_000,
      isGroup: false,
      offline: false,
      body: 'Olá',
    })
    expect(e?.media).toBeUndefined()
    const raw = decodeWAMessage(e?.raw as Uint8Array)
    expect(raw.key?.id).toBe('A1')
    expect(raw.message?.conversation).toBe('Olá')
  })

  test('extended text and a reply quoting our message', () => {
    const ours = generateWAMessageFromContent(CUSTOMER, { conversation: 'Seu pedido saiu' }, { userJid: ME })
    const reply = generateWAMessageFromContent(
      CUSTOMER,
      { extendedTextMessage: { text: 'Obrigada!' } },
      { userJid: ME, quoted: ours },
    )
    // as the customer's stanza: same content, their key
    const msg = fromStanza({ from: CUSTOMER, id: 'A2' }, reply.message as proto.IMessage)
    const [e] = inbound([msg])
    expect(e?.body).toBe('Obrigada!')
    expect(e?.quoted).toEqual({ id: ours.key.id as string, chatJid: CUSTOMER, fromMe: true })
  })

  test('image with caption: media kind, mimetype, size and a download closure', async () => {
    const content = await mediaMessage({ image: Buffer.from('jpeg-bytes'), caption: 'Foto do produto' })
    const msg = fromStanza({ from: CUSTOMER, id: 'IMG1', type: 'media' }, content)
    const { ctx, downloads } = makeCtx()
    const [e] = inbound([msg], 'notify', ctx)
    expect(e?.body).toBe('Foto do produto')
    expect(e?.media).toMatchObject({
      kind: 'image',
      mimetype: 'image/jpeg',
      caption: 'Foto do produto',
      size: 10,
    })
    expect(await e?.media?.download()).toEqual(new Uint8Array([1, 2, 3]))
    expect(downloads[0]?.key.id).toBe('IMG1')
  })

  test('voice note (ptt), video, sticker, document wrapped with caption', async () => {
    const ptt = await mediaMessage({
      audio: Buffer.from('ogg'),
      ptt: true,
      mimetype: 'audio/ogg; codecs=opus',
    })
    const video = await mediaMessage({ video: Buffer.from('mp4'), caption: 'veja' })
    const sticker = await mediaMessage({ sticker: Buffer.from('webp') })
    const doc = await mediaMessage({
      document: Buffer.from('%PDF'),
      mimetype: 'application/pdf',
      fileName: 'boleto.pdf',
      caption: 'segue',
    })
    const events = inbound([
      fromStanza({ from: CUSTOMER, id: 'M1' }, ptt),
      fromStanza({ from: CUSTOMER, id: 'M2' }, video),
      fromStanza({ from: CUSTOMER, id: 'M3' }, sticker),
      fromStanza({ from: CUSTOMER, id: 'M4' }, { documentWithCaptionMessage: { message: doc } }),
    ])
    expect(events.map((e) => e.media?.kind)).toEqual(['audio', 'video', 'sticker', 'document'])
    expect(events[0]?.media).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' })
    expect(events[1]?.body).toBe('veja')
    expect(events[3]?.media).toMatchObject({ fileName: 'boleto.pdf', mimetype: 'application/pdf' })
    expect(events[3]?.body).toBe('segue')
  })

  test('ephemeral and view-once wrappers are unwrapped', async () => {
    const image = await mediaMessage({ image: Buffer.from('x'), caption: 'uma vez' })
    const events = inbound([
      fromStanza(
        { from: CUSTOMER, id: 'E1' },
        { ephemeralMessage: { message: { extendedTextMessage: { text: 'some' } } } },
      ),
      fromStanza({ from: CUSTOMER, id: 'E2' }, { viewOnceMessageV2: { message: image } }),
    ])
    expect(events.map((e) => e.body)).toEqual(['some', 'uma vez'])
    expect(events[1]?.media?.kind).toBe('image')
  })

  test('location and contacts', () => {
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:João\nTEL;type=CELL;waid=5511977776666:+55 11 97777-6666\nEND:VCARD'
    const events = inbound([
      fromStanza(
        { from: CUSTOMER, id: 'L1' },
        {
          locationMessage: {
            degreesLatitude: -23.55,
            degreesLongitude: -46.63,
            name: 'Loja',
            address: 'Rua A',
          },
        },
      ),
      fromStanza({ from: CUSTOMER, id: 'C1' }, { contactMessage: { displayName: 'João', vcard } }),
      fromStanza(
        { from: CUSTOMER, id: 'C2' },
        {
          contactsArrayMessage: {
            contacts: [
              { displayName: 'A', vcard },
              { displayName: 'B', vcard },
            ],
          },
        },
      ),
    ])
    expect(events[0]?.location).toEqual({
      latitude: -23.55,
      longitude: -46.63,
      name: 'Loja',
      address: 'Rua A',
    })
    expect(events[1]?.vcards).toEqual([{ displayName: 'João', vcard }])
    expect(events[2]?.vcards?.map((v) => v.displayName)).toEqual(['A', 'B'])
  })

  // Changed with issue 20 (defects 5 and 13): a revoke or reaction upserted as a message of its own is read as its
  // action (Baileys folds the unfolded event away while it buffers), and a message with no content we know is a
  // placeholder row ("not supported on this device"), never nothing. Sender keys stay silent.
  test('protocol and reaction messages become their actions; sender keys are skipped; empty messages are unsupported', () => {
    const messages = [
      fromStanza(
        { from: CUSTOMER, id: 'P1' },
        { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'X' } } },
      ),
      fromStanza({ from: CUSTOMER, id: 'P2' }, { reactionMessage: { key: { id: 'X' }, text: '👍' } }),
      fromStanza(
        { from: GROUP, participant: CUSTOMER, id: 'P3' },
        {
          senderKeyDistributionMessage: {
            groupId: GROUP,
            axolotlSenderKeyDistributionMessage: new Uint8Array([1]),
          },
        },
      ),
      fromStanza({ from: CUSTOMER, id: 'P4' }, {}),
      fromStanza({ from: CUSTOMER, id: 'P5' }, { messageContextInfo: { deviceListMetadataVersion: 2 } }),
    ]
    const events = normalizeBaileysEvents({ 'messages.upsert': { messages, type: 'notify' } }, makeCtx().ctx)
    expect(events.map((e) => [e.t, 'ref' in e ? e.ref.id : 'target' in e ? e.target.id : ''])).toEqual([
      ['message', 'P4'],
      ['message', 'P5'],
      ['delete', 'X'],
      ['reaction', 'X'],
    ])
    expect(events.filter((e) => e.t === 'message').every((e) => e.t === 'message' && e.unsupported)).toBe(
      true,
    )
  })

  test('one message that cannot be normalized never drops the batch: it becomes a not-supported row', () => {
    const bad = fromStanza({ from: CUSTOMER, id: 'BAD2' }, { conversation: 'x' })
    Object.defineProperty(bad, 'messageTimestamp', {
      get() {
        throw new Error('corrupt')
      },
    })
    const events = inbound([
      fromStanza({ from: CUSTOMER, id: 'OK1' }, { conversation: 'antes' }),
      bad,
      fromStanza({ from: CUSTOMER, id: 'OK2' }, { conversation: 'depois' }),
    ])
    expect(events.map((e) => [e.ref.id, e.body, !!e.unsupported])).toEqual([
      ['OK1', 'antes', false],
      ['BAD2', '', true],
      ['OK2', 'depois', false],
    ])
  })

  test('folded by the event buffer: a revoked message keeps its id, folded reactions, edits and receipts count', () => {
    // What Baileys's buffer leaves: the REVOKE assigned over M1 (its key, no content, stub REVOKE) with M1's
    // reactions; the REVOKE itself; M2 carrying its edit; our own send S1 with a folded read receipt.
    const revokeKey = { remoteJid: CUSTOMER, fromMe: false, id: 'RV1' }
    const m1 = fromStanza({ from: CUSTOMER, id: 'RV1' }, {})
    m1.message = null
    m1.messageStubType = WAMessageStubType.REVOKE
    m1.reactions = [{ key: { ...revokeKey, id: 'RC1' }, text: '👍', senderTimestampMs: 1_700_000_000_500 }]
    const revoke = fromStanza(
      { from: CUSTOMER, id: 'RV1' },
      { protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: { id: 'M1' } } },
    )
    const m2 = fromStanza(
      { from: CUSTOMER, id: 'M2' },
      { editedMessage: { message: { conversation: 'quero 3' } } },
    )
    const s1 = fromStanza({ from: ME, recipient: CUSTOMER, id: 'S1' }, { conversation: 'saiu' })
    s1.userReceipt = [{ userJid: CUSTOMER, readTimestamp: 1_700_000_100 }]
    const events = normalizeBaileysEvents(
      { 'messages.upsert': { messages: [m1, revoke, m2, s1], type: 'append' } },
      makeCtx().ctx,
    )
    const messages = events.filter((e) => e.t === 'message')
    expect(messages.map((e) => [e.ref.id, e.body, !!e.deleted, !!e.edited])).toEqual([
      ['M1', '', true, false],
      ['M2', 'quero 3', false, true],
      ['S1', 'saiu', false, false],
    ])
    const actions = events.filter((e) => e.t !== 'message')
    expect(actions.map((e) => [e.t, 'ref' in e ? e.ref.id : 'target' in e ? e.target.id : ''])).toEqual([
      ['reaction', 'M1'],
      ['delete', 'M1'],
      ['ack', 'S1'],
    ])
  })

  test('a CIPHERTEXT stub becomes an undecryptable placeholder', () => {
    const { fullMessage } = decodeMessageNode(
      { tag: 'message', attrs: { from: CUSTOMER, id: 'BAD1', t: '1700000000' } },
      ME,
      ME_LID,
    )
    fullMessage.messageStubType = WAMessageStubType.CIPHERTEXT
    fullMessage.messageStubParameters = ['Bad MAC']
    const [e] = inbound([fullMessage])
    expect(e).toMatchObject({ ref: { id: 'BAD1' }, body: '', undecryptable: true })
  })

  test('append: offline replay and messages sent from the phone', () => {
    const replay = fromStanza(
      { from: CUSTOMER, id: 'OFF1', offline: '1' },
      { conversation: 'enquanto offline' },
    )
    const fromPhone = fromStanza({ from: ME, recipient: CUSTOMER, id: 'PH1' }, { conversation: 'do celular' })
    const events = inbound([replay, fromPhone], 'append')
    expect(events[0]).toMatchObject({ offline: true, ref: { fromMe: false }, body: 'enquanto offline' })
    expect(events[1]).toMatchObject({
      offline: true,
      ref: { id: 'PH1', chatJid: CUSTOMER, fromMe: true },
      chat: { jid: CUSTOMER, pn: '5511988887777' },
      sender: { jid: ME, pn: '5511900000000', lid: ME_LID },
      body: 'do celular',
    })
  })

  test('a live (notify) message sent from our phone is marked offline too', () => {
    const fromPhone = fromStanza({ from: ME, recipient: CUSTOMER, id: 'PH2' }, { conversation: 'do celular' })
    expect(inbound([fromPhone], 'notify')[0]).toMatchObject({ offline: true, ref: { fromMe: true } })
  })

  test('LID chat: the phone number comes from sender_pn (remoteJidAlt)', () => {
    const msg = fromStanza(
      { from: CUSTOMER_LID, id: 'LID1', addressing_mode: 'lid', sender_pn: CUSTOMER },
      { conversation: 'oi' },
    )
    expect(msg.key.remoteJidAlt).toBe(CUSTOMER)
    const [e] = inbound([msg])
    expect(e?.chat).toEqual({ jid: CUSTOMER_LID, lid: CUSTOMER_LID, pn: '5511988887777' })
    expect(e?.sender).toEqual(e?.chat as InboundMessage['chat'])
  })

  test('LID chat without alt: resolvePn, else the LID alone', () => {
    const msg = fromStanza({ from: CUSTOMER_LID, id: 'LID2' }, { conversation: 'oi' })
    const resolved = inbound(
      [msg],
      'notify',
      makeCtx({ resolvePn: () => '5511988887777@s.whatsapp.net' }).ctx,
    )
    expect(resolved[0]?.chat).toEqual({ jid: CUSTOMER_LID, lid: CUSTOMER_LID, pn: '5511988887777' })
    const unknown = inbound([msg], 'notify', makeCtx({ resolvePn: () => undefined }).ctx)
    expect(unknown[0]?.chat).toEqual({ jid: CUSTOMER_LID, lid: CUSTOMER_LID })
  })

  test('PN chat with a LID alternative', () => {
    const msg = fromStanza({ from: CUSTOMER, id: 'PN1', sender_lid: CUSTOMER_LID }, { conversation: 'oi' })
    const [e] = inbound([msg])
    expect(e?.chat).toEqual({ jid: CUSTOMER, pn: '5511988887777', lid: CUSTOMER_LID })
  })

  test('group message: the chat is the group, the sender the participant with its PN', () => {
    const msg = fromStanza(
      {
        from: GROUP,
        participant: CUSTOMER_LID,
        participant_pn: CUSTOMER,
        addressing_mode: 'lid',
        id: 'G1',
        notify: 'Maria',
      },
      { conversation: 'bom dia grupo' },
    )
    const [e] = inbound([msg])
    expect(e).toMatchObject({
      isGroup: true,
      ref: { id: 'G1', chatJid: GROUP, fromMe: false, participant: CUSTOMER_LID },
      chat: { jid: GROUP },
      sender: { jid: CUSTOMER_LID, lid: CUSTOMER_LID, pn: '5511988887777' },
      pushName: 'Maria',
    })
  })

  test('status broadcasts and newsletters are ignored', () => {
    const status = fromStanza(
      { from: 'status@broadcast', participant: CUSTOMER, id: 'S1' },
      { conversation: 'x' },
    )
    expect(inbound([status])).toEqual([])
  })
})

describe('normalizeBaileysEvents: updates, receipts, reactions, contacts', () => {
  const ref = { id: 'OUT1', chatJid: CUSTOMER, fromMe: true }

  test('acks: Baileys status converted to the spec numbering in one place', () => {
    expect([0, 1, 2, 3, 4, 5].map((s) => baileysStatusToAck(s))).toEqual([-1, 0, 1, 2, 4, 5])
    // the fixtures' inverse agrees, so acks built for tests read back as they were meant
    expect(([-1, 0, 1, 2, 4, 5] as const).map((a) => baileysStatusToAck(ackToBaileysStatus(a)))).toEqual([
      -1, 0, 1, 2, 4, 5,
    ])
    const { ctx } = makeCtx()
    const events = normalizeBaileysEvents(
      {
        'messages.update': [
          {
            key: { remoteJid: CUSTOMER, id: 'OUT1', fromMe: true },
            update: { status: 2, messageTimestamp: 1700000001 },
          },
          { key: { remoteJid: CUSTOMER, id: 'OUT1', fromMe: true }, update: { status: 3 } },
          buildAckUpdate(ref, 4),
        ],
      },
      ctx,
    )
    expect(events).toEqual([
      { t: 'ack', ref, ack: 1, timestamp: 1_700_000_001_000 },
      { t: 'ack', ref, ack: 2 },
      { t: 'ack', ref, ack: 4 },
    ])
  })

  test('edit and revoke from messages.update', () => {
    const { ctx } = makeCtx()
    const inRef = { id: 'IN1', chatJid: CUSTOMER, fromMe: false }
    const events = normalizeBaileysEvents(
      {
        'messages.update': [buildEditUpdate(inRef, 'corrigido', 1_700_000_005_000), buildRevokeUpdate(inRef)],
      },
      ctx,
    )
    expect(events).toEqual([
      { t: 'edit', ref: inRef, body: 'corrigido', timestamp: 1_700_000_005_000 },
      { t: 'delete', ref: inRef },
    ])
  })

  test('group receipts per participant', () => {
    const gref = { id: 'G2', chatJid: GROUP, fromMe: true, participant: ME }
    const events = normalizeBaileysEvents(
      {
        'message-receipt.update': [
          buildGroupReceipt(gref, CUSTOMER, 2, 1_700_000_010_000),
          buildGroupReceipt(gref, CUSTOMER_LID, 4, 1_700_000_020_000),
        ],
      },
      makeCtx().ctx,
    )
    expect(events).toEqual([
      { t: 'ack', ref: gref, ack: 2, participant: CUSTOMER, timestamp: 1_700_000_010_000 },
      { t: 'ack', ref: gref, ack: 4, participant: CUSTOMER_LID, timestamp: 1_700_000_020_000 },
    ])
  })

  test('reactions: added and removed, target fromMe from our point of view', () => {
    const ours = { id: 'OUT2', chatJid: CUSTOMER, fromMe: true }
    const events = normalizeBaileysEvents(
      {
        'messages.reaction': [
          buildReaction(ours, { chatJid: CUSTOMER, fromMe: false }, '❤️', 1_700_000_030_000),
          buildReaction(ours, { chatJid: CUSTOMER, fromMe: false }, '', 1_700_000_031_000),
        ],
      },
      makeCtx().ctx,
    )
    expect(events).toEqual([
      {
        t: 'reaction',
        target: ours,
        emoji: '❤️',
        from: { jid: CUSTOMER, pn: '5511988887777' },
        fromMe: false,
        timestamp: 1_700_000_030_000,
      },
      {
        t: 'reaction',
        target: ours,
        emoji: '',
        from: { jid: CUSTOMER, pn: '5511988887777' },
        fromMe: false,
        timestamp: 1_700_000_031_000,
      },
    ])
  })

  test('contacts: names, picture changed, LID/PN pairs; lid-mapping', () => {
    const events = normalizeBaileysEvents(
      {
        'contacts.upsert': [{ id: CUSTOMER_LID, phoneNumber: CUSTOMER, notify: 'Maria' }],
        'contacts.update': [
          { id: CUSTOMER, imgUrl: 'changed' },
          { id: GROUP, name: 'grupo' },
          { id: CUSTOMER },
        ],
        'lid-mapping.update': { lid: CUSTOMER_LID, pn: CUSTOMER },
        'messaging-history.set': {
          chats: [],
          contacts: [],
          messages: [],
          lidPnMappings: [{ lid: '555@lid', pn: '5511955554444@s.whatsapp.net' }],
        },
      },
      makeCtx().ctx,
    )
    expect(events).toEqual([
      {
        t: 'contact',
        contact: { jid: CUSTOMER_LID, lid: CUSTOMER_LID, pn: '5511988887777' },
        pushName: 'Maria',
      },
      { t: 'contact', contact: { jid: CUSTOMER, pn: '5511988887777' }, pictureChanged: true },
      { t: 'lidMapping', lid: CUSTOMER_LID, pn: '5511988887777' },
      { t: 'lidMapping', lid: '555@lid', pn: '5511955554444' },
    ])
  })

  test('buildWAMessage makes shapes the normalizer reads like decoded ones', () => {
    const msg = buildWAMessage({
      id: 'B1',
      chatJid: CUSTOMER_LID,
      chatAlt: CUSTOMER,
      pushName: 'Maria',
      timestamp: 1_700_000_000_000,
      message: { conversation: 'oi' },
    })
    const [e] = inbound([msg])
    const expected: Partial<ChannelEventOf<'message'>> = {
      ref: { id: 'B1', chatJid: CUSTOMER_LID, fromMe: false },
      chat: { jid: CUSTOMER_LID, lid: CUSTOMER_LID, pn: '5511988887777' },
      body: 'oi',
      pushName: 'Maria',
      timestamp: 1_700_000_000_000,
    }
    expect(e).toMatchObject(expected)
  })
})
