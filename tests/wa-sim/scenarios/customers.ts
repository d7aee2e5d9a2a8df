/**
 * Simulated customers for scenarios, wired into the simulator the way `signal/through-the-simulator.test.ts`
 * does: usync and key fetches answered from the customers' devices, and every message Balcão's companion
 * relays offered to the customers, who decrypt what is theirs. A scenario can also make the server answer a
 * relayed message with an error ack (WhatsApp rejecting the send) instead of the normal ack.
 * (sim/core adds control routes for customers; this helper is what the scenarios use until they are merged.)
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { CompanionConnection } from '../server'
import {
  AccountDirectory,
  CustomerDevice,
  keyFetchResult,
  messageAckNode,
  type OutboundMessage,
  parseKeyFetch,
  parseOutboundMessage,
  SimulatedCustomer,
  storedKeysSource,
  usyncResultNode,
} from '../signal/index.ts'
import type { ScenarioSimulator } from './balcao'

const now = () => Math.floor(Date.now() / 1000)

export type RelayedMessage = { node: BinaryNode; out: OutboundMessage }

export function wireCustomers(simulator: ScenarioSimulator) {
  const { sim } = simulator.running
  const directory = new AccountDirectory()
  const devices: CustomerDevice[] = []
  const relayed: RelayedMessage[] = []
  const waiters: { match: (m: RelayedMessage) => boolean; resolve: (m: RelayedMessage) => void }[] = []
  /** What the server answers with an error ack (its code), or holds without an ack (`error` null). */
  const rejections: { match: (out: OutboundMessage) => boolean; error: number | null }[] = []
  const held: { connection: CompanionConnection; out: OutboundMessage }[] = []
  /** Usync queries that cut the companion's connection instead of being answered. */
  let cutOnUsync: ((node: BinaryNode) => boolean) | undefined

  sim.iq.on('usync', 'get', ({ connection, node }) => {
    if (cutOnUsync?.(node)) {
      cutOnUsync = undefined
      connection.close()
      return undefined
    }
    return usyncResultNode(node, directory, { t: now() }).content as BinaryNode[]
  })
  sim.iq.on(
    'encrypt',
    'get',
    ({ node }) => {
      const users = parseKeyFetch(node).flatMap(({ jid }) => {
        const [user = '', server] = jid.split('@')
        const [name, device = '0'] = user.split(':')
        const found =
          server && devices.find((d) => (d.phone === name || d.lid === name) && d.device === Number(device))
        return found ? [found.bundleNode(jid)] : []
      })
      return keyFetchResult(node, users).content as BinaryNode[]
    },
    'key',
  )
  sim.onStanzaKind('message', ({ connection, node }) => {
    const out = parseOutboundMessage(node)
    const entry = { node, out }
    relayed.push(entry)
    for (const waiter of [...waiters]) {
      if (!waiter.match(entry)) continue
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve(entry)
    }
    const rejection = rejections.find((r) => r.match(out))
    if (!rejection) return undefined
    if (rejection.error === null) held.push({ connection, out })
    else connection.send(messageAckNode(out, { t: now(), error: rejection.error }))
    return 'acked'
  })

  /** The next message the companion relays that `match` accepts (already relayed ones count). */
  const relay = (match: (m: RelayedMessage) => boolean, ms = 8_000) =>
    new Promise<RelayedMessage>((resolve, reject) => {
      const seen = relayed.find(match)
      if (seen) return resolve(seen)
      const timer = setTimeout(() => reject(new Error('no such message relayed')), ms)
      waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer)
          resolve(m)
        },
      })
    })

  return {
    directory,
    relayed,
    relay,
    /**
     * From now on the server answers messages `match` accepts with an error ack carrying `error`, or (null)
     * holds their ack. Answers the undo.
     */
    reject(match: (out: OutboundMessage) => boolean, error: number | null) {
      const rule = { match, error }
      rejections.push(rule)
      return () => {
        rejections.splice(rejections.indexOf(rule), 1)
      }
    },
    /** Sends the server's (normal) ack of every message whose ack was held. */
    releaseAcks() {
      for (const { connection, out } of held.splice(0)) connection.send(messageAckNode(out, { t: now() }))
    },
    /** The next usync query `match` accepts cuts the companion's connection instead of being answered. */
    cutOnNextUsync(match: (node: BinaryNode) => boolean = () => true) {
      cutOnUsync = match
    },
    /**
     * The company behind a linked phone: its own phone as a Signal device (Baileys fans every message out to
     * it) and its companion, once the companion uploaded its pre-keys.
     */
    async company(number: string) {
      const deadline = Date.now() + 8_000
      let companion = sim.phones.latestCompanion(number)
      while (!companion?.bundle.preKeys.length) {
        if (Date.now() > deadline) throw new Error(`${number}: no companion with pre-keys`)
        await Bun.sleep(10) // the pre-key upload is Baileys's own, right after login: no event to await
        companion = sim.phones.latestCompanion(number)
      }
      const linked = companion
      const lidUser = sim.requirePhone(number).lidUser
      devices.push(new CustomerDevice({ phone: number, lid: lidUser, device: 0 }))
      directory.add({ phone: number, lid: lidUser, devices: [0, linked.device] })
      return {
        number,
        lidUser,
        get companion() {
          return sim.phones.latestCompanion(number) ?? linked
        },
        keys: storedKeysSource(() => (sim.phones.latestCompanion(number) ?? linked).bundle),
      }
    },
    /** A customer who knows the company by number and by LID. */
    customer(company: { number: string; lidUser: string }, phone: string, name = 'Ana') {
      const customer = new SimulatedCustomer({ phone, name })
      customer.knowPeer(`${company.number}@s.whatsapp.net`, `${company.lidUser}@lid`)
      devices.push(...customer.devices)
      directory.add(customer.usyncAccount())
      return customer
    },
    /** Delivers what a customer sent to the company's companion (queued by the simulator while it is away). */
    deliver(number: string, nodes: { node: BinaryNode }[]) {
      for (const { node } of nodes) sim.sendToCompanion(number, node)
    },
    now,
  }
}

export type WiredCustomers = ReturnType<typeof wireCustomers>
