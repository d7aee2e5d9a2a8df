import { generateSignalPubKey } from '@whiskeysockets/baileys'
import {
  type BinaryNode,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  getBinaryNodeChildren,
  getBinaryNodeChildUInt,
} from '@whiskeysockets/baileys/lib/WABinary/index.js'

/**
 * What a peer needs to open a Signal session with a device: libsignal's `initOutgoing` input (the
 * `E2ESession` of `libsignal/index.d.ts`), with the one-time pre-key optional as at run time.
 * Public keys carry the 0x05 type byte (33 bytes).
 */
export interface PreKeyBundle {
  registrationId: number
  identityKey: Uint8Array
  signedPreKey: { keyId: number; publicKey: Uint8Array; signature: Uint8Array }
  preKey?: { keyId: number; publicKey: Uint8Array }
}

/** What Baileys uploads in `<iq xmlns="encrypt" type="set">` (`Utils/signal.js`, `getNextPreKeysNode`). */
export interface PreKeyUpload {
  registrationId: number
  /** 32 bytes, as on the wire (no type byte). */
  identityKey: Uint8Array
  preKeys: { keyId: number; publicKey: Uint8Array }[]
  signedPreKey: { keyId: number; publicKey: Uint8Array; signature: Uint8Array }
}

function requiredBuffer(node: BinaryNode | undefined, tag: string, what: string): Uint8Array {
  const value = node ? getBinaryNodeChildBuffer(node, tag) : undefined
  if (!value) throw new Error(`pre-key upload: missing ${what}`)
  return value
}

function requiredUInt(node: BinaryNode | undefined, tag: string, length: number, what: string): number {
  const value = node ? getBinaryNodeChildUInt(node, tag, length) : undefined
  if (value === undefined) throw new Error(`pre-key upload: missing ${what}`)
  return value
}

/** Reads the pre-key upload iq a companion sends; throws on anything Baileys would never send. */
export function parsePreKeyUpload(iq: BinaryNode): PreKeyUpload {
  if (iq.tag !== 'iq' || iq.attrs.xmlns !== 'encrypt' || iq.attrs.type !== 'set') {
    throw new Error(`not a pre-key upload: <${iq.tag} xmlns=${iq.attrs.xmlns} type=${iq.attrs.type}>`)
  }
  const type = requiredBuffer(iq, 'type', 'key bundle type')
  if (type.length !== 1 || type[0] !== 5)
    throw new Error('pre-key upload: key bundle type is not 5 (curve25519)')
  const signed = getBinaryNodeChild(iq, 'skey')
  const preKeys = getBinaryNodeChildren(getBinaryNodeChild(iq, 'list'), 'key').map((key) => ({
    keyId: requiredUInt(key, 'id', 3, 'pre-key id'),
    publicKey: requiredBuffer(key, 'value', 'pre-key value'),
  }))
  return {
    registrationId: requiredUInt(iq, 'registration', 4, 'registration id'),
    identityKey: requiredBuffer(iq, 'identity', 'identity key'),
    preKeys,
    signedPreKey: {
      keyId: requiredUInt(signed, 'id', 3, 'signed pre-key id'),
      publicKey: requiredBuffer(signed, 'value', 'signed pre-key value'),
      signature: requiredBuffer(signed, 'signature', 'signed pre-key signature'),
    },
  }
}

/**
 * A companion's published keys as the server holds them: each bundle handed out spends one one-time
 * pre-key, like WhatsApp's key server; when none are left the bundle has only the signed pre-key (a
 * session still opens, as libsignal allows). Later uploads (Baileys tops up when the count is low,
 * and may rotate the signed pre-key) are merged with `add`.
 */
export class CompanionPreKeys implements PreKeySource {
  private upload: PreKeyUpload
  private readonly unused: { keyId: number; publicKey: Uint8Array }[]

  constructor(upload: PreKeyUpload) {
    this.upload = upload
    this.unused = [...upload.preKeys]
  }

  get registrationId(): number {
    return this.upload.registrationId
  }

  /** One-time pre-keys not handed out yet (what the server answers to Baileys's pre-key count query). */
  get remaining(): number {
    return this.unused.length
  }

  add(upload: PreKeyUpload): void {
    const known = new Set(this.unused.map((key) => key.keyId))
    this.upload = upload
    for (const key of upload.preKeys) if (!known.has(key.keyId)) this.unused.push(key)
  }

  /** Replaces the signed pre-key (Baileys's `rotateSignedPreKey`). */
  rotateSignedPreKey(signedPreKey: PreKeyUpload['signedPreKey']): void {
    this.upload = { ...this.upload, signedPreKey }
  }

  /** What the server holds now: identity, signed pre-key, unused one-time pre-keys. */
  published(): PreKeyUpload {
    return { ...this.upload, preKeys: [...this.unused] }
  }

  /** The next bundle, spending one one-time pre-key. */
  takeBundle(): PreKeyBundle {
    return preKeyBundleOf(this.upload, this.unused.shift())
  }
}

/** Anything that hands out a companion's bundle, spending a one-time pre-key each time. */
export interface PreKeySource {
  takeBundle(): PreKeyBundle
}

/** libsignal's bundle from stored keys (32-byte keys as uploaded) and the one-time key handed out, if any. */
export function preKeyBundleOf(
  stored: PreKeyUpload,
  preKey?: { keyId: number; publicKey: Uint8Array },
): PreKeyBundle {
  const { signedPreKey } = stored
  return {
    registrationId: stored.registrationId,
    identityKey: generateSignalPubKey(stored.identityKey),
    signedPreKey: {
      keyId: signedPreKey.keyId,
      publicKey: generateSignalPubKey(signedPreKey.publicKey),
      signature: signedPreKey.signature,
    },
    ...(preKey ? { preKey: { keyId: preKey.keyId, publicKey: generateSignalPubKey(preKey.publicKey) } } : {}),
  }
}

/**
 * A source over keys someone else stores (the core's `companion.bundle`, same shape as
 * `PreKeyUpload`): each bundle takes the first one-time key out of `current().preKeys`, so the
 * server's count and this source never disagree. `current` is read at each take because an
 * upload may replace the stored object.
 */
export function storedKeysSource(current: () => PreKeyUpload): PreKeySource {
  return {
    takeBundle() {
      const stored = current()
      return preKeyBundleOf(stored, stored.preKeys.shift())
    },
  }
}

/** Builds the key pool from a companion's upload (the parsed form, or the iq node itself). */
export function companionBundleFrom(upload: PreKeyUpload | BinaryNode): CompanionPreKeys {
  return new CompanionPreKeys('tag' in upload ? parsePreKeyUpload(upload) : upload)
}
