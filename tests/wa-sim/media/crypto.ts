/**
 * WhatsApp's media encryption, both ways, as a phone and as the receiving device do it: AES-256-CBC under keys
 * expanded from a 32-byte media key (Baileys's `getMediaKeys`), then the first 10 bytes of an HMAC-SHA256 over
 * iv || ciphertext appended. Encryption is Baileys's own `encryptedStream`; decryption checks every hash and the
 * MAC (Baileys's download path checks none of them), so a test learns when what was uploaded is not what a
 * device would accept.
 */
import { createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { readFile, unlink } from 'node:fs/promises'
import { encryptedStream, getMediaKeys, type MediaType } from '@whiskeysockets/baileys'

export type EncryptedMedia = {
  /** ciphertext || mac(10): what the media host stores and serves. */
  encrypted: Uint8Array
  mediaKey: Uint8Array
  fileSha256: Uint8Array
  fileEncSha256: Uint8Array
  fileLength: number
}

const MAC_LENGTH = 10

export const sha256 = (bytes: Uint8Array) => new Uint8Array(createHash('sha256').update(bytes).digest())

/** Encrypts like a phone does before uploading (Baileys's `encryptedStream`, its temporary file read back). */
export async function encryptMedia(bytes: Uint8Array, kind: MediaType): Promise<EncryptedMedia> {
  const result = await encryptedStream(Buffer.from(bytes), kind)
  try {
    return {
      encrypted: new Uint8Array(await readFile(result.encFilePath)),
      mediaKey: new Uint8Array(result.mediaKey),
      fileSha256: new Uint8Array(result.fileSha256),
      fileEncSha256: new Uint8Array(result.fileEncSha256),
      fileLength: result.fileLength,
    }
  } finally {
    await unlink(result.encFilePath).catch(() => {})
  }
}

export type MediaCheck = {
  mediaKey?: Uint8Array | string | null
  fileEncSha256?: Uint8Array | string | null
  fileSha256?: Uint8Array | string | null
}

const bytesOf = (value: Uint8Array | string) =>
  typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : value

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && timingSafeEqual(a, b)

/**
 * Decrypts stored media as a receiving device does, refusing what a device would refuse: a wrong encrypted hash,
 * a wrong MAC, bad padding, a wrong plaintext hash (the hashes are checked when the message carries them).
 */
export async function decryptMedia(
  encrypted: Uint8Array,
  kind: MediaType,
  check: MediaCheck,
): Promise<Uint8Array> {
  if (encrypted.length < MAC_LENGTH + 16) throw new Error(`media too short (${encrypted.length} bytes)`)
  if (check.fileEncSha256 && !sameBytes(sha256(encrypted), bytesOf(check.fileEncSha256)))
    throw new Error('fileEncSha256 does not match the stored bytes')
  if (!check.mediaKey) throw new Error('the message carries no mediaKey')
  const { iv, cipherKey, macKey } = await getMediaKeys(bytesOf(check.mediaKey), kind)
  if (!macKey) throw new Error(`no MAC key derived for ${kind}`)
  const ciphertext = encrypted.subarray(0, encrypted.length - MAC_LENGTH)
  const mac = encrypted.subarray(encrypted.length - MAC_LENGTH)
  const expected = createHmac('sha256', macKey).update(iv).update(ciphertext).digest().subarray(0, MAC_LENGTH)
  if (!sameBytes(mac, expected)) throw new Error('media MAC does not match (wrong media key or media type)')
  const decipher = createDecipheriv('aes-256-cbc', cipherKey, iv)
  const plain = new Uint8Array(Buffer.concat([decipher.update(ciphertext), decipher.final()]))
  if (check.fileSha256 && !sameBytes(sha256(plain), bytesOf(check.fileSha256)))
    throw new Error('fileSha256 does not match the decrypted bytes')
  return plain
}
