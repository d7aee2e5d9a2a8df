import { randomBytes } from 'node:crypto'
import { extractE2ESessionFromRetryReceipt, type proto } from '@whiskeysockets/baileys'
import {
  type BinaryNode,
  getBinaryNodeChild,
  isJidGroup,
  jidDecode,
} from '@whiskeysockets/baileys/lib/WABinary/index.js'
import { CustomerDevice } from './customer-device.ts'
import {
  type ContentSpec,
  contentOf,
  describe,
  mediaTypeOf,
  type ReceivedDescription,
  stanzaTypeOf,
} from './message-content.ts'
import {
  type EncPart,
  inboundMessageNode,
  type OutboundMessage,
  type ReceiptSpec,
  receiptNode,
  retryReceiptNode,
} from './message-stanzas.ts'
import type { PreKeyBundle, PreKeySource } from './prekey-bundle.ts'
import type { UsyncAccount } from './usync.ts'

/** A companion device the customer writes to, with the keys to open a session if none exists. */
export interface CompanionDevice {
  jid: string
  keys?: PreKeySource | PreKeyBundle
}

/** One message a customer received, in arrival order. */
export interface ReceivedEntry extends ReceivedDescription {
  id: string
  /** The author device as the server named it. */
  from: string
  group?: string
}

/** What `send` produced: one `<enc>` per companion device, and what the stanza needs around it. */
export interface OutgoingMessage {
  id: string
  message: proto.IMessage
  /** Stanza `type` (text, media, reaction, ...). */
  type: string
  encs: { to: string; enc: EncPart }[]
  /** Every companion device it goes to (a group's `skmsg` goes to devices without an own `enc` too). */
  recipients: string[]
  /** A group message: the group and the `skmsg` every companion device gets beside its own `encs`. */
  group?: { jid: string; skmsg: EncPart }
}

export interface ReceiveResult {
  /** New entries (a message several devices decrypted is listed once). */
  entries: ReceivedEntry[]
  /** Devices that could not decrypt their ciphertext: each should send a retry receipt. */
  failures: { device: CustomerDevice; id: string; error: string }[]
}

/** A WhatsApp-style message id, as phones make them (32 upper-case hex digits). */
export function newMessageId(): string {
  return randomBytes(16).toString('hex').toUpperCase()
}

/**
 * A simulated customer: a phone number, a LID, a name and one or more Signal devices (device 0 is
 * the phone). It writes from its phone, reads with every device the server delivers to, keeps what
 * it received in order, and can answer the companion's retry receipt by resending.
 */
export class SimulatedCustomer {
  readonly phone: string
  readonly lid: string
  readonly name: string
  readonly devices: CustomerDevice[]
  private readonly log: ReceivedEntry[] = []
  private readonly receivedMessages = new Map<string, proto.IMessage>()
  private readonly sentMessages = new Map<string, proto.IMessage>()

  constructor(options: { phone: string; lid?: string; name?: string; devices?: number[] }) {
    const [firstId = 0, ...otherIds] = options.devices ?? [0]
    const first = new CustomerDevice({ phone: options.phone, lid: options.lid, device: firstId })
    // Every device shares the account's LID (the first device drew it when none was given).
    this.devices = [
      first,
      ...otherIds.map((device) => new CustomerDevice({ phone: options.phone, lid: first.lid, device })),
    ]
    this.phone = options.phone
    this.lid = first.lid
    this.name = options.name ?? `Customer ${options.phone}`
  }

  get phoneUserJid(): string {
    return `${this.phone}@s.whatsapp.net`
  }

  get lidUserJid(): string {
    return `${this.lid}@lid`
  }

  /** The device that writes: the phone (device 0), or the first device. */
  get primary(): CustomerDevice {
    return this.devices.find((d) => d.device === 0) ?? (this.devices[0] as CustomerDevice)
  }

  /** How usync describes this customer. */
  usyncAccount(): UsyncAccount {
    return { phone: this.phone, lid: this.lid, devices: this.devices.map((d) => d.device) }
  }

  /** The device a JID names (phone-number or LID form, any device number), if it is one of ours. */
  deviceFor(jid: string): CustomerDevice | undefined {
    const decoded = jidDecode(jid)
    if (!decoded || (decoded.user !== this.phone && decoded.user !== this.lid)) return undefined
    return this.devices.find((d) => d.device === (decoded.device ?? 0))
  }

  /** Tells every device the companion's two names (see `CustomerDevice.samePeer`). */
  knowPeer(pnJid: string, lidJid: string): void {
    for (const device of this.devices) device.samePeer(pnJid, lidJid)
  }

  /** Encrypts a message from the phone to each companion device (pkmsg the first time, msg after). */
  async send(
    to: CompanionDevice[],
    spec: ContentSpec | proto.IMessage,
    id = newMessageId(),
  ): Promise<OutgoingMessage> {
    const message = 'kind' in spec ? contentOf(spec as ContentSpec) : spec
    this.sentMessages.set(id, message)
    const mediatype = mediaTypeOf(message)
    const type = stanzaTypeOf(message)
    const encs: OutgoingMessage['encs'] = []
    for (const companion of to) {
      const enc = await this.primary.encryptMessageTo(companion.jid, companion.keys, message)
      encs.push({
        to: companion.jid,
        enc: {
          ...enc,
          ...(mediatype ? { mediatype } : {}),
          ...(type === 'reaction' ? { decryptFail: 'hide' } : {}),
        },
      })
    }
    return { id, message, type, encs, recipients: to.map((c) => c.jid) }
  }

  /**
   * Writes in a group from the phone: one `skmsg`, plus this device's sender key (in a pkmsg/msg)
   * for each companion device that does not hold it yet.
   */
  async sendToGroup(
    group: string,
    to: CompanionDevice[],
    spec: ContentSpec | proto.IMessage,
    id = newMessageId(),
  ): Promise<OutgoingMessage> {
    const message = 'kind' in spec ? contentOf(spec as ContentSpec) : spec
    this.sentMessages.set(id, message)
    const mediatype = mediaTypeOf(message)
    const { skmsg, devices } = await this.primary.encryptForGroup(group, to, message)
    return {
      id,
      message,
      type: stanzaTypeOf(message),
      encs: devices.map(({ jid, enc }) => ({ to: jid, enc })),
      recipients: to.map((c) => c.jid),
      group: { jid: group, skmsg: { ...skmsg, ...(mediatype ? { mediatype } : {}) } },
    }
  }

  /**
   * The stanzas the server delivers for a message this customer sent: one per companion device.
   * `lid` addressing names the customer by LID with its number in `sender_pn`/`participant_pn`;
   * `pn` (the default) names it by number with its LID in `sender_lid`/`participant_lid`.
   */
  stanzasFor(
    out: OutgoingMessage,
    options: { t: number; addressing?: 'pn' | 'lid'; offline?: boolean },
  ): { to: string; node: BinaryNode }[] {
    const lid = options.addressing === 'lid'
    const author = lid ? this.lidUserJid : this.phoneUserJid
    return out.recipients.map((to) => {
      const own = out.encs.filter((e) => e.to === to).map((e) => e.enc)
      const enc = out.group ? [...own, out.group.skmsg] : own
      const node = inboundMessageNode({
        id: out.id,
        from: out.group ? out.group.jid : author,
        ...(out.group ? { participant: author } : {}),
        t: options.t,
        type: out.type,
        enc,
        addressingMode: lid ? 'lid' : 'pn',
        senderAlt: lid ? this.phoneUserJid : this.lidUserJid,
        notify: this.name,
        ...(options.offline ? { offline: true } : {}),
      })
      return { to, node }
    })
  }

  /** How a device of ours is named on the wire: device 0 as the bare user, others with their number. */
  private wireJidOf(device: CustomerDevice, addressing: 'pn' | 'lid' = 'pn'): string {
    const user = addressing === 'lid' ? this.lid : this.phone
    const server = addressing === 'lid' ? 'lid' : 's.whatsapp.net'
    return device.device === 0 ? `${user}@${server}` : `${user}:${device.device}@${server}`
  }

  /**
   * A delivery (no `type`) or read/played receipt from this customer for messages the companion
   * sent, from the phone unless a device is given; in the chat's addressing (`pn` by default).
   */
  receipt(
    ids: string[],
    options: { t: number; type?: ReceiptSpec['type']; addressing?: 'pn' | 'lid'; device?: CustomerDevice },
  ): BinaryNode {
    const from = this.wireJidOf(options.device ?? this.primary, options.addressing)
    return receiptNode({ ids, from, t: options.t, ...(options.type ? { type: options.type } : {}) })
  }

  /**
   * The retry receipt a device sends when it cannot decrypt message `id` (`messageT` is that
   * stanza's `t`). Like WhatsApp clients it carries fresh keys from the second try on, or when
   * `withKeys` says so (the device lost its session): Baileys then builds a new session from them.
   */
  retryReceipt(options: {
    id: string
    t: number
    messageT: number
    count: number
    device?: CustomerDevice
    withKeys?: boolean
    addressing?: 'pn' | 'lid'
  }): BinaryNode {
    const device = options.device ?? this.primary
    const withKeys = options.withKeys ?? options.count > 1
    return retryReceiptNode({
      id: options.id,
      from: this.wireJidOf(device, options.addressing),
      t: options.t,
      count: options.count,
      messageT: options.messageT,
      registration: device.registrationBytes(),
      ...(withKeys ? { keys: device.retryKeysNode() } : {}),
    })
  }

  /**
   * Answers a retry receipt the companion sent for one of our messages: a new session from the
   * receipt's keys when it has them (as Baileys does on its side), then the same message again,
   * with the receipt's retry count on the `<enc>`.
   */
  async resendFor(retryReceipt: BinaryNode, companionJid: string): Promise<OutgoingMessage> {
    const id = retryReceipt.attrs.id ?? ''
    const message = this.sentMessages.get(id)
    if (!message) throw new Error(`retry for a message this customer did not send: ${id}`)
    const bundle = extractE2ESessionFromRetryReceipt(retryReceipt)
    if (bundle) this.primary.forgetSession(companionJid)
    const enc = await this.primary.encryptMessageTo(companionJid, bundle ?? undefined, message)
    const count = Number(getBinaryNodeChild(retryReceipt, 'retry')?.attrs.count ?? 1)
    const mediatype = mediaTypeOf(message)
    return {
      id,
      message,
      type: stanzaTypeOf(message),
      encs: [{ to: companionJid, enc: { ...enc, count, ...(mediatype ? { mediatype } : {}) } }],
      recipients: [companionJid],
    }
  }

  /**
   * Reads what the companion sent (`parseOutboundMessage`), with every device of ours that has a
   * ciphertext in it; `author` is the companion device as the server names it to us.
   */
  async receive(outbound: OutboundMessage, author: string): Promise<ReceiveResult> {
    const group = isJidGroup(outbound.to) ? outbound.to : undefined
    const result: ReceiveResult = { entries: [], failures: [] }
    for (const part of outbound.devices) {
      const device = this.deviceFor(part.jid)
      if (!device) continue
      try {
        let message = await device.decryptMessage(author, part, group)
        if (group && outbound.skmsg) {
          message = await device.decryptMessage(author, { type: 'skmsg', ...outbound.skmsg }, group)
        }
        this.record(result, outbound.id, author, message, group)
      } catch (error) {
        result.failures.push({
          device,
          id: outbound.id,
          error: error instanceof Error ? error.message : String(error),
        })
      }
    }
    if (group && outbound.skmsg && outbound.devices.every((part) => !this.deviceFor(part.jid))) {
      for (const device of this.devices) {
        try {
          const message = await device.decryptMessage(author, { type: 'skmsg', ...outbound.skmsg }, group)
          this.record(result, outbound.id, author, message, group)
        } catch (error) {
          result.failures.push({
            device,
            id: outbound.id,
            error: error instanceof Error ? error.message : String(error),
          })
        }
      }
    }
    return result
  }

  private record(
    result: ReceiveResult,
    id: string,
    from: string,
    message: proto.IMessage,
    group?: string,
  ): void {
    if (this.receivedMessages.has(id)) return
    const description = describe(message)
    // A message carrying only a sender key is plumbing, not something the customer sees.
    if (description.kind === 'sender-key') return
    this.receivedMessages.set(id, message)
    const entry: ReceivedEntry = { id, from, ...(group ? { group } : {}), ...description }
    this.log.push(entry)
    result.entries.push(entry)
  }

  /** Everything received, in order (`GET /control/customers/{n}/received`). */
  received(): ReceivedEntry[] {
    return [...this.log]
  }

  /** The decrypted message itself (to download its media, for instance). */
  receivedMessage(id: string): proto.IMessage | undefined {
    return this.receivedMessages.get(id)
  }

  sentMessage(id: string): proto.IMessage | undefined {
    return this.sentMessages.get(id)
  }
}
