/**
 * Simulated customers wired into the server (the Signal side is signal/): each customer is a
 * `SimulatedCustomer` whose phone writes to a company phone's linked companion and whose devices
 * decrypt what the companion sends. Each company phone also gets its own Signal device 0, since
 * Baileys fans every message out to its own phone. This module answers the iqs a companion needs
 * to reach them (usync, key fetch), reads the companion's message stanzas, and serves
 * `/control/customers`.
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import { jidDecode } from '@whiskeysockets/baileys'
import { ControlError } from './control'
import type { Companion } from './phones'
import type { Simulator } from './server'
import { CustomerDevice } from './signal/customer-device.ts'
import { keyFetchResult, parseKeyFetch } from './signal/encrypt-iq.ts'
import type { ContentSpec, MediaKind, QuoteSpec, TargetRef, UploadedMedia } from './signal/message-content.ts'
import { messageAckNode, parseOutboundMessage } from './signal/message-stanzas.ts'
import { phoneVariants } from './signal/phone-variants.ts'
import { storedKeysSource } from './signal/prekey-bundle.ts'
import { type ReceivedEntry, SimulatedCustomer } from './signal/simulated-customer.ts'
import { type UsyncAccount, type UsyncDirectory, usyncResultNode } from './signal/usync.ts'

const nowSeconds = () => Math.floor(Date.now() / 1000)

type Registered = { customer: SimulatedCustomer; lidOnly: boolean }

export class CustomerNetwork implements UsyncDirectory {
  private readonly customers = new Map<string, Registered>()
  /** The company phones' own Signal devices (device 0), by phone number. */
  private readonly phoneDevices = new Map<string, CustomerDevice>()

  constructor(private readonly sim: Simulator) {}

  create(number: string, name: string, lidOnly = false): SimulatedCustomer {
    const existing = this.find(number)
    if (existing) return existing.customer
    const customer = new SimulatedCustomer({ phone: number, name })
    this.customers.set(number, { customer, lidOnly })
    return customer
  }

  /** Every customer of the network, in creation order (the company phones' address book, for history sync). */
  all(): Registered[] {
    return [...this.customers.values()]
  }

  find(number: string): Registered | undefined {
    for (const variant of phoneVariants(number)) {
      const found = this.customers.get(variant)
      if (found) return found
    }
    return undefined
  }

  private byJid(jid: string): Registered | undefined {
    const decoded = jidDecode(jid)
    if (!decoded?.user) return undefined
    if (decoded.server === 'lid')
      return [...this.customers.values()].find((entry) => entry.customer.lid === decoded.user)
    return this.find(decoded.user)
  }

  phoneDevice(number: string): CustomerDevice {
    let device = this.phoneDevices.get(number)
    if (!device) {
      device = new CustomerDevice({ phone: number, lid: this.sim.requirePhone(number).lidUser, device: 0 })
      this.phoneDevices.set(number, device)
    }
    return device
  }

  private companyAccount(number: string): UsyncAccount {
    const phone = this.sim.requirePhone(number)
    return { phone: phone.number, lid: phone.lidUser, devices: [0, ...phone.companions.keys()] }
  }

  byPhone(digits: string): UsyncAccount | undefined {
    const customer = this.find(digits)?.customer
    if (customer) return customer.usyncAccount()
    const phone = phoneVariants(digits).find((variant) => this.sim.phones.get(variant))
    return phone ? this.companyAccount(phone) : undefined
  }

  byLid(lidUser: string): UsyncAccount | undefined {
    const customer = [...this.customers.values()].find((entry) => entry.customer.lid === lidUser)?.customer
    if (customer) return customer.usyncAccount()
    const phone = this.sim.phones.byLidUser(lidUser)
    return phone ? this.companyAccount(phone.number) : undefined
  }

  /** Baileys's key fetch: customers' devices and the company phones' own devices hand out bundles. */
  keyFetch(node: BinaryNode): BinaryNode[] {
    const users = parseKeyFetch(node).flatMap(({ jid }) => {
      const decoded = jidDecode(jid)
      if (!decoded?.user) return []
      const device = decoded.device ?? 0
      const customer = this.byJid(jid)?.customer.devices.find((candidate) => candidate.device === device)
      if (customer) return [customer.bundleNode(jid)]
      const phone =
        decoded.server === 'lid' ? this.sim.phones.byLidUser(decoded.user) : this.sim.phones.get(decoded.user)
      return phone && device === 0 ? [this.phoneDevice(phone.number).bundleNode(jid)] : []
    })
    const answer = keyFetchResult(node, users)
    return Array.isArray(answer.content) ? answer.content : []
  }

  private introduce(customer: SimulatedCustomer, phoneNumber: string): void {
    customer.knowPeer(`${phoneNumber}@s.whatsapp.net`, `${this.sim.requirePhone(phoneNumber).lidUser}@lid`)
  }

  /** The customer's phone writes to the company phone `to`; the stanza goes to its companion. */
  async send(number: string, to: string, spec: ContentSpec): Promise<string> {
    const registered = this.find(number)
    if (!registered) throw new ControlError(404, 'no such customer')
    const companion = this.sim.phones.latestCompanion(to)
    if (!companion) throw new ControlError(409, `phone ${to} has no linked companion`)
    const { customer, lidOnly } = registered
    this.introduce(customer, to)
    const out = await customer.send(
      [{ jid: companion.jid, keys: storedKeysSource(() => companion.bundle) }],
      spec,
    )
    for (const { node } of customer.stanzasFor(out, {
      t: nowSeconds(),
      addressing: lidOnly ? 'lid' : 'pn',
    })) {
      this.sim.sendToCompanion(to, node)
    }
    return out.id
  }

  /** A target from the customer's side: ids it sent are `fromMe`. */
  target(number: string, to: string, id: string): TargetRef {
    const customer = this.find(number)?.customer
    return { id, chat: `${to}@s.whatsapp.net`, fromMe: customer?.sentMessage(id) !== undefined }
  }

  quote(number: string, to: string, id: string): QuoteSpec {
    const customer = this.find(number)?.customer
    const sent = customer?.sentMessage(id)
    const quotedMessage = sent ?? customer?.receivedMessage(id)
    return {
      id,
      author: sent ? `${customer?.phone}@s.whatsapp.net` : `${to}@s.whatsapp.net`,
      ...(quotedMessage ? { quotedMessage } : {}),
    }
  }

  /**
   * A receipt from the customer's phone for messages a company phone sent it: `read` (blue ticks) or
   * `retry` (it could not decrypt: Baileys resends). The company phone is the one whose companion
   * sent the first id.
   */
  answer(number: string, ids: string[], kind: 'read' | 'retry'): void {
    const registered = this.find(number)
    if (!registered) throw new ControlError(404, 'no such customer')
    const { customer } = registered
    const entry = customer.received().find((candidate) => candidate.id === ids[0])
    const author = entry ? jidDecode(entry.from) : undefined
    const phone =
      author?.server === 'lid'
        ? this.sim.phones.byLidUser(author.user)
        : this.sim.phones.get(author?.user ?? '')
    if (!phone) throw new ControlError(404, 'the customer received no such message')
    const addressing = author?.server === 'lid' ? 'lid' : 'pn'
    const t = nowSeconds()
    if (kind === 'read') {
      this.sim.sendToCompanion(phone.number, customer.receipt(ids, { t, type: 'read', addressing }))
      return
    }
    for (const id of ids) {
      const count = (this.retries.get(id) ?? 0) + 1
      this.retries.set(id, count)
      this.sim.sendToCompanion(phone.number, customer.retryReceipt({ id, t, messageT: t, count, addressing }))
    }
  }

  private readonly retries = new Map<string, number>()

  received(number: string): ReceivedEntry[] {
    const registered = this.find(number)
    if (!registered) throw new ControlError(404, 'no such customer')
    return registered.customer.received()
  }

  /**
   * A message the companion sent: every customer it names reads its copy and, as a phone does,
   * answers with a delivery receipt (or a retry receipt for a copy it could not decrypt). The
   * server's ack goes first, as WhatsApp acks before the recipient's receipt can exist.
   */
  async onCompanionMessage(companion: Companion, node: BinaryNode): Promise<void> {
    const out = parseOutboundMessage(node)
    this.sim.loggedIn.get(companion.jid)?.send(messageAckNode(out, { t: nowSeconds() }))
    const lidAddressed = jidDecode(out.to)?.server === 'lid'
    const author = lidAddressed ? companion.lid : companion.jid
    const readers = new Set<Registered>()
    for (const copy of out.devices) {
      const registered = this.byJid(copy.jid)
      if (registered) readers.add(registered)
    }
    for (const registered of readers) {
      const { customer } = registered
      this.introduce(customer, companion.phoneNumber)
      const result = await customer.receive(out, author)
      const addressing = lidAddressed ? 'lid' : 'pn'
      for (const failure of result.failures) {
        const t = nowSeconds()
        this.sim.sendToCompanion(
          companion.phoneNumber,
          customer.retryReceipt({
            id: failure.id,
            t,
            messageT: t,
            count: 1,
            device: failure.device,
            addressing,
          }),
        )
      }
      if (result.entries.length > 0) {
        this.sim.sendToCompanion(
          companion.phoneNumber,
          customer.receipt([out.id], { t: nowSeconds(), addressing }),
        )
      }
    }
  }
}

const digits = (value: unknown): string => (typeof value === 'string' ? value.replace(/\D/g, '') : '')
const text = (value: unknown, what: string): string => {
  if (typeof value !== 'string') throw new ControlError(400, `${what} is required`)
  return value
}

/** Uploads a customer's media to the media host: answers the fields its message carries. */
export type CustomerMediaUpload = (
  bytes: Uint8Array,
  kind: MediaKind,
  mimetype: string,
) => Promise<UploadedMedia>

const MEDIA_KINDS = new Set(['image', 'video', 'audio', 'ptt', 'document', 'sticker'])

/** What `POST /control/customers/{n}/send` asks for, as a Signal-side content spec. */
const contentFrom = async (
  network: CustomerNetwork,
  number: string,
  to: string,
  body: Record<string, unknown>,
  upload: CustomerMediaUpload | undefined,
): Promise<ContentSpec> => {
  const quote = typeof body.quoteId === 'string' ? network.quote(number, to, body.quoteId) : undefined
  const object = (value: unknown) =>
    value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  const media = object(body.media)
  if (media) {
    const requested = text(media.kind, 'media.kind')
    if (!MEDIA_KINDS.has(requested))
      throw new ControlError(400, `media.kind is one of ${[...MEDIA_KINDS].join(', ')}`)
    if (!upload) throw new ControlError(501, 'this simulator has no media host')
    const ptt = requested === 'ptt' || media.ptt === true
    const kind = (requested === 'ptt' ? 'audio' : requested) as MediaKind
    const mimetype = text(media.mimetype, 'media.mimetype')
    const uploaded = await upload(
      Buffer.from(text(media.dataBase64, 'media.dataBase64'), 'base64'),
      kind,
      mimetype,
    )
    return {
      kind,
      media: uploaded,
      ...(typeof media.caption === 'string' ? { caption: media.caption } : {}),
      ...(typeof media.fileName === 'string' ? { fileName: media.fileName } : {}),
      ...(typeof media.seconds === 'number' ? { seconds: media.seconds } : {}),
      ...(ptt ? { ptt } : {}),
      ...(body.viewOnce === true ? { viewOnce: true } : {}),
      ...(quote ? { quote } : {}),
    }
  }
  const reaction = object(body.reaction)
  if (reaction)
    return {
      kind: 'reaction',
      target: network.target(number, to, text(reaction.id, 'reaction.id')),
      emoji: text(reaction.emoji, 'reaction.emoji'),
    }
  const edit = object(body.edit)
  if (edit)
    return {
      kind: 'edit',
      target: network.target(number, to, text(edit.id, 'edit.id')),
      text: text(edit.text, 'edit.text'),
    }
  const revoke = object(body.revoke)
  if (revoke) return { kind: 'revoke', target: network.target(number, to, text(revoke.id, 'revoke.id')) }
  const location = object(body.location)
  if (location) {
    return {
      kind: 'location',
      latitude: Number(location.latitude),
      longitude: Number(location.longitude),
      ...(typeof location.name === 'string' ? { name: location.name } : {}),
      ...(quote ? { quote } : {}),
    }
  }
  const contact = object(body.contact)
  if (contact) {
    return {
      kind: 'contact',
      displayName: text(contact.displayName, 'contact.displayName'),
      ...(typeof contact.phone === 'string' ? { phone: contact.phone } : {}),
      ...(quote ? { quote } : {}),
    }
  }
  return { kind: 'text', text: text(body.text, 'text'), ...(quote ? { quote } : {}) }
}

export const registerCustomers = (sim: Simulator, upload?: CustomerMediaUpload): CustomerNetwork => {
  const network = new CustomerNetwork(sim)
  sim.iq.on('usync', 'get', ({ node }) => {
    const answer = usyncResultNode(node, network, { t: nowSeconds() })
    return Array.isArray(answer.content) ? answer.content : undefined
  })
  sim.iq.on('encrypt', 'get', ({ node }) => network.keyFetch(node), 'key')
  sim.onStanzaKind('message', async ({ connection, node }) => {
    if (!connection.companion) return undefined
    await network.onCompanionMessage(connection.companion, node)
    return 'acked'
  })

  sim.routes.on('POST', '/control/customers', ({ body }) => {
    const number = digits(body.number)
    if (!number) throw new ControlError(400, 'number is required')
    const customer = network.create(
      number,
      typeof body.name === 'string' ? body.name : number,
      body.lidOnly === true,
    )
    return {
      number: customer.phone,
      name: customer.name,
      jid: customer.phoneUserJid,
      lid: customer.lidUserJid,
    }
  })
  sim.routes.on('POST', '/control/customers/:number/send', async ({ params, body }) => {
    const number = digits(params.number)
    const to = digits(body.to)
    if (!to) throw new ControlError(400, 'to is required')
    if (!network.find(number)) throw new ControlError(404, 'no such customer')
    return { id: await network.send(number, to, await contentFrom(network, number, to, body, upload)) }
  })
  const idsOf = (body: Record<string, unknown>): string[] => {
    const ids = Array.isArray(body.ids) ? body.ids : typeof body.id === 'string' ? [body.id] : []
    if (ids.length === 0 || !ids.every((id) => typeof id === 'string'))
      throw new ControlError(400, 'ids are required')
    return ids as string[]
  }
  sim.routes.on('POST', '/control/customers/:number/read', ({ params, body }) => {
    network.answer(digits(params.number), idsOf(body), 'read')
    return { ok: true }
  })
  sim.routes.on('POST', '/control/customers/:number/retry', ({ params, body }) => {
    network.answer(digits(params.number), idsOf(body), 'retry')
    return { ok: true }
  })
  sim.routes.on('GET', '/control/customers/:number/received', ({ params }) =>
    network.received(digits(params.number)),
  )
  return network
}
