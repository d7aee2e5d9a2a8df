/**
 * Issue 20, defect 3, through the simulator's control API (`/control/customers`): a customer asks for a message
 * again (`POST /control/customers/{n}/retry`) after Balcão restarted, and Balcão's Baileys resends it from what
 * it kept (before the fix nothing answered: `getMessage` only knew the messages of the process that sent them).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { parseOutboundMessage } from '../signal/index.ts'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { messageRow, untilValue } from './conversation'

let simulator: ScenarioSimulator
const running: Balcao[] = []
/** Every message a companion relayed: its id, in order. */
const relayed: string[] = []

beforeAll(async () => {
  simulator = await startScenarioSimulator()
  simulator.running.sim.onStanzaKind('message', ({ node }: { node: BinaryNode }) => {
    relayed.push(parseOutboundMessage(node).id)
    return undefined
  })
})
afterAll(async () => {
  for (const b of running) await b.stop()
  await simulator.stop()
})

type Received = { id: string; text?: string }

test('a retry asked through the control API after a restart gets the reply resent', async () => {
  const first = await startBalcao(simulator)
  running.push(first)
  const number = await simulator.newPhone({ refresh: false })
  const connectionId = await first.link(number)
  const customer = '5511988880601'
  await simulator.control('/control/customers', { number: customer, name: 'Bia' })
  const { id: helloId } = await simulator.control<{ id: string }>(`/control/customers/${customer}/send`, {
    to: number,
    text: 'Oi, tem horário amanhã?',
  })
  const ticketId = await untilValue(
    first,
    () =>
      first.h.deps.sqlite
        .query<{ ticketId: number }, [string]>('SELECT ticket_id AS ticketId FROM messages WHERE wid = ?')
        .get(helloId)?.ticketId,
    'the customer message stored',
  )
  expect((await first.admin.put(`/tickets/${ticketId}`, { status: 'open' })).status).toBe(200)
  const reply = await first.admin.post(`/messages/${ticketId}`, { body: 'Temos às 10h' })
  const messageId = (reply.body as { message: { id: number } }).message.id
  const wid = await untilValue(first, () => messageRow(first, messageId).wid ?? undefined, 'the reply sent')
  const received = () => simulator.control<Received[]>(`/control/customers/${customer}/received`)
  // The customer's phone reads it (its delivery receipt may fold into Baileys's own upsert: defect 5, not here).
  for (let i = 0; i < 400 && !(await received()).some((r) => r.id === wid); i++) await Bun.sleep(20)
  expect((await received()).map((r) => [r.id, r.text])).toContainEqual([wid, 'Temos às 10h'])

  const database = first.kill()
  const second = await startBalcao(simulator, { database })
  running.push(second)
  await second.h.deps.channels.startAll(0)
  await second.connected(connectionId)

  const before = relayed.length
  await simulator.control(`/control/customers/${customer}/retry`, { ids: [wid] })
  await untilValue(second, () => (relayed.slice(before).includes(wid) ? true : undefined), 'the reply resent')
}, 30_000)
