/**
 * Issue 20, defect 14 (inbound part): no blank quote. An attendant who replies quoting a message Balcão holds no
 * content for (here the "waiting for this message" row of a message that never decrypted) must not send the
 * customer an empty quoted bubble: Baileys would send `quotedMessage: {conversation: ''}`.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { PLACEHOLDER_BODIES } from '../../../src/server/modules/inbound/store'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { newCustomer, rowsByWid, sendRaw, settle } from './inbound'

let simulator: ScenarioSimulator
let balcao: Balcao | undefined

beforeAll(async () => {
  simulator = await startScenarioSimulator()
})
afterEach(async () => {
  await balcao?.stop()
  balcao = undefined
})
afterAll(() => simulator.stop())

const damage = (node: BinaryNode) => {
  for (const child of Array.isArray(node.content) ? node.content : []) {
    if (child.tag === 'enc' && child.content instanceof Uint8Array) {
      const bytes = Uint8Array.from(child.content)
      bytes[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0xff
      child.content = bytes
    }
  }
}

test('a reply quoting a message Balcão has no content for carries no blank quote', async () => {
  const b = await startBalcao(simulator)
  balcao = b
  const number = await simulator.newPhone({ refresh: false })
  await b.link(number)
  await b.h.deps.jobs.start(['outbound'])
  const ana = await newCustomer(simulator, '5511988880901', number)
  const hello = await ana.text('oi')
  expect(await settle(b, () => rowsByWid(b, [hello]).length === 1)).toBe(true)
  const lost = await sendRaw(simulator, ana.number, number, { conversation: 'não chegou' }, damage)
  await settle(b, () => rowsByWid(b, [lost])[0]?.body === PLACEHOLDER_BODIES.waiting)
  const row = b.h.deps.sqlite
    .query<{ id: number; ticketId: number }, [string]>(
      'SELECT id, ticket_id AS ticketId FROM messages WHERE wid = ?',
    )
    .get(lost)
  expect(row).toBeTruthy()

  const accepted = await b.admin.put(`/tickets/${row!.ticketId}`, { status: 'open' })
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
  const res = await b.admin.post(`/messages/${row!.ticketId}`, { body: 'Pode reenviar?', quotedMsg: row!.id })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const customer = simulator.running.customers.find(ana.number)!.customer
  const received = await settle(b, () => customer.received().some((e) => e.text === 'Pode reenviar?'), 8_000)
  expect(received).toBe(true)
  const entry = customer.received().find((e) => e.text === 'Pode reenviar?')!
  const info = customer.receivedMessage(entry.id)?.extendedTextMessage?.contextInfo
  const quoted = info?.quotedMessage
  // either no quote at all, or one with something to show; never an empty bubble
  if (info?.stanzaId) expect(JSON.stringify(quoted ?? {})).not.toBe(JSON.stringify({ conversation: '' }))
  expect(quoted?.conversation ?? 'absent').not.toBe('')
}, 30_000)
