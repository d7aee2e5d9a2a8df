import { createHash } from 'node:crypto'
import {
  type BinaryNode,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  getBinaryNodeChildren,
  getBinaryNodeChildUInt,
} from '@whiskeysockets/baileys/lib/WABinary/index.js'
import type { CompanionPreKeys } from './prekey-bundle.ts'

/**
 * The `xmlns="encrypt"` iqs a Baileys companion sends (`Socket/socket.js`, `Socket/messages-send.js`):
 * - `upload`: `type=set` with the key list (`getNextPreKeysNode`): read it with `parsePreKeyUpload`;
 * - `rotate`: `type=set` with `<rotate><skey>` (`rotateSignedPreKey`);
 * - `count`: `type=get` with `<count/>` (`getAvailablePreKeysOnServer`, at every login);
 * - `digest`: `type=get` with `<digest/>` (`digestKeyBundle`, after login; no digest node makes Baileys re-upload);
 * - `key-fetch`: `type=get` with `<key><user jid/>…` (`assertSessions`).
 */
export type EncryptIqKind = 'upload' | 'rotate' | 'count' | 'digest' | 'key-fetch'

export function encryptIqKind(iq: BinaryNode): EncryptIqKind | undefined {
  if (iq.tag !== 'iq' || iq.attrs.xmlns !== 'encrypt') return undefined
  if (iq.attrs.type === 'set') {
    if (getBinaryNodeChild(iq, 'rotate')) return 'rotate'
    if (getBinaryNodeChild(iq, 'list')) return 'upload'
    return undefined
  }
  if (getBinaryNodeChild(iq, 'count')) return 'count'
  if (getBinaryNodeChild(iq, 'digest')) return 'digest'
  if (getBinaryNodeChild(iq, 'key')) return 'key-fetch'
  return undefined
}

function result(iq: BinaryNode, content?: BinaryNode[]): BinaryNode {
  return {
    tag: 'iq',
    attrs: { from: 's.whatsapp.net', id: iq.attrs.id ?? '', type: 'result' },
    ...(content ? { content } : {}),
  }
}

/** The empty result that acknowledges an upload or a rotation. */
export function encryptSetResult(iq: BinaryNode): BinaryNode {
  return result(iq)
}

/** The new signed pre-key of a `<rotate>`, to give `CompanionPreKeys.rotateSignedPreKey`. */
export function parseSignedPreKeyRotation(iq: BinaryNode): {
  keyId: number
  publicKey: Uint8Array
  signature: Uint8Array
} {
  const skey = getBinaryNodeChild(getBinaryNodeChild(iq, 'rotate'), 'skey')
  const keyId = skey ? getBinaryNodeChildUInt(skey, 'id', 3) : undefined
  const publicKey = skey ? getBinaryNodeChildBuffer(skey, 'value') : undefined
  const signature = skey ? getBinaryNodeChildBuffer(skey, 'signature') : undefined
  if (keyId === undefined || !publicKey || !signature)
    throw new Error('signed pre-key rotation without a complete skey')
  return { keyId, publicKey, signature }
}

/** `<count value=N/>`: how many one-time pre-keys the server still holds (Baileys uploads more at ≤ 5). */
export function preKeyCountResult(iq: BinaryNode, keys: CompanionPreKeys | undefined): BinaryNode {
  return result(iq, [{ tag: 'count', attrs: { value: String(keys?.remaining ?? 0) } }])
}

/**
 * The digest of the keys the server holds; with no keys yet it answers without a digest, which
 * makes Baileys upload (as it does when WhatsApp has lost them).
 */
export function digestResult(iq: BinaryNode, keys: CompanionPreKeys | undefined): BinaryNode {
  if (!keys) return result(iq)
  const published = keys.published()
  const hash = createHash('sha1')
  hash.update(published.identityKey)
  hash.update(published.signedPreKey.publicKey)
  hash.update(published.signedPreKey.signature)
  for (const key of published.preKeys) hash.update(key.publicKey)
  const bigEndian = (value: number, bytes: number) => {
    const out = new Uint8Array(bytes)
    for (let i = bytes - 1, rest = value; i >= 0; i--, rest >>>= 8) out[i] = rest & 0xff
    return out
  }
  return result(iq, [
    {
      tag: 'digest',
      attrs: {},
      content: [
        { tag: 'registration', attrs: {}, content: bigEndian(published.registrationId, 4) },
        { tag: 'type', attrs: {}, content: new Uint8Array([5]) },
        { tag: 'identity', attrs: {}, content: published.identityKey },
        {
          tag: 'skey',
          attrs: {},
          content: [
            { tag: 'id', attrs: {}, content: bigEndian(published.signedPreKey.keyId, 3) },
            { tag: 'value', attrs: {}, content: published.signedPreKey.publicKey },
            { tag: 'signature', attrs: {}, content: published.signedPreKey.signature },
          ],
        },
        {
          tag: 'list',
          attrs: {},
          content: published.preKeys.map((key) => ({
            tag: 'id',
            attrs: {},
            content: bigEndian(key.keyId, 3),
          })),
        },
        { tag: 'hash', attrs: {}, content: new Uint8Array(hash.digest()) },
      ],
    },
  ])
}

/** The devices a key fetch asks for; `reason="identity"` when Baileys forces a fresh session. */
export function parseKeyFetch(iq: BinaryNode): { jid: string; reason?: string }[] {
  return getBinaryNodeChildren(getBinaryNodeChild(iq, 'key'), 'user').flatMap((user) =>
    user.attrs.jid
      ? [{ jid: user.attrs.jid, ...(user.attrs.reason ? { reason: user.attrs.reason } : {}) }]
      : [],
  )
}

/**
 * The answer to a key fetch: `<list>` of the `<user>` bundles (`CustomerDevice.bundleNode`), what
 * `parseAndInjectE2ESessions` reads. Leave out devices you do not know: an `<error>` child in any
 * user makes Baileys reject the whole answer (`assertNodeErrorFree`).
 */
export function keyFetchResult(iq: BinaryNode, users: BinaryNode[]): BinaryNode {
  return result(iq, [{ tag: 'list', attrs: {}, content: users }])
}
