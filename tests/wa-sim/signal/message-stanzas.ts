import {
  type BinaryNode,
  getBinaryNodeChild,
  getBinaryNodeChildren,
} from '@whiskeysockets/baileys/lib/WABinary/index.js'
import type { EncType } from './customer-device.ts'

/** One `<enc>` child of a message stanza. */
export interface EncPart {
  type: EncType
  ciphertext: Uint8Array
  /** `mediatype` attribute (image, ptt, document, ...), as Baileys puts on media messages. */
  mediatype?: string
  /** Resend number, on a message answering a retry receipt. */
  count?: number
  /** `decrypt-fail="hide"`, as sent for reactions. */
  decryptFail?: 'hide'
}

export interface InboundMessage {
  id: string
  /** 1:1: the author device or user (`5511...@s.whatsapp.net`, `...@lid`); group: the group JID. */
  from: string
  /** Group: the author device. */
  participant?: string
  /** Seconds since the epoch. */
  t: number
  /** Stanza `type`: text, media, reaction, poll (what Baileys's `getMessageType` sends). */
  type?: string
  enc: EncPart[]
  /** How the author is named: `lid` when `from`/`participant` is a LID. Derived from the author JID when absent. */
  addressingMode?: 'pn' | 'lid'
  /** The author's other name: its LID on a PN-addressed message, its PN on a LID-addressed one. */
  senderAlt?: string
  /** Push name. */
  notify?: string
  /** Queued while the companion was away: Baileys then upserts it as `append`, not `notify`. */
  offline?: boolean
  /** `peer` for a message from the account's own phone (history sync, app-state keys). */
  category?: string
  /** A message our own other device sent: the chat it was sent to. */
  recipient?: string
  /** Edit attribute (`1` edit, `7` sender revoke, `8` admin revoke), as Baileys sends it. */
  edit?: string
}

function authorOf(message: Pick<InboundMessage, 'from' | 'participant'>): string {
  return message.participant ?? message.from
}

/**
 * The `<message>` stanza the server delivers to the companion: what Baileys's `decodeMessageNode`
 * and `decryptMessageNode` read (`Utils/decode-wa-message.js`). The author's other identity goes in
 * the attribute Baileys looks at for that case (`extractAddressingContext`): `participant_lid` /
 * `participant_pn` in groups, `sender_lid` / `sender_pn` in 1:1 chats.
 */
export function inboundMessageNode(message: InboundMessage): BinaryNode {
  const author = authorOf(message)
  const mode = message.addressingMode ?? (author.endsWith('@lid') ? 'lid' : 'pn')
  const attrs: Record<string, string> = {
    id: message.id,
    from: message.from,
    t: String(message.t),
    type: message.type ?? 'text',
  }
  if (message.participant) attrs.participant = message.participant
  if (message.addressingMode) attrs.addressing_mode = message.addressingMode
  if (message.senderAlt) {
    const role = message.participant ? 'participant' : 'sender'
    attrs[`${role}_${mode === 'lid' ? 'pn' : 'lid'}`] = message.senderAlt
  }
  if (message.notify) attrs.notify = message.notify
  if (message.offline) attrs.offline = '1'
  if (message.category) attrs.category = message.category
  if (message.recipient) attrs.recipient = message.recipient
  if (message.edit) attrs.edit = message.edit
  return {
    tag: 'message',
    attrs,
    content: message.enc.map((part) => {
      const encAttrs: Record<string, string> = { v: '2', type: part.type }
      if (part.mediatype) encAttrs.mediatype = part.mediatype
      if (part.count !== undefined) encAttrs.count = String(part.count)
      if (part.decryptFail) encAttrs['decrypt-fail'] = part.decryptFail
      return { tag: 'enc', attrs: encAttrs, content: part.ciphertext }
    }),
  }
}

/** A ciphertext for one device, from a message the companion sent. */
export interface DeviceCiphertext {
  /** The device it is encrypted to (`5511...:0@s.whatsapp.net`, `...@lid`, or a bare user JID for device 0). */
  jid: string
  type: 'pkmsg' | 'msg'
  ciphertext: Uint8Array
  mediatype?: string
  count?: number
}

export interface OutboundMessage {
  id: string
  /** Chat JID, or on a resend to one device that device (Baileys `relayMessage`). */
  to: string
  /** Stanza type: text, media, reaction, poll, event. */
  type: string
  /** Group resend: the one device it goes to. */
  participant?: string
  /** Resend to our own device: the chat. */
  recipient?: string
  category?: string
  addressingMode?: string
  edit?: string
  /** `device_fanout="false"` on a resend to one device. */
  deviceFanout?: boolean
  /** Hash of the recipient devices (`phash`), which the server's ack echoes. */
  phash?: string
  /** One ciphertext per device: from `<participants><to jid><enc>`, or the direct `<enc>` of a resend / peer message. */
  devices: DeviceCiphertext[]
  /** The group ciphertext everyone with the sender key reads. */
  skmsg?: { ciphertext: Uint8Array; mediatype?: string }
  /** ADV device identity, sent with pkmsgs. */
  deviceIdentity?: Uint8Array
  /** Children this parser does not interpret (`meta`, `tctoken`, `reporting`, ...). */
  otherNodes: BinaryNode[]
}

function bytesOf(node: BinaryNode): Uint8Array {
  if (node.content instanceof Uint8Array) return node.content
  throw new Error(`<${node.tag}> has no bytes`)
}

function encOf(node: BinaryNode, jid: string): DeviceCiphertext {
  const { type, mediatype, count } = node.attrs
  if (type !== 'pkmsg' && type !== 'msg') throw new Error(`unexpected enc type ${type} for ${jid}`)
  return {
    jid,
    type,
    ciphertext: bytesOf(node),
    ...(mediatype ? { mediatype } : {}),
    ...(count ? { count: Number(count) } : {}),
  }
}

/**
 * Reads the `<message>` Baileys's `relayMessage` sends (`Socket/messages-send.js`): the fan-out in
 * `<participants>`, a direct `<enc>` (a resend answering a retry receipt, or a peer message), and a
 * group's `skmsg`.
 */
export function parseOutboundMessage(node: BinaryNode): OutboundMessage {
  if (node.tag !== 'message') throw new Error(`not a message stanza: <${node.tag}>`)
  const { attrs } = node
  if (!attrs.id || !attrs.to) throw new Error('message stanza without id or to')
  const children = Array.isArray(node.content) ? node.content : []
  const devices: DeviceCiphertext[] = []
  const otherNodes: BinaryNode[] = []
  let skmsg: OutboundMessage['skmsg']
  let deviceIdentity: Uint8Array | undefined
  for (const child of children) {
    if (child.tag === 'participants') {
      for (const to of getBinaryNodeChildren(child, 'to')) {
        const enc = getBinaryNodeChild(to, 'enc')
        if (!to.attrs.jid || !enc) throw new Error('participants <to> without jid or enc')
        devices.push(encOf(enc, to.attrs.jid))
      }
    } else if (child.tag === 'enc' && child.attrs.type === 'skmsg') {
      skmsg = {
        ciphertext: bytesOf(child),
        ...(child.attrs.mediatype ? { mediatype: child.attrs.mediatype } : {}),
      }
    } else if (child.tag === 'enc') {
      devices.push(encOf(child, attrs.participant ?? attrs.to))
    } else if (child.tag === 'device-identity') {
      deviceIdentity = bytesOf(child)
    } else {
      otherNodes.push(child)
    }
  }
  return {
    id: attrs.id,
    to: attrs.to,
    type: attrs.type ?? 'text',
    ...(attrs.participant ? { participant: attrs.participant } : {}),
    ...(attrs.recipient ? { recipient: attrs.recipient } : {}),
    ...(attrs.category ? { category: attrs.category } : {}),
    ...(attrs.addressing_mode ? { addressingMode: attrs.addressing_mode } : {}),
    ...(attrs.edit ? { edit: attrs.edit } : {}),
    ...(attrs.device_fanout ? { deviceFanout: attrs.device_fanout !== 'false' } : {}),
    ...(attrs.phash ? { phash: attrs.phash } : {}),
    devices,
    ...(skmsg ? { skmsg } : {}),
    ...(deviceIdentity ? { deviceIdentity } : {}),
    otherNodes,
  }
}

/**
 * The server's `<ack class="message">` for a message the companion sent. With `error` it is the
 * rejection Baileys's `handleBadAck` turns into status ERROR (463 reach-out lock / missing tctoken,
 * 479 stale device session, ...).
 */
export function messageAckNode(
  message: Pick<OutboundMessage, 'id' | 'to' | 'participant' | 'phash'>,
  options: { t: number; error?: number | string },
): BinaryNode {
  const attrs: Record<string, string> = {
    class: 'message',
    id: message.id,
    from: message.to,
    t: String(options.t),
  }
  if (message.participant) attrs.participant = message.participant
  if (message.phash) attrs.phash = message.phash
  if (options.error !== undefined) attrs.error = String(options.error)
  return { tag: 'ack', attrs }
}

export interface ReceiptSpec {
  /** The message ids, oldest first; the first goes in `id`, the rest in `<list><item>`. */
  ids: string[]
  /** The customer (device) the receipt comes from, or the group. */
  from: string
  /** Group: the customer device. */
  participant?: string
  /** No type: delivered. `read`, `read-self`, `played` (voice notes), `inactive`, `sender`. */
  type?: 'read' | 'read-self' | 'played' | 'inactive' | 'sender'
  t: number
}

/** A delivery/read receipt for messages the companion sent, as Baileys's `handleReceipt` reads it. */
export function receiptNode(receipt: ReceiptSpec): BinaryNode {
  const [first, ...rest] = receipt.ids
  if (!first) throw new Error('a receipt needs at least one id')
  const attrs: Record<string, string> = { id: first, from: receipt.from, t: String(receipt.t) }
  if (receipt.participant) attrs.participant = receipt.participant
  if (receipt.type) attrs.type = receipt.type
  const node: BinaryNode = { tag: 'receipt', attrs }
  if (rest.length) {
    node.content = [{ tag: 'list', attrs: {}, content: rest.map((id) => ({ tag: 'item', attrs: { id } })) }]
  }
  return node
}

export interface RetryReceiptSpec {
  /** The id of the message the customer could not decrypt. */
  id: string
  /** The customer device asking; a device-less JID makes Baileys resend to all the user's devices. */
  from: string
  participant?: string
  t: number
  /** How many times this message has been asked for (1 first). */
  count: number
  /** The failed message's own `t`. */
  messageT: number
  /** The asking device's registration id, 4 bytes (`CustomerDevice.registrationBytes()`). */
  registration: Uint8Array
  /** A fresh key bundle (`CustomerDevice.retryKeysNode()`): Baileys then builds a new session from it. */
  keys?: BinaryNode
}

/**
 * A `type="retry"` receipt: what a device sends when it cannot decrypt. Baileys's `handleReceipt`
 * answers with `sendMessagesAgain`, reading `<retry count>`, `<registration>` and optional `<keys>`
 * (`extractE2ESessionFromRetryReceipt`).
 */
export function retryReceiptNode(retry: RetryReceiptSpec): BinaryNode {
  const attrs: Record<string, string> = { id: retry.id, from: retry.from, type: 'retry', t: String(retry.t) }
  if (retry.participant) attrs.participant = retry.participant
  const content: BinaryNode[] = [
    {
      tag: 'retry',
      attrs: { count: String(retry.count), id: retry.id, t: String(retry.messageT), v: '1', error: '0' },
    },
    { tag: 'registration', attrs: {}, content: retry.registration },
  ]
  if (retry.keys) content.push(retry.keys)
  return { tag: 'receipt', attrs, content }
}
