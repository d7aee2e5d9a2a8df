/**
 * Issue 20, defect 6: history sync. The contacts and LID/phone pairs of the history the phone sends reach the
 * contacts module: a customer first known only by LID (a LID-addressed message without her number) gains the
 * number, and her next message by number lands in the same contact and ticket; a customer known only from the
 * history who writes by LID gets one contact, with her number. No numberless duplicates.
 *
 * The history arrives as WhatsApp sends it after linking, and the phone's app state answers a little slowly (as
 * it does: several round trips): Baileys handles the notification inside its event buffer and flushes only when
 * its app-state sync is done, so the `messaging-history.set` it emits is consolidated by the buffer, which keeps
 * chats, contacts and messages but drops `lidPnMappings` (Utils/event-buffer.js `consolidateEvents`). The pairs
 * must then be read from the history's contacts.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import {
  contactsOf,
  newCustomer,
  phoneSendsHistory,
  rowsByWid,
  sendRaw,
  settle,
  watchReceipts,
} from './inbound'

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

/** The phone's app-state answers (w:sync:app:state) take `ms` from now on. */
function slowAppState(ms: number) {
  const { sim } = simulator.running
  const answer = sim.iq.find({ tag: 'iq', attrs: { xmlns: 'w:sync:app:state', type: 'set' }, content: [] })
  if (!answer) throw new Error('no app-state handler')
  sim.iq.on(
    'w:sync:app:state',
    'set',
    async (context) => {
      await Bun.sleep(ms)
      return answer(context)
    },
    'sync',
  )
}

const digits = (jid: string) => jid.split('@')[0]?.split(':')[0] ?? ''
/** WhatsApp leaves `sender_pn` out of a LID-addressed stanza when it does not share the number. */
const withoutNumber = (node: BinaryNode) => {
  delete node.attrs.sender_pn
}

test('history pairs reach the contacts: a LID-only customer gains her number, no numberless duplicates', async () => {
  const b = await startBalcao(simulator)
  balcao = b
  const number = await simulator.newPhone({ refresh: false })
  await b.link(number)
  const receipts = watchReceipts(simulator)
  const bia = await newCustomer(simulator, '5511988880801', number, 'Bia', true)
  const carla = await newCustomer(simulator, '5511988880802', number, 'Carla', true)

  const first = await sendRaw(
    simulator,
    bia.number,
    number,
    { conversation: 'oi, sou a Bia' },
    withoutNumber,
    'lid',
  )
  expect(await settle(b, () => rowsByWid(b, [first]).length === 1)).toBe(true)
  expect(contactsOf(b)).toMatchObject([{ number: null, lid: digits(bia.lid) }])

  slowAppState(300)
  const history = await phoneSendsHistory(simulator, number, {
    contacts: [
      { id: bia.lid, name: 'Bia', pn: bia.jid },
      { id: carla.jid, name: 'Carla', lid: carla.lid },
    ],
  })
  await receipts.all([history])
  await settle(b, () => contactsOf(b).some((c) => c.lid === digits(bia.lid) && c.number === bia.number))
  expect(contactsOf(b)).toMatchObject([{ number: bia.number, lid: digits(bia.lid) }])

  const again = await bia.text('sou eu de novo')
  await settle(b, () => rowsByWid(b, [again]).length === 1)
  const rows = rowsByWid(b, [first, again])
  expect(rows.map((r) => r.wid)).toEqual([first, again])
  expect(new Set(rows.map((r) => r.ticketId)).size).toBe(1)

  // Carla, known from the history only, writes by LID without her number: one contact, with the number.
  const fromCarla = await sendRaw(
    simulator,
    carla.number,
    number,
    { conversation: 'é a Carla' },
    withoutNumber,
    'lid',
  )
  await settle(b, () => rowsByWid(b, [fromCarla]).length === 1)
  expect(contactsOf(b).map((c) => [c.number, c.lid])).toEqual([
    [bia.number, digits(bia.lid)],
    [carla.number, digits(carla.lid)],
  ])
}, 30_000)
