/**
 * Issue 20, defect 7: replies go where the chat is. A customer who writes by phone number (WhatsApp tells the
 * companion their LID too, in `sender_lid`) gets the attendant's reply addressed to that phone number, so the
 * company's phone and WhatsApp Web show one chat, not a second one under the LID. A customer WhatsApp addresses
 * by LID only gets the reply by LID. Asserted on the stanza Balcão's Baileys sends (`to`) and on what the
 * customer's device decrypted (`from`: the company in the addressing the stanza used).
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { newCustomer, rowsByWid, settle } from './inbound'

let simulator: ScenarioSimulator
let balcao: Balcao | undefined
const sent: BinaryNode[] = []

beforeAll(async () => {
  simulator = await startScenarioSimulator()
  simulator.running.sim.onStanzaKind('message', ({ node }) => {
    sent.push(node)
    return undefined
  })
})
afterEach(async () => {
  await balcao?.stop()
  balcao = undefined
})
afterAll(() => simulator.stop())

/** The customer writes, the attendant accepts the ticket and replies `reply`: answers the stanza sent. */
async function customerWritesAttendantReplies(customerNumber: string, lidOnly: boolean, reply: string) {
  const b = await startBalcao(simulator)
  balcao = b
  const number = await simulator.newPhone({ refresh: false })
  await b.link(number)
  await b.h.deps.jobs.start(['outbound'])
  const customer = await newCustomer(simulator, customerNumber, number, 'Ana', lidOnly)
  const hello = await customer.text('oi, tudo bem?')
  expect(await settle(b, () => rowsByWid(b, [hello]).length === 1)).toBe(true)
  const ticketId = rowsByWid(b, [hello])[0]!.ticketId
  const accepted = await b.admin.put(`/tickets/${ticketId}`, { status: 'open' })
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200)
  const res = await b.admin.post(`/messages/${ticketId}`, { body: reply })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  const registered = simulator.running.customers.find(customer.number)!.customer
  expect(await settle(b, () => registered.received().some((e) => e.text === reply))).toBe(true)
  const entry = registered.received().find((e) => e.text === reply)!
  const stanza = sent.find((node) => node.attrs.id === entry.id)
  const contact = b.h.deps.sqlite
    .query<{ number: string | null; lid: string | null }, [number]>(
      'SELECT c.number, c.lid FROM contacts c JOIN tickets t ON t.contact_id = c.id WHERE t.id = ?',
    )
    .get(ticketId)
  return { customer, entry, stanza, contact, phone: simulator.running.sim.requirePhone(number) }
}

test('a customer writing by phone number gets the reply addressed to that number, not to their LID', async () => {
  const { customer, entry, stanza, phone, contact } = await customerWritesAttendantReplies(
    '5511988880701',
    false,
    'Olá! Como posso ajudar?',
  )
  // WhatsApp named the LID too (`sender_lid`): Balcão knows both, and must still answer by number
  expect(contact?.lid).toBeTruthy()
  expect(stanza?.attrs.to).toBe(`${customer.number}@s.whatsapp.net`)
  // the customer's phone saw the company by its number: the same chat it wrote in
  expect(entry.from.split('@')[1]).toBe('s.whatsapp.net')
  expect(entry.from.split(/[:@]/)[0]).toBe(phone.number)
}, 30_000)

test('a customer WhatsApp addresses by LID gets the reply by LID, though their number is known', async () => {
  const { customer, entry, stanza, phone, contact } = await customerWritesAttendantReplies(
    '5511988880702',
    true,
    'Olá pelo LID',
  )
  // WhatsApp named the number too (`sender_pn`): the chat's addressing, not the lack of a number, decides
  expect(contact?.number).toBe(customer.number)
  expect(stanza?.attrs.to).toBe(customer.lid.includes('@') ? customer.lid : `${customer.lid}@lid`)
  expect(entry.from.split('@')[1]).toBe('lid')
  expect(entry.from.split(/[:@]/)[0]).toBe(phone.lidUser)
}, 30_000)
