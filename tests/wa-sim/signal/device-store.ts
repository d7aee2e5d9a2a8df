import type { KeyPair, SignedKeyPair } from '@whiskeysockets/baileys'
import { generateSignalPubKey } from '@whiskeysockets/baileys'
import type { SenderKeyName } from '@whiskeysockets/baileys/lib/Signal/Group/sender-key-name.js'
import { SenderKeyRecord } from '@whiskeysockets/baileys/lib/Signal/Group/sender-key-record.js'
import type { SessionRecord, SignalStorage } from 'libsignal'

type LibsignalKeyPair = { privKey: Buffer; pubKey: Buffer }

/**
 * One customer device's Signal state, in memory: what `libsignal`'s SessionBuilder/SessionCipher and
 * Baileys's GroupCipher read and write. It keeps its one-time pre-keys until a peer's pkmsg spends
 * them (libsignal calls `removePreKey`), as a phone does.
 */
export class DeviceSignalStore implements SignalStorage {
  private readonly sessions = new Map<string, SessionRecord>()
  private readonly preKeys = new Map<number, KeyPair>()
  private readonly senderKeys = new Map<string, SenderKeyRecord>()
  private readonly identities = new Map<string, Uint8Array>()

  constructor(
    readonly registrationId: number,
    readonly identityKey: KeyPair,
    readonly signedPreKey: SignedKeyPair,
  ) {}

  addPreKey(keyId: number, pair: KeyPair): void {
    this.preKeys.set(keyId, pair)
  }

  hasPreKey(keyId: number): boolean {
    return this.preKeys.has(keyId)
  }

  get preKeyCount(): number {
    return this.preKeys.size
  }

  async loadSession(id: string): Promise<SessionRecord | undefined> {
    return this.sessions.get(id)
  }

  async storeSession(id: string, session: SessionRecord): Promise<void> {
    this.sessions.set(id, session)
  }

  hasOpenSession(id: string): boolean {
    return !!this.sessions.get(id)?.haveOpenSession()
  }

  /** Moves every session kept under one address name to another (a peer now known by its LID). */
  renameSessions(fromName: string, toName: string): void {
    for (const [id, record] of [...this.sessions]) {
      const dot = id.lastIndexOf('.')
      if (id.slice(0, dot) !== fromName) continue
      this.sessions.delete(id)
      this.sessions.set(`${toName}${id.slice(dot)}`, record)
    }
  }

  deleteSession(id: string): void {
    this.sessions.delete(id)
  }

  /** Trust on first use, as WhatsApp Web and Baileys do; remembers the key so a test can see it changed. */
  isTrustedIdentity(identifier: string, identityKey: Uint8Array): boolean {
    this.identities.set(identifier, identityKey)
    return true
  }

  identityOf(identifier: string): Uint8Array | undefined {
    return this.identities.get(identifier)
  }

  async loadPreKey(id: number | string): Promise<LibsignalKeyPair | undefined> {
    const pair = this.preKeys.get(Number(id))
    return pair ? { privKey: Buffer.from(pair.private), pubKey: Buffer.from(pair.public) } : undefined
  }

  removePreKey(id: number): void {
    this.preKeys.delete(id)
  }

  loadSignedPreKey(): LibsignalKeyPair {
    const { keyPair } = this.signedPreKey
    return { privKey: Buffer.from(keyPair.private), pubKey: Buffer.from(keyPair.public) }
  }

  getOurRegistrationId(): number {
    return this.registrationId
  }

  getOurIdentity(): LibsignalKeyPair {
    return {
      privKey: Buffer.from(this.identityKey.private),
      pubKey: Buffer.from(generateSignalPubKey(this.identityKey.public)),
    }
  }

  async loadSenderKey(senderKeyName: SenderKeyName): Promise<SenderKeyRecord> {
    return this.senderKeys.get(senderKeyName.toString()) ?? new SenderKeyRecord()
  }

  async storeSenderKey(senderKeyName: SenderKeyName, record: SenderKeyRecord): Promise<void> {
    this.senderKeys.set(senderKeyName.toString(), record)
  }
}
