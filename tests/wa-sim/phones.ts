/**
 * The in-memory model: simulated company phones (the accounts companions link to) and the
 * companions linked to them, with what each companion uploaded (its Signal bundle), as plain data
 * the signal and media parts read directly.
 */

import type { BinaryNode } from '@whiskeysockets/baileys'
import { Curve, type KeyPair } from '@whiskeysockets/baileys'

export type SignedPreKey = { keyId: number; publicKey: Uint8Array; signature: Uint8Array }
export type OneTimePreKey = { keyId: number; publicKey: Uint8Array }

/** What a companion gave the server to be reachable by Signal: registration, identity, pre-keys. */
export type CompanionBundle = {
  registrationId: number
  identityKey: Uint8Array
  signedPreKey: SignedPreKey
  /** One-time pre-keys not yet handed out; `takePreKey` consumes them as WhatsApp does. */
  preKeys: OneTimePreKey[]
}

export type Companion = {
  phoneNumber: string
  device: number
  /** `5511999990001:3@s.whatsapp.net` */
  jid: string
  /** `123456789012345:3@lid` */
  lid: string
  /** The companion's Noise static key (creds.noiseKey): a login must come from the same key. */
  noiseKey: Uint8Array
  /** The companion's identity key (creds.signedIdentityKey). */
  identityKey: Uint8Array
  platform: string
  bundle: CompanionBundle
  linkedAt: number
  /** When the phone sent this companion its history sync (once, after the first login following the link). */
  historySentAt?: number
}

export type PhoneFlags = {
  /** Send `companion_reg_refresh` when a QR is scanned, as WhatsApp does now. */
  refresh: boolean
  /** The account requires a passkey to link a device: the phone never completes a link. */
  passkeyRequired: boolean
  /** Logins from this account's companions are refused as an outdated client (405). */
  rejectVersion: boolean
  /**
   * After a companion's first login following a link, the phone sends it a history sync (INITIAL_BOOTSTRAP
   * with its contacts and their LID/phone pairs), as WhatsApp does. Off: nothing is sent and Baileys waits
   * its 20 s in `AwaitingInitialSync` (the old behaviour).
   */
  history: boolean
  /**
   * The companion's live socket is deaf: the server answers its pings and iqs but delivers no message, receipt,
   * notification, call or ack to it (they queue, as while offline) until the flag is lifted or the companion
   * logs in again (a new login delivers the queue and is not deaf).
   */
  deaf: boolean
}

export type Phone = {
  number: string
  /** The LID user part (15 digits). */
  lidUser: string
  /** The account's identity key pair: signs the devices it links (ADV account signature). */
  identity: KeyPair
  flags: PhoneFlags
  /** While offline, the companions' sockets are refused and deliveries queue here. */
  offline: boolean
  companions: Map<number, Companion>
  nextDevice: number
  /** Stanzas waiting for the companion to come back, delivered in order on its next login. */
  queue: BinaryNode[]
}

export const DEFAULT_FLAGS: PhoneFlags = {
  refresh: true,
  passkeyRequired: false,
  rejectVersion: false,
  history: true,
  deaf: false,
}

const randomLidUser = (): string => {
  let digits = String(1 + Math.floor(Math.random() * 9))
  while (digits.length < 15) digits += String(Math.floor(Math.random() * 10))
  return digits
}

export class PhoneBook {
  private readonly phones = new Map<string, Phone>()

  create(number: string, flags: Partial<PhoneFlags> = {}): Phone {
    const existing = this.phones.get(number)
    if (existing) {
      Object.assign(existing.flags, flags)
      return existing
    }
    const phone: Phone = {
      number,
      lidUser: randomLidUser(),
      identity: Curve.generateKeyPair(),
      flags: { ...DEFAULT_FLAGS, ...flags },
      offline: false,
      companions: new Map(),
      nextDevice: 1,
      queue: [],
    }
    this.phones.set(number, phone)
    return phone
  }

  get(number: string): Phone | undefined {
    return this.phones.get(number)
  }

  all(): Phone[] {
    return [...this.phones.values()]
  }

  /** The phone that owns a LID user part, for stanzas addressed by LID. */
  byLidUser(lidUser: string): Phone | undefined {
    return this.all().find((phone) => phone.lidUser === lidUser)
  }

  companion(number: string, device: number): Companion | undefined {
    return this.phones.get(number)?.companions.get(device)
  }

  /** The most recently linked companion of a phone (Balcão links one per number). */
  latestCompanion(number: string): Companion | undefined {
    const companions = [...(this.phones.get(number)?.companions.values() ?? [])]
    return companions.sort((a, b) => b.linkedAt - a.linkedAt || b.device - a.device)[0]
  }

  link(
    phone: Phone,
    details: Omit<Companion, 'phoneNumber' | 'device' | 'jid' | 'lid' | 'linkedAt'>,
  ): Companion {
    const device = phone.nextDevice++
    const companion: Companion = {
      ...details,
      phoneNumber: phone.number,
      device,
      jid: `${phone.number}:${device}@s.whatsapp.net`,
      lid: `${phone.lidUser}:${device}@lid`,
      linkedAt: Date.now(),
    }
    phone.companions.set(device, companion)
    return companion
  }

  unlink(companion: Companion): void {
    this.phones.get(companion.phoneNumber)?.companions.delete(companion.device)
  }
}

/** Hands out one one-time pre-key (or none when they ran out, as WhatsApp does). */
export const takePreKey = (companion: Companion): OneTimePreKey | undefined =>
  companion.bundle.preKeys.shift()
