/**
 * Simulated customers for scenarios, at the Signal level, wired into the simulator as
 * `signal/through-the-simulator.test.ts` does: usync and key fetches answered from these customers' devices
 * (replacing the core's answers: a scenario file uses these customers, not `/control/customers`), and every
 * message Balcão's companion relays recorded for the customers to decrypt when the scenario says. Why not the
 * core's customers (customers.ts): a scenario needs levers the control routes do not have (error acks, held
 * acks, a connection cut mid-send, a device that forgets its session) and to see a resend decrypted, while the
 * core's received log lists an id once (a resend of a message already read does not show).
 */
import type { BinaryNode } from '@whiskeysockets/baileys'
import type { CompanionConnection } from '../server'
import {
  AccountDirectory,
  CustomerDevice,
  keyFetchResult,
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
  /**
   * The server's acks of messages to the chats `match` accepts: turned into error acks (`error`), or held
   * (`error` null). The simulator's core acks every message a companion sends (customers.ts); these levers
   * rewrite that ack on its way out, on every connection that logs in.
   */
  const rejections: { match: (to: string) => boolean; error: number | null }[] = []
  const held: { send: (node: BinaryNode) => void; node: BinaryNode }[] = []
  sim.onLogin.push((connection: CompanionConnection) => {
    const send = connection.send.bind(connection)
    connection.send = (node: BinaryNode) => {
      const rule =
        node.tag === 'ack' && node.attrs.class === 'message' && !node.attrs.error
          ? rejections.find((r) => r.match(node.attrs.from ?? ''))
          : undefined
      if (!rule) return send(node)
      if (rule.error === null) held.push({ send, node })
      else send({ ...node, attrs: { ...node.attrs, error: String(rule.error) } })
    }
  })
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
  sim.onStanzaKind('message', ({ node }) => {
    const out = parseOutboundMessage(node)
    const entry = { node, out }
    relayed.push(entry)
    for (const waiter of [...waiters]) {
      if (!waiter.match(entry)) continue
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve(entry)
    }
    return undefined
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
     * From now on the server answers messages to the chats `match` accepts with an error ack carrying `error`,
     * or (null) holds their ack. Answers the undo.
     */
    reject(match: (to: string) => boolean, error: number | null) {
      const rule = { match, error }
      rejections.push(rule)
      return () => {
        rejections.splice(rejections.indexOf(rule), 1)
      }
    },
    /** Sends the server's (normal) ack of every message whose ack was held. */
    releaseAcks() {
      for (const { send, node } of held.splice(0)) send(node)
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
