/**
 * Issue 20, defect 8: number checks match WhatsApp's canonical answer. A Brazilian customer whose account was
 * registered before the ninth digit keeps the 8-digit JID; asked for the 9-digit number, WhatsApp's usync answers
 * that 8-digit JID. The send API (the same check path as campaigns and contact lists: the outbound door's
 * `check`, i.e. the session's `checkNumbers`) must find the customer, send to the JID WhatsApp returned, and keep
 * the canonical number on the contact. Mexico (521) and Argentina (549) answer the same way.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { doorOf } from '../../../src/server/modules/outbound/door'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { newCustomer, settle } from './inbound'

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

async function linked() {
  const b = await startBalcao(simulator)
  balcao = b
  const number = await simulator.newPhone({ refresh: false })
  const id = await b.link(number)
  await b.h.deps.jobs.start(['outbound'])
  return { b, number, id }
}

test('the send API reaches a Brazilian customer registered under the 8-digit form when given the 9-digit number', async () => {
  const { b, number, id } = await linked()
  const registered = '551188880801' // 55 11 8888-0801: the account's JID has no ninth digit
  await newCustomer(simulator, registered, number, 'Bia')
  const token = b.h.deps.sqlite
    .query<{ token: string }, [number]>('SELECT token FROM whatsapps WHERE id = ?')
    .get(id)!.token
  const res = await b.h.app.request('/api/messages/send', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ number: '5511988880801', body: 'Seu pedido chegou' }),
  })
  const body = (await res.json()) as { contactId?: number; error?: string }
  expect(res.status, JSON.stringify(body)).toBe(200)
  const customer = simulator.running.customers.find(registered)!.customer
  expect(await settle(b, () => customer.received().some((e) => e.text === 'Seu pedido chegou'))).toBe(true)
  const contact = b.h.deps.sqlite
    .query<{ number: string }, [number]>('SELECT number FROM contacts WHERE id = ?')
    .get(body.contactId!)
  expect(contact?.number).toBe(registered)
}, 30_000)

test('number checks answer the JID WhatsApp keeps: Brazil 8/9 digits, Mexico 521, Argentina 549', async () => {
  const { b, number, id } = await linked()
  await newCustomer(simulator, '551187770802', number, 'Caio') // BR, 8-digit account
  await newCustomer(simulator, '5215512345678', number, 'Diego') // MX mobile JID with the 1
  await newCustomer(simulator, '5491123456789', number, 'Eva') // AR mobile JID with the 9
  const door = doorOf(b.h.deps, id)
  const answers = await door.turn('conversation', (turn) =>
    turn.check(['5511987770802', '525512345678', '541123456789', '5511900000000']),
  )
  expect(answers).toEqual([
    { phone: '5511987770802', exists: true, jid: '551187770802@s.whatsapp.net' },
    { phone: '525512345678', exists: true, jid: '5215512345678@s.whatsapp.net' },
    { phone: '541123456789', exists: true, jid: '5491123456789@s.whatsapp.net' },
    { phone: '5511900000000', exists: false },
  ])
}, 30_000)
