/**
 * Issue 20, defect 3: a customer's retry receipt for a message Balcão sent is answered, even after Balcão
 * restarted (the content Baileys's `getMessage` needs is kept durably, not only in memory).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { messageRow, openConversation, untilValue } from './conversation'
import { type WiredCustomers, wireCustomers } from './customers'

let simulator: ScenarioSimulator
let wired: WiredCustomers
const running: Balcao[] = []

beforeAll(async () => {
  simulator = await startScenarioSimulator()
  wired = wireCustomers(simulator)
})
afterAll(async () => {
  for (const b of running) await b.stop()
  await simulator.stop()
})

test("the attendant's reply is resent on the customer's retry receipt after Balcão restarted", async () => {
  const first = await startBalcao(simulator)
  running.push(first)
  const number = await simulator.newPhone({ refresh: false })
  const connectionId = await first.link(number)
  const talk = await openConversation(first, wired, number, '5511988880301')
  const { customer, company } = talk

  const messageId = await talk.reply('Seu pedido saiu para entrega')
  const wid = await untilValue(first, () => messageRow(first, messageId).wid ?? undefined, 'the reply sent')
  const sent = await wired.relay((m) => m.out.id === wid)
  const read = await customer.receive(sent.out, company.companion.jid)
  expect(read.entries.map((e) => e.text)).toEqual(['Seu pedido saiu para entrega'])

  // The customer's phone loses its session with the companion, and Balcão is killed and started again.
  customer.primary.forgetSession(company.companion.jid)
  const database = first.kill()
  const second = await startBalcao(simulator, { database })
  running.push(second)
  await second.h.deps.channels.startAll(0)
  await second.connected(connectionId)

  // The phone cannot read the message any more: it asks for it again, with fresh keys.
  const before = wired.relayed.length
  wired.deliver(number, [
    {
      node: customer.retryReceipt({
        id: wid,
        t: wired.now(),
        messageT: wired.now(),
        count: 2,
        withKeys: true,
      }),
    },
  ])
  const resent = await wired.relay((m) => m.out.id === wid && wired.relayed.indexOf(m) >= before)
  const again = await customer.receive(resent.out, company.companion.jid)
  expect(again.failures).toEqual([])
  expect(
    customer.receivedMessage(wid)?.extendedTextMessage?.text ?? customer.receivedMessage(wid)?.conversation,
  ).toBe('Seu pedido saiu para entrega')
}, 30_000)
