/**
 * Helpers of the inbound scenarios (issue 20, defects 4, 5, 13): simulated customers driven through the
 * simulator's control API, and what Balcão stored, read from its database by WhatsApp id (wid), so a scenario
 * counts messages by id: none lost, none doubled, none misfiled.
 */
import { type BinaryNode, proto } from '@whiskeysockets/baileys'
import type { HistoryBlobInput } from '../media/index.ts'
import type { CustomerDevice } from '../signal/customer-device.ts'
import { inboundMessageNode } from '../signal/message-stanzas.ts'
import { storedKeysSource } from '../signal/prekey-bundle.ts'
import type { Balcao, ScenarioSimulator } from './balcao'

export type StoredRow = {
  wid: string
  body: string
  mediaType: string
  isDeleted: number
  isEdited: number
  fromMe: number
  ticketId: number
  remoteJid: string | null
  providerData: string | null
}

/** A customer of the simulator (a real Signal client) writing to the company phone `to`. */
export async function newCustomer(
  simulator: ScenarioSimulator,
  number: string,
  to: string,
  name = 'Ana',
  lidOnly = false,
) {
  const created = await simulator.control<{ jid: string; lid: string }>('/control/customers', {
    number,
    name,
    lidOnly,
  })
  const send = async (body: Record<string, unknown>): Promise<string> =>
    (await simulator.control<{ id: string }>(`/control/customers/${number}/send`, { to, ...body })).id
  return {
    number,
    jid: created.jid,
    lid: created.lid,
    send,
    text: (text: string) => send({ text }),
    react: (id: string, emoji: string) => send({ reaction: { id, emoji } }),
    edit: (id: string, text: string) => send({ edit: { id, text } }),
    revoke: (id: string) => send({ revoke: { id } }),
  }
}

/** Every message row Balcão holds with one of these wids (one row per wid when nothing doubled). */
export function rowsByWid(b: Balcao, wids: string[]): StoredRow[] {
  if (!wids.length) return []
  return b.h.deps.sqlite
    .query<StoredRow, string[]>(
      `SELECT wid, body, media_type AS mediaType, is_deleted AS isDeleted, is_edited AS isEdited,
              from_me AS fromMe, ticket_id AS ticketId, remote_jid AS remoteJid, provider_data AS providerData
         FROM messages WHERE wid IN (${wids.map(() => '?').join(',')}) ORDER BY created_at, id`,
    )
    .all(...wids)
}

/** Every wid of the messages Balcão stored, in the order an attendant sees them (time, then arrival). */
export function storedWids(b: Balcao): string[] {
  return b.h.deps.sqlite
    .query<{ wid: string }, []>('SELECT wid FROM messages WHERE wid IS NOT NULL ORDER BY created_at, id')
    .all()
    .map((r) => r.wid)
}

/** The reactions shown under the message with this wid: `sender emoji`. */
export function reactionsOf(b: Balcao, wid: string): string[] {
  return b.h.deps.sqlite
    .query<{ emoji: string }, [string]>(
      `SELECT r.emoji FROM message_reactions r JOIN messages m ON m.id = r.message_id WHERE m.wid = ?
        ORDER BY r.id`,
    )
    .all(wid)
    .map((r) => r.emoji)
}

/**
 * Waits until `done()` holds, re-checked on every live event Balcão publishes and every 25 ms (side work that
 * publishes nothing); answers false after `ms` so the scenario's own expectations report what is missing.
 */
export function settle(b: Balcao, done: () => boolean, ms = 8_000): Promise<boolean> {
  return new Promise((resolve) => {
    let finished = false
    const finish = (value: boolean) => {
      if (finished) return
      finished = true
      clearInterval(poll)
      clearTimeout(timer)
      untap()
      resolve(value)
    }
    const check = () => {
      if (done()) finish(true)
    }
    const untap = b.h.deps.hub.tap(check)
    const poll = setInterval(check, 25)
    const timer = setTimeout(() => finish(false), ms)
    check()
  })
}

/**
 * The company phone's server goes away (its companion's socket is closed and deliveries queue), so what
 * customers send meanwhile arrives as one offline burst when `online` lets Balcão's session back in.
 */
export async function phoneOffline(simulator: ScenarioSimulator, b: Balcao, number: string, id: number) {
  await simulator.control(`/control/phones/${number}/offline`, {})
  await b.until(id, (c) => c.retries >= 1, 'the session to schedule its first retry')
  return {
    /** The phone's server is back; the session's pending retry runs now (Balcão's clock moved to it). */
    async online() {
      await simulator.control(`/control/phones/${number}/online`, {})
      for (let attempt = 0; attempt < 5; attempt++) {
        const next = b.clock.delays()[0]
        if (next !== undefined) await b.clock.tick(next)
        const c = await b.until(id, (c) => c.status === 'CONNECTED' || b.clock.delays().length > 0, 'a retry')
        if (c.status === 'CONNECTED') return
      }
      await b.connected(id)
    },
  }
}

/**
 * The receipts the companion sent (by message id), recorded from now on: Baileys acknowledges each message
 * stanza it decrypted with a receipt (`inactive` for offline ones) before it emits anything, so a scenario
 * knows Baileys took a burst in while its events may still sit in its buffer.
 */
export function watchReceipts(simulator: ScenarioSimulator) {
  const seen = new Set<string>()
  simulator.running.sim.onStanzaKind('receipt', ({ node }) => {
    const ids = [node.attrs.id]
    const list = Array.isArray(node.content) ? node.content.find((child) => child.tag === 'list') : undefined
    if (list && Array.isArray(list.content)) for (const item of list.content) ids.push(item.attrs.id)
    for (const id of ids) if (id) seen.add(id)
    return undefined
  })
  return {
    /** Resolves once the companion acknowledged every id (rejects after `ms`). */
    async all(ids: string[], ms = 8_000) {
      const started = Date.now()
      while (!ids.every((id) => seen.has(id))) {
        if (Date.now() - started > ms)
          throw new Error(`receipts missing for ${ids.filter((id) => !seen.has(id)).join(', ')}`)
        await Bun.sleep(10)
      }
    },
  }
}

/**
 * A customer's message built by hand (any `proto.IMessage`, e.g. a kind the control API does not offer), sent
 * through the same Signal path as the control API; `reshape` may change each stanza before the server delivers
 * it (a broadcast list's addressing, a ciphertext damaged in transit). The customer must have written once
 * through the control API (so it knows the company's two names). Answers the message id.
 */
export async function sendRaw(
  simulator: ScenarioSimulator,
  customerNumber: string,
  company: string,
  message: proto.IMessage,
  reshape?: (node: BinaryNode) => void,
  addressing: 'pn' | 'lid' = 'pn',
): Promise<string> {
  const { sim, customers } = simulator.running
  const customer = customers.find(customerNumber)?.customer
  const companion = sim.phones.latestCompanion(company)
  if (!customer || !companion) throw new Error('no such customer or no linked companion')
  const out = await customer.send(
    [{ jid: companion.jid, keys: storedKeysSource(() => companion.bundle) }],
    message,
  )
  for (const { node } of customer.stanzasFor(out, { t: Math.floor(Date.now() / 1000), addressing })) {
    reshape?.(node)
    sim.sendToCompanion(company, node)
  }
  return out.id
}

/**
 * Customers answer the companion's retry receipts as a phone does: the message is encrypted again (with a
 * fresh session when the receipt carries keys) and resent under the same id. Answers the ids resent.
 * (The simulator's customers do not answer retries of their own yet.)
 */
export function answerRetries(simulator: ScenarioSimulator, company: string, customerNumber: string) {
  const { sim, customers } = simulator.running
  const resent: string[] = []
  sim.onStanzaKind('receipt', ({ node }) => {
    if (node.attrs.type !== 'retry') return undefined
    const customer = customers.find(customerNumber)?.customer
    const companion = sim.phones.latestCompanion(company)
    if (!customer || !companion) return undefined
    void customer.resendFor(node, companion.jid).then((out) => {
      resent.push(out.id)
      for (const { node: stanza } of customer.stanzasFor(out, { t: Math.floor(Date.now() / 1000) }))
        sim.sendToCompanion(company, stanza)
    })
    return undefined
  })
  return resent
}

/**
 * The company's own phone sends a history sync (as after linking): a chunk on the media host and the
 * notification as a peer message from device 0, the Signal device the simulator's key fetches hand out for it.
 */
export async function phoneSendsHistory(
  simulator: ScenarioSimulator,
  company: string,
  input: HistoryBlobInput,
) {
  const { sim, customers, media } = simulator.running
  const companion = sim.phones.latestCompanion(company)
  if (!companion) throw new Error('no linked companion')
  // the network's own device for the phone (private there: one identity for the phone across the simulator)
  const phone = (customers as unknown as { phoneDevice(number: string): CustomerDevice }).phoneDevice(company)
  const historySyncNotification = await media.historyBlob(input)
  const enc = await phone.encryptMessageTo(
    companion.jid,
    storedKeysSource(() => companion.bundle),
    {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
        historySyncNotification,
      },
    },
  )
  const id = `HIST${Date.now()}`
  sim.sendToCompanion(
    company,
    inboundMessageNode({
      id,
      from: phone.phoneUserJid,
      t: Math.floor(Date.now() / 1000),
      category: 'peer',
      enc: [enc],
    }),
  )
  return id
}

export type ContactRow = { id: number; number: string | null; lid: string | null; name: string }

/** The company's contacts (not groups). */
export function contactsOf(b: Balcao): ContactRow[] {
  return b.h.deps.sqlite
    .query<ContactRow, []>('SELECT id, number, lid, name FROM contacts WHERE is_group = 0 ORDER BY id')
    .all()
}
