import { expect, describe as suite, test } from 'bun:test'
import {
  cleanMessage,
  generateWAMessage,
  generateWAMessageContent,
  getContentType,
  normalizeMessageContent,
  proto,
  type WAMessage,
} from '@whiskeysockets/baileys'
import pino from 'pino'
import { contentOf, describe, type UploadedMedia } from './message-content.ts'

const company = '5511888880000@s.whatsapp.net'
const customer = '5511999990001@s.whatsapp.net'

const media: UploadedMedia = {
  url: 'https://127.0.0.1:1/mms/image/abc',
  directPath: '/mms/image/abc',
  mediaKey: new Uint8Array(32).fill(7),
  fileEncSha256: new Uint8Array(32).fill(8),
  fileSha256: new Uint8Array(32).fill(9),
  fileLength: 1234,
  mimetype: 'image/jpeg',
}

/** Encoded and decoded, as the companion gets it out of a decrypted stanza. */
const onTheWire = (message: proto.IMessage) => proto.Message.decode(proto.Message.encode(message).finish())

suite('contentOf: what a customer sends', () => {
  test('text, and a quote with the quoted id, author and copy', () => {
    expect(describe(onTheWire(contentOf({ kind: 'text', text: 'oi' })))).toEqual({ kind: 'text', text: 'oi' })
    const quote = onTheWire(
      contentOf({
        kind: 'text',
        text: 'sobre isso',
        quote: { id: 'M1', author: company, quotedMessage: { conversation: 'Promoção!' } },
      }),
    )
    expect(quote.extendedTextMessage?.contextInfo).toMatchObject({
      stanzaId: 'M1',
      participant: company,
      quotedMessage: { conversation: 'Promoção!' },
    })
    expect(describe(quote)).toEqual({ kind: 'text', text: 'sobre isso', quotedId: 'M1' })
  })

  test('a reaction to the company message becomes fromMe from the companion view (Baileys cleanMessage)', () => {
    const message = onTheWire(
      contentOf({ kind: 'reaction', target: { id: 'M1', chat: company, fromMe: false }, emoji: '👍' }),
    )
    expect(describe(message)).toEqual({ kind: 'reaction', reaction: { id: 'M1', emoji: '👍' } })
    const received: WAMessage = { key: { remoteJid: customer, fromMe: false, id: 'R1' }, message }
    cleanMessage(received, '5511888880000:3@s.whatsapp.net', '200000000000001:3@lid')
    expect(received.message?.reactionMessage?.key).toMatchObject({
      id: 'M1',
      fromMe: true,
      remoteJid: customer,
    })
  })

  test('edit and revoke are protocol messages naming the target', () => {
    const target = { id: 'C1', chat: company, fromMe: true }
    const edit = onTheWire(contentOf({ kind: 'edit', target, text: 'corrigido' }))
    expect(edit.protocolMessage?.type).toBe(proto.Message.ProtocolMessage.Type.MESSAGE_EDIT)
    expect(describe(edit)).toEqual({ kind: 'edit', targetId: 'C1', text: 'corrigido' })
    const revoke = onTheWire(contentOf({ kind: 'revoke', target }))
    expect(revoke.protocolMessage?.type).toBe(proto.Message.ProtocolMessage.Type.REVOKE)
    expect(describe(revoke)).toEqual({ kind: 'revoke', targetId: 'C1' })
  })

  test('location and contact card', () => {
    const location = onTheWire(
      contentOf({ kind: 'location', latitude: -23.55, longitude: -46.63, name: 'Loja' }),
    )
    expect(describe(location)).toEqual({
      kind: 'location',
      text: 'Loja',
      location: { latitude: -23.55, longitude: -46.63, name: 'Loja' },
    })
    const contact = onTheWire(contentOf({ kind: 'contact', displayName: 'Bia', phone: '5511977776666' }))
    expect(contact.contactMessage?.vcard).toContain('waid=5511977776666')
    expect(describe(contact)).toEqual({ kind: 'contact', text: 'Bia' })
  })

  test('media: image with caption, voice note, document, view-once image', () => {
    const image = onTheWire(contentOf({ kind: 'image', media, caption: 'foto' }))
    expect(describe(image)).toMatchObject({
      kind: 'image',
      text: 'foto',
      mimetype: 'image/jpeg',
      fileLength: 1234,
    })
    expect(describe(image).media).toEqual({
      url: media.url,
      directPath: media.directPath,
      mediaKey: Buffer.from(media.mediaKey).toString('base64'),
      fileEncSha256: Buffer.from(media.fileEncSha256).toString('base64'),
      fileSha256: Buffer.from(media.fileSha256).toString('base64'),
    })
    const voice = onTheWire(
      contentOf({
        kind: 'audio',
        media: { ...media, mimetype: 'audio/ogg; codecs=opus' },
        ptt: true,
        seconds: 3,
      }),
    )
    expect(describe(voice)).toMatchObject({ kind: 'audio', ptt: true, mimetype: 'audio/ogg; codecs=opus' })
    const document = onTheWire(
      contentOf({
        kind: 'document',
        media: { ...media, mimetype: 'application/pdf' },
        fileName: 'boleto.pdf',
      }),
    )
    expect(describe(document)).toMatchObject({
      kind: 'document',
      fileName: 'boleto.pdf',
      mimetype: 'application/pdf',
    })
    const viewOnce = onTheWire(contentOf({ kind: 'image', media, viewOnce: true }))
    expect(viewOnce.viewOnceMessageV2?.message?.imageMessage).toBeTruthy()
    expect(getContentType(normalizeMessageContent(viewOnce))).toBe('imageMessage')
    expect(describe(viewOnce)).toMatchObject({ kind: 'image', viewOnce: true })
  })
})

suite('describe: what Baileys sends a customer', () => {
  const options = {
    logger: pino({ level: 'silent' }),
    upload: async () => ({ mediaUrl: 'https://127.0.0.1:1/mms/document/x', directPath: '/mms/document/x' }),
  }

  test('text, quote, reaction, edit, delete, location and a document, as generateWAMessageContent builds them', async () => {
    const build = async (content: Parameters<typeof generateWAMessageContent>[0]) =>
      describe(onTheWire(await generateWAMessageContent(content, options)))
    const quoted: WAMessage = {
      key: { remoteJid: customer, fromMe: false, id: 'C9' },
      message: { conversation: 'preço?' },
    }
    const key = { remoteJid: customer, fromMe: true, id: 'M5' }
    expect(await build({ text: 'Olá' })).toMatchObject({ kind: 'text', text: 'Olá' })
    const reply = await generateWAMessage(
      customer,
      { text: 'R$ 10' },
      { ...options, quoted, userJid: company },
    )
    expect(describe(onTheWire(reply.message ?? {}))).toEqual({ kind: 'text', text: 'R$ 10', quotedId: 'C9' })
    expect(await build({ react: { key, text: '❤️' } })).toEqual({
      kind: 'reaction',
      reaction: { id: 'M5', emoji: '❤️' },
    })
    expect(await build({ edit: key, text: 'novo texto' })).toEqual({
      kind: 'edit',
      targetId: 'M5',
      text: 'novo texto',
    })
    expect(await build({ delete: key })).toEqual({ kind: 'revoke', targetId: 'M5' })
    expect(await build({ location: { degreesLatitude: 1, degreesLongitude: 2 } })).toMatchObject({
      kind: 'location',
    })
    const document = await build({
      document: Buffer.from('%PDF-1.4 test'),
      mimetype: 'application/pdf',
      fileName: 'nota.pdf',
    })
    expect(document).toMatchObject({
      kind: 'document',
      mimetype: 'application/pdf',
      fileName: 'nota.pdf',
      fileLength: 13,
    })
    expect(document.media?.directPath).toBe('/mms/document/x')
  })

  test('a sender-key-only message and an unknown type are named, not dropped', () => {
    expect(describe({ senderKeyDistributionMessage: { groupId: 'g@g.us' } })).toEqual({ kind: 'sender-key' })
    expect(describe({ pollCreationMessage: { name: 'Q' } })).toEqual({ kind: 'pollCreation' })
  })
})
