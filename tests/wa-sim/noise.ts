/**
 * The server side of WhatsApp's Noise XX handshake, the mirror image of Baileys's
 * `Utils/noise-handler.js`: same hash chain, same key mixing, same counters, with the roles of
 * the read and write keys swapped once the transport starts.
 */
import type { KeyPair } from '@whiskeysockets/baileys'
import {
  aesDecryptGCM,
  aesEncryptGCM,
  Curve,
  hkdf,
  NOISE_MODE,
  NOISE_WA_HEADER,
  sha256,
} from '@whiskeysockets/baileys'

const IV_LENGTH = 12

const counterIv = (counter: number): Uint8Array => {
  const iv = new Uint8Array(IV_LENGTH)
  new DataView(iv.buffer).setUint32(8, counter)
  return iv
}

class TransportCipher {
  private readCounter = 0
  private writeCounter = 0
  constructor(
    private readonly encKey: Uint8Array,
    private readonly decKey: Uint8Array,
  ) {}
  encrypt(plaintext: Uint8Array): Buffer {
    return aesEncryptGCM(plaintext, this.encKey, counterIv(this.writeCounter++), Buffer.alloc(0))
  }
  decrypt(ciphertext: Uint8Array): Buffer {
    return aesDecryptGCM(ciphertext, this.decKey, counterIv(this.readCounter++), Buffer.alloc(0))
  }
}

/** The handshake state of one server connection, from the client's hello to the transport keys. */
export class ServerNoise {
  private hash: Uint8Array
  private salt: Uint8Array
  private key: Uint8Array
  private counter = 0
  private transport: TransportCipher | null = null
  readonly ephemeral: KeyPair = Curve.generateKeyPair()

  constructor() {
    const mode = Buffer.from(NOISE_MODE)
    this.hash = mode.byteLength === 32 ? mode : sha256(mode)
    this.salt = this.hash
    this.key = this.hash
    this.authenticate(NOISE_WA_HEADER)
  }

  authenticate(data: Uint8Array): void {
    if (!this.transport) this.hash = sha256(Buffer.concat([this.hash, data]))
  }

  private encryptHandshake(plaintext: Uint8Array): Buffer {
    const result = aesEncryptGCM(plaintext, this.key, counterIv(this.counter++), this.hash)
    this.authenticate(result)
    return result
  }

  private decryptHandshake(ciphertext: Uint8Array): Buffer {
    const result = aesDecryptGCM(ciphertext, this.key, counterIv(this.counter++), this.hash)
    this.authenticate(ciphertext)
    return result
  }

  private mixIntoKey(data: Uint8Array): void {
    const key = hkdf(Buffer.from(data), 64, { salt: this.salt, info: '' })
    this.salt = key.subarray(0, 32)
    this.key = key.subarray(32)
    this.counter = 0
  }

  /** ClientHello in, ServerHello parts out: our ephemeral, our static (encrypted), the cert chain (encrypted). */
  serverHello(clientEphemeral: Uint8Array, staticKey: KeyPair, certChain: Uint8Array) {
    this.authenticate(clientEphemeral)
    this.authenticate(this.ephemeral.public)
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientEphemeral))
    const staticEncrypted = this.encryptHandshake(staticKey.public)
    this.mixIntoKey(Curve.sharedKey(staticKey.private, clientEphemeral))
    const payload = this.encryptHandshake(certChain)
    return { ephemeral: this.ephemeral.public, static: staticEncrypted, payload }
  }

  /** ClientFinish in: returns the client's static (noise) public key and the decrypted ClientPayload bytes. */
  clientFinish(staticEncrypted: Uint8Array, payloadEncrypted: Uint8Array) {
    const clientStatic = this.decryptHandshake(staticEncrypted)
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientStatic))
    const payload = this.decryptHandshake(payloadEncrypted)
    const key = hkdf(Buffer.alloc(0), 64, { salt: this.salt, info: '' })
    // The client writes with the first half and reads with the second: we do the opposite.
    this.transport = new TransportCipher(key.subarray(32), key.subarray(0, 32))
    return { clientStatic, payload }
  }

  get isTransport(): boolean {
    return this.transport !== null
  }

  encrypt(plaintext: Uint8Array): Buffer {
    if (!this.transport) throw new Error('noise transport not ready')
    return this.transport.encrypt(plaintext)
  }

  decrypt(ciphertext: Uint8Array): Buffer {
    if (!this.transport) throw new Error('noise transport not ready')
    return this.transport.decrypt(ciphertext)
  }
}

/**
 * Splits the client's byte stream into frames: the first chunk carries the intro header
 * (optionally behind the 'ED' routing-info prefix), then every frame is 3-byte length + body.
 */
export class FrameReader {
  private buffered = Buffer.alloc(0)
  private introDone = false

  push(chunk: Uint8Array): Buffer[] {
    this.buffered = Buffer.concat([this.buffered, chunk])
    if (!this.introDone) {
      if (this.buffered.length >= 2 && this.buffered.subarray(0, 2).toString('latin1') === 'ED') {
        if (this.buffered.length < 7) return []
        const routingLength = (this.buffered[4]! << 16) | this.buffered.readUInt16BE(5)
        if (this.buffered.length < 7 + routingLength + NOISE_WA_HEADER.length) return []
        this.buffered = this.buffered.subarray(7 + routingLength)
      }
      if (this.buffered.length < NOISE_WA_HEADER.length) return []
      if (!this.buffered.subarray(0, NOISE_WA_HEADER.length).equals(NOISE_WA_HEADER)) {
        throw new Error('bad WhatsApp intro header')
      }
      this.buffered = this.buffered.subarray(NOISE_WA_HEADER.length)
      this.introDone = true
    }
    const frames: Buffer[] = []
    while (this.buffered.length >= 3) {
      const size = (this.buffered[0]! << 16) | (this.buffered[1]! << 8) | this.buffered[2]!
      if (this.buffered.length < size + 3) break
      frames.push(Buffer.from(this.buffered.subarray(3, size + 3)))
      this.buffered = this.buffered.subarray(size + 3)
    }
    return frames
  }
}

export const encodeFrame = (data: Uint8Array): Buffer => {
  const frame = Buffer.alloc(3 + data.byteLength)
  frame[0] = (data.byteLength >>> 16) & 0xff
  frame[1] = (data.byteLength >>> 8) & 0xff
  frame[2] = data.byteLength & 0xff
  frame.set(data, 3)
  return frame
}
