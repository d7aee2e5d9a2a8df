import {
  Curve,
  encodeWAMessage,
  generateRegistrationId,
  type KeyPair,
  proto,
  signedKeyPair,
  unpadRandomMax16,
  xmppPreKey,
  xmppSignedPreKey,
} from '@whiskeysockets/baileys'
import {
  GroupCipher,
  GroupSessionBuilder,
  SenderKeyDistributionMessage,
} from '@whiskeysockets/baileys/lib/Signal/Group/index.js'
import { SenderKeyName } from '@whiskeysockets/baileys/lib/Signal/Group/sender-key-name.js'
import { type BinaryNode, jidDecode } from '@whiskeysockets/baileys/lib/WABinary/index.js'
import { type ProtocolAddress, SessionBuilder, SessionCipher } from 'libsignal'
import { DeviceSignalStore } from './device-store.ts'
import type { PreKeyBundle, PreKeySource } from './prekey-bundle.ts'
import { signalAddressOf } from './signal-address.ts'

/** The `type` attribute of an `<enc>` node. */
export type EncType = 'pkmsg' | 'msg' | 'skmsg'

export interface EncryptedPayload {
  type: 'pkmsg' | 'msg'
  ciphertext: Uint8Array
}

export interface CustomerDeviceOptions {
  /** Phone number digits, e.g. `5511999990001`. */
  phone: string
  /** LID user digits, e.g. `123456789012345`; a random 15-digit one when absent. */
  lid?: string
  /** 0 is the customer's phone; companions of the customer are 1 and up. */
  device?: number
  /** One-time pre-keys generated per batch (a new batch when the pool runs dry). */
  preKeyBatch?: number
}

const KEY_BUNDLE_TYPE = new Uint8Array([5])

function bigEndian(value: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes)
  for (let i = bytes - 1, rest = value; i >= 0; i--, rest >>>= 8) out[i] = rest & 0xff
  return out
}

function randomLid(): string {
  let digits = String(1 + Math.floor(Math.random() * 9))
  while (digits.length < 15) digits += String(Math.floor(Math.random() * 10))
  return digits
}

/**
 * One Signal device of a simulated customer: a real libsignal client with its own identity,
 * registration id, signed pre-key and one-time pre-keys, in memory. It answers key fetches for
 * itself (`bundleNode`), opens sessions to a companion from the companion's uploaded pre-keys,
 * and decrypts what the companion sends it, including group messages after a sender-key
 * distribution message.
 */
export class CustomerDevice {
  readonly phone: string
  readonly lid: string
  readonly device: number
  /** `5511999990001:0@s.whatsapp.net`: this device's phone-number JID with its device explicit. */
  readonly jid: string
  /** `123456789012345:0@lid`. */
  readonly lidJid: string
  readonly registrationId: number
  private readonly store: DeviceSignalStore
  private readonly preKeyBatch: number
  private readonly freshPreKeys: { keyId: number; pair: KeyPair }[] = []
  private nextPreKeyId = 1
  /** Peer PN user → LID user, so one companion device has one session however the server names it. */
  private readonly lidOfPeer = new Map<string, string>()
  /** Group → peer addresses that already got this device's sender key. */
  private readonly senderKeyGivenTo = new Map<string, Set<string>>()

  constructor(options: CustomerDeviceOptions) {
    this.phone = options.phone
    this.lid = options.lid ?? randomLid()
    this.device = options.device ?? 0
    this.jid = `${this.phone}:${this.device}@s.whatsapp.net`
    this.lidJid = `${this.lid}:${this.device}@lid`
    this.preKeyBatch = options.preKeyBatch ?? 5
    const identityKey = Curve.generateKeyPair()
    this.registrationId = generateRegistrationId()
    this.store = new DeviceSignalStore(this.registrationId, identityKey, signedKeyPair(identityKey, 1))
  }

  /** `5511999990001@s.whatsapp.net`: the customer (all devices), as chats and usync name it. */
  get phoneUserJid(): string {
    return `${this.phone}@s.whatsapp.net`
  }

  get lidUserJid(): string {
    return `${this.lid}@lid`
  }

  /** 32-byte public identity key, as on the wire. */
  get identityKey(): Uint8Array {
    return this.store.identityKey.public
  }

  /** One-time pre-keys generated and not yet spent by a peer's pkmsg. */
  get unspentPreKeys(): number {
    return this.store.preKeyCount
  }

  /**
   * Tells the device that a peer's PN JID and LID JID are one peer: its sessions move to, and then
   * live under, the LID (as in Baileys), so the server may name the companion either way.
   */
  samePeer(pnJid: string, lidJid: string): void {
    const pn = jidDecode(pnJid)?.user
    const lid = jidDecode(lidJid)?.user
    if (!pn || !lid) throw new Error(`samePeer needs two user JIDs: ${pnJid}, ${lidJid}`)
    this.lidOfPeer.set(pn, lid)
    this.store.renameSessions(pn, `${lid}_1`)
  }

  private addressOf(jid: string): ProtocolAddress {
    const decoded = jidDecode(jid)
    const lid = decoded?.server === 's.whatsapp.net' ? this.lidOfPeer.get(decoded.user) : undefined
    return signalAddressOf(lid ? `${lid}${decoded?.device ? `:${decoded.device}` : ''}@lid` : jid)
  }

  hasSessionWith(peer: string): boolean {
    return this.store.hasOpenSession(this.addressOf(peer).toString())
  }

  /** Forgets the session with a peer (a reinstalled app, or a test forcing a retry). */
  forgetSession(peer: string): void {
    this.store.deleteSession(this.addressOf(peer).toString())
  }

  private takePreKey(): { keyId: number; pair: KeyPair } {
    if (this.freshPreKeys.length === 0) {
      for (let i = 0; i < this.preKeyBatch; i++) {
        const keyId = this.nextPreKeyId++
        const pair = Curve.generateKeyPair()
        this.store.addPreKey(keyId, pair)
        this.freshPreKeys.push({ keyId, pair })
      }
    }
    const next = this.freshPreKeys.shift()
    if (!next) throw new Error('no pre-key generated')
    return next
  }

  /** The key nodes every bundle carries: registration, type, identity, one-time key, signed key. */
  private bundleChildren(): BinaryNode[] {
    const oneTime = this.takePreKey()
    return [
      { tag: 'registration', attrs: {}, content: bigEndian(this.registrationId, 4) },
      { tag: 'type', attrs: {}, content: KEY_BUNDLE_TYPE },
      { tag: 'identity', attrs: {}, content: this.store.identityKey.public },
      xmppPreKey(oneTime.pair, oneTime.keyId),
      xmppSignedPreKey(this.store.signedPreKey),
    ]
  }

  /**
   * The `<user jid=...>` node of the server's answer to Baileys's key fetch
   * (`<iq xmlns="encrypt" type="get"><key><user jid/>...`), read by `parseAndInjectE2ESessions`.
   * Spends one one-time pre-key. `jid` is the JID Baileys asked for (PN or LID form).
   */
  bundleNode(jid: string = this.jid): BinaryNode {
    return { tag: 'user', attrs: { jid }, content: this.bundleChildren() }
  }

  /**
   * The `<keys>` child a retry receipt carries when the device asks for a fresh session (Baileys
   * `sendRetryRequest` sends it from the second retry on; `extractE2ESessionFromRetryReceipt` reads
   * it). The registration id goes in the receipt's own `<registration>` child.
   */
  retryKeysNode(): BinaryNode {
    const [, type, identity, key, skey] = this.bundleChildren() as [
      BinaryNode,
      BinaryNode,
      BinaryNode,
      BinaryNode,
      BinaryNode,
    ]
    return { tag: 'keys', attrs: {}, content: [type, identity, key, skey] }
  }

  /** The registration id as the 4 bytes a retry receipt's `<registration>` carries. */
  registrationBytes(): Uint8Array {
    return bigEndian(this.registrationId, 4)
  }

  /**
   * Encrypts to a companion device. The first time, a session is opened from the companion's
   * published keys (a bundle, or the pool, which then spends one one-time pre-key) and the result
   * is a `pkmsg`; once the companion has answered, `msg`.
   */
  async encryptTo(
    recipient: string,
    companion: PreKeySource | PreKeyBundle | undefined,
    plaintext: Uint8Array,
  ): Promise<EncryptedPayload> {
    const peer = this.addressOf(recipient)
    if (!this.hasSessionWith(recipient)) {
      if (!companion) throw new Error(`no session with ${recipient} and no pre-keys to open one`)
      const bundle = 'takeBundle' in companion ? companion.takeBundle() : companion
      // libsignal opens a session without a one-time key (`initOutgoing` checks `device.preKey &&`),
      // but its .d.ts marks it required.
      await new SessionBuilder(this.store, peer).initOutgoing({
        ...bundle,
        preKey: bundle.preKey as { keyId: number; publicKey: Uint8Array },
      })
    }
    const { type, body } = await new SessionCipher(this.store, peer).encrypt(plaintext)
    return { type: type === 3 ? 'pkmsg' : 'msg', ciphertext: Buffer.from(body, 'binary') }
  }

  /** `encryptTo` for a `proto.Message`, padded as WhatsApp pads (`encodeWAMessage`). */
  encryptMessageTo(
    recipient: string,
    companion: PreKeySource | PreKeyBundle | undefined,
    message: proto.IMessage,
  ): Promise<EncryptedPayload> {
    return this.encryptTo(recipient, companion, encodeWAMessage(message))
  }

  /** Decrypts a `pkmsg` or `msg` from a peer device; returns the padded plaintext. */
  async decrypt(sender: string, type: 'pkmsg' | 'msg', ciphertext: Uint8Array): Promise<Uint8Array> {
    const cipher = new SessionCipher(this.store, this.addressOf(sender))
    return type === 'pkmsg'
      ? cipher.decryptPreKeyWhisperMessage(ciphertext)
      : cipher.decryptWhisperMessage(ciphertext)
  }

  /**
   * Decrypts one `<enc>` the way Baileys's `decryptMessageNode` does: unpad, decode, unwrap a
   * `deviceSentMessage`, and take in a sender-key distribution message so the group's `skmsg`
   * can be read. `group` is required for `skmsg` (the group JID; `sender` is the author device).
   */
  async decryptMessage(
    sender: string,
    enc: { type: EncType; ciphertext: Uint8Array },
    group?: string,
  ): Promise<proto.Message> {
    let padded: Uint8Array
    if (enc.type === 'skmsg') {
      if (!group) throw new Error('skmsg needs the group JID')
      padded = await new GroupCipher(this.store, this.senderKeyName(group, sender)).decrypt(enc.ciphertext)
    } else {
      padded = await this.decrypt(sender, enc.type, enc.ciphertext)
    }
    const decoded = proto.Message.decode(unpadRandomMax16(padded))
    const message = decoded.deviceSentMessage?.message
      ? proto.Message.fromObject(decoded.deviceSentMessage.message)
      : decoded
    const distribution = message.senderKeyDistributionMessage
    if (distribution?.groupId && distribution.axolotlSenderKeyDistributionMessage) {
      await new GroupSessionBuilder(this.store).process(
        this.senderKeyName(distribution.groupId, sender),
        new SenderKeyDistributionMessage(
          null,
          null,
          null,
          null,
          distribution.axolotlSenderKeyDistributionMessage,
        ),
      )
    }
    return message
  }

  /**
   * Encrypts a message to a group the way a WhatsApp client does: one `skmsg` everyone reads with
   * this device's sender key, plus, for each recipient device not given the key yet, a pkmsg/msg
   * carrying the sender-key distribution message. The server puts both in one stanza per device.
   */
  async encryptForGroup(
    group: string,
    recipients: { jid: string; keys?: PreKeySource | PreKeyBundle }[],
    message: proto.IMessage,
  ): Promise<{
    skmsg: { type: 'skmsg'; ciphertext: Uint8Array }
    devices: { jid: string; enc: EncryptedPayload }[]
  }> {
    const ownName = this.senderKeyName(group, this.jid)
    const distribution = await new GroupSessionBuilder(this.store).create(ownName)
    const ciphertext = await new GroupCipher(this.store, ownName).encrypt(encodeWAMessage(message))
    const gaveKey = this.senderKeyGivenTo.get(group) ?? new Set<string>()
    this.senderKeyGivenTo.set(group, gaveKey)
    const devices: { jid: string; enc: EncryptedPayload }[] = []
    for (const recipient of recipients) {
      const address = this.addressOf(recipient.jid).toString()
      if (gaveKey.has(address)) continue
      const enc = await this.encryptMessageTo(recipient.jid, recipient.keys, {
        senderKeyDistributionMessage: {
          groupId: group,
          axolotlSenderKeyDistributionMessage: distribution.serialize(),
        },
      })
      gaveKey.add(address)
      devices.push({ jid: recipient.jid, enc })
    }
    return { skmsg: { type: 'skmsg', ciphertext }, devices }
  }

  /** Forgets which devices hold this device's sender key for a group (a member left, keys rotate). */
  forgetGroupKeyHolders(group: string): void {
    this.senderKeyGivenTo.delete(group)
  }

  private senderKeyName(group: string, author: string): SenderKeyName {
    return new SenderKeyName(group, this.addressOf(author))
  }
}
