import { describe, expect, test } from 'bun:test'
import { decryptMessageNode } from '@whiskeysockets/baileys'
import pino from 'pino'
import { baileysCompanion } from './baileys-companion.ts'
import { CustomerDevice } from './customer-device.ts'
import { inboundMessageNode } from './message-stanzas.ts'
import {
  companionBundleFrom,
  type PreKeyUpload,
  parsePreKeyUpload,
  storedKeysSource,
} from './prekey-bundle.ts'
import { throughTheWire } from './wire.ts'

describe("the companion's pre-key upload", () => {
  test('parsePreKeyUpload reads what getNextPreKeysNode sends', async () => {
    const companion = baileysCompanion()
    const upload = parsePreKeyUpload(await throughTheWire(await companion.uploadPreKeys(4)))
    expect(upload.registrationId).toBe(companion.creds.registrationId)
    expect(
      Buffer.from(upload.identityKey).equals(Buffer.from(companion.creds.signedIdentityKey.public)),
    ).toBe(true)
    expect(upload.preKeys.map((k) => k.keyId)).toEqual([1, 2, 3, 4])
    expect(upload.preKeys.every((k) => k.publicKey.length === 32)).toBe(true)
    expect(upload.signedPreKey.keyId).toBe(companion.creds.signedPreKey.keyId)
    expect(upload.signedPreKey.signature.length).toBe(64)
  })

  test('bundles spend one-time pre-keys in order; a top-up upload adds the new ones', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(2))
    expect([keys.takeBundle().preKey?.keyId, keys.takeBundle().preKey?.keyId]).toEqual([1, 2])
    expect(keys.remaining).toBe(0)
    keys.add(parsePreKeyUpload(await companion.uploadPreKeys(3)))
    expect(keys.remaining).toBe(3)
    expect(keys.takeBundle().preKey?.keyId).toBe(3)
  })

  test('with no one-time pre-key left a session still opens on the signed pre-key', async () => {
    const companion = baileysCompanion()
    const keys = companionBundleFrom(await companion.uploadPreKeys(1))
    keys.takeBundle()
    const customer = new CustomerDevice({ phone: '5511999990020' })
    const enc = await customer.encryptMessageTo(companion.jid, keys, { conversation: 'sem pre-key' })
    expect(enc.type).toBe('pkmsg')
    const stanza = await throughTheWire(
      inboundMessageNode({ id: 'P1', from: customer.phoneUserJid, t: 1_700_000_000, enc: [enc] }),
    )
    const { fullMessage, decrypt } = decryptMessageNode(
      stanza,
      companion.jid,
      companion.lidJid,
      companion.repository,
      pino({ level: 'silent' }),
    )
    await decrypt()
    expect(fullMessage.message?.conversation).toBe('sem pre-key')
  })

  test('a source over keys the core stores spends them there, and follows a replaced object', async () => {
    const companion = baileysCompanion()
    let stored: PreKeyUpload = parsePreKeyUpload(await companion.uploadPreKeys(2))
    const source = storedKeysSource(() => stored)
    expect(source.takeBundle().preKey?.keyId).toBe(1)
    expect(stored.preKeys.map((k) => k.keyId)).toEqual([2])
    const topUp = parsePreKeyUpload(await companion.uploadPreKeys(2))
    stored = { ...topUp, preKeys: [...stored.preKeys, ...topUp.preKeys] }
    const customer = new CustomerDevice({ phone: '5511999990021' })
    const enc = await customer.encryptMessageTo(companion.jid, source, { conversation: 'do core' })
    expect(stored.preKeys.map((k) => k.keyId)).toEqual([3, 4])
    const padded = await companion.repository.decryptMessage({ jid: customer.phoneUserJid, ...enc })
    expect(Buffer.from(padded).toString('utf8')).toContain('do core')
  })

  test('anything else is refused', () => {
    expect(() => parsePreKeyUpload({ tag: 'iq', attrs: { xmlns: 'encrypt', type: 'get' } })).toThrow(
      'not a pre-key upload',
    )
    expect(() =>
      parsePreKeyUpload({ tag: 'iq', attrs: { xmlns: 'encrypt', type: 'set' }, content: [] }),
    ).toThrow('key bundle type')
  })
})
