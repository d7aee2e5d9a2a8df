import { describe, expect, test } from 'bun:test'
import {
  encodeWAMessage,
  parseAndInjectE2ESessions,
  signedKeyPair,
  xmppSignedPreKey,
} from '@whiskeysockets/baileys'
import { type BinaryNode, getBinaryNodeChild } from '@whiskeysockets/baileys/lib/WABinary/index.js'
import { baileysCompanion } from './baileys-companion.ts'
import { CustomerDevice } from './customer-device.ts'
import {
  digestResult,
  encryptIqKind,
  keyFetchResult,
  parseKeyFetch,
  parseSignedPreKeyRotation,
  preKeyCountResult,
} from './encrypt-iq.ts'
import { companionBundleFrom } from './prekey-bundle.ts'
import { throughTheWire } from './wire.ts'

const get = (child: BinaryNode): BinaryNode => ({
  tag: 'iq',
  attrs: { id: 'e1', xmlns: 'encrypt', type: 'get', to: 's.whatsapp.net' },
  content: [child],
})

describe('encrypt iqs', () => {
  test('each kind Baileys sends is told apart', async () => {
    const companion = baileysCompanion()
    const rotate: BinaryNode = {
      tag: 'iq',
      attrs: { xmlns: 'encrypt', type: 'set' },
      content: [
        {
          tag: 'rotate',
          attrs: {},
          content: [xmppSignedPreKey(signedKeyPair(companion.creds.signedIdentityKey, 2))],
        },
      ],
    }
    expect(encryptIqKind(await companion.uploadPreKeys(1))).toBe('upload')
    expect(encryptIqKind(rotate)).toBe('rotate')
    expect(encryptIqKind(get({ tag: 'count', attrs: {} }))).toBe('count')
    expect(encryptIqKind(get({ tag: 'digest', attrs: {} }))).toBe('digest')
    expect(encryptIqKind(get({ tag: 'key', attrs: {}, content: [] }))).toBe('key-fetch')
    expect(encryptIqKind({ tag: 'iq', attrs: { xmlns: 'w:p', type: 'get' } })).toBeUndefined()
  })

  test('count and digest answer from the pool; no keys yet means no digest (Baileys re-uploads)', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(6))
    keys.takeBundle()
    const count = await throughTheWire(preKeyCountResult(get({ tag: 'count', attrs: {} }), keys))
    expect(count.attrs).toMatchObject({ id: 'e1', type: 'result' })
    expect(Number(getBinaryNodeChild(count, 'count')?.attrs.value)).toBe(5)
    expect(
      getBinaryNodeChild(preKeyCountResult(get({ tag: 'count', attrs: {} }), undefined), 'count')?.attrs
        .value,
    ).toBe('0')
    expect(
      getBinaryNodeChild(
        await throughTheWire(digestResult(get({ tag: 'digest', attrs: {} }), keys)),
        'digest',
      ),
    ).toBeDefined()
    expect(
      getBinaryNodeChild(digestResult(get({ tag: 'digest', attrs: {} }), undefined), 'digest'),
    ).toBeUndefined()
  })

  test('a key fetch as assertSessions sends it, answered with bundles Baileys injects', async () => {
    const companion = baileysCompanion()
    const customer = new CustomerDevice({ phone: '5511999990060', lid: '300000000000060' })
    const fetch = await throughTheWire(
      get({
        tag: 'key',
        attrs: {},
        content: [{ tag: 'user', attrs: { jid: customer.lidUserJid, reason: 'identity' } }],
      }),
    )
    const asked = parseKeyFetch(fetch)
    expect(asked).toEqual([{ jid: customer.lidUserJid, reason: 'identity' }])
    const answer = await throughTheWire(
      keyFetchResult(
        fetch,
        asked.map(({ jid }) => customer.bundleNode(jid)),
      ),
    )
    await parseAndInjectE2ESessions(answer, companion.repository)
    const enc = await companion.repository.encryptMessage({
      jid: customer.lidUserJid,
      data: encodeWAMessage({ conversation: 'por LID' }),
    })
    expect((await customer.decryptMessage(companion.lidJid, enc)).conversation).toBe('por LID')
  })

  test('after a signed pre-key rotation new sessions use the new key, and Baileys reads them', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(2))
    const rotated = signedKeyPair(companion.creds.signedIdentityKey, companion.creds.signedPreKey.keyId + 1)
    const rotation = await throughTheWire({
      tag: 'iq',
      attrs: { xmlns: 'encrypt', type: 'set' },
      content: [{ tag: 'rotate', attrs: {}, content: [xmppSignedPreKey(rotated)] }],
    })
    keys.rotateSignedPreKey(parseSignedPreKeyRotation(rotation))
    Object.assign(companion.creds, { signedPreKey: rotated }) // Baileys's creds.update after the rotation
    const customer = new CustomerDevice({ phone: '5511999990061' })
    const enc = await customer.encryptMessageTo(companion.jid, keys, { conversation: 'nova chave' })
    const padded = await companion.repository.decryptMessage({ jid: customer.phoneUserJid, ...enc })
    expect(Buffer.from(padded).toString('utf8')).toContain('nova chave')
  })
})
