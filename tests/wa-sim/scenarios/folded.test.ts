/**
 * Issue 20, defect 5: folded events. While Baileys buffers (the offline burst on reconnect, until
 * `<ib><offline>`), a reaction, an edit or a revoke of a message of the same burst is not emitted as its own
 * event: it is folded into that message's upsert (`Utils/event-buffer.js`: reactions into `message.reactions`,
 * an edit or a revoke assigned over `message`). Balcão must store each message once, in its final state.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { newCustomer, phoneOffline, reactionsOf, rowsByWid, settle, watchReceipts } from './inbound'

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

test('reactions, edits and revokes folded into an offline burst: each message stored once, in its final state', async () => {
  const b = await startBalcao(simulator)
  balcao = b
  // No history sync after the link (the phone's flag): Baileys stays in AwaitingInitialSync, as this
  // scenario was written and proven against (with a history it goes online after its app-state sync).
  const number = await simulator.newPhone({ refresh: false, history: false })
  const id = await b.link(number)
  const ana = await newCustomer(simulator, '5511988880501', number)
  const receipts = watchReceipts(simulator)

  const earlier = await ana.text('pedido de ontem')
  expect(await settle(b, () => rowsByWid(b, [earlier]).length === 1)).toBe(true)

  const phone = await phoneOffline(simulator, b, number, id)
  const gone = await ana.text('vou cancelar')
  const kept = await ana.text('quero 2 pizzas')
  const burst = [
    gone,
    await ana.react(gone, '👍'),
    await ana.edit(gone, 'vou cancelar tudo'),
    await ana.revoke(gone),
    kept,
    await ana.react(kept, '❤️'),
    await ana.edit(kept, 'quero 3 pizzas'),
    await ana.revoke(earlier),
  ]
  await phone.online()
  // Baileys holds the burst in its buffer (AwaitingInitialSync) until a live stanza or its 20 s timeout: once
  // it acknowledged every stanza of the burst, a live message from the customer flushes it.
  await receipts.all(burst)
  const live = await ana.text('alguém aí?')

  const messages = [earlier, gone, kept, live]
  const final = () => {
    const rows = rowsByWid(b, messages)
    return (
      rows.length === 4 &&
      rows.every((r) => r.wid !== kept || (r.body === 'quero 3 pizzas' && r.isEdited === 1)) &&
      rows.every((r) => r.wid === kept || r.wid === live || r.isDeleted === 1) &&
      reactionsOf(b, kept).length === 1 &&
      reactionsOf(b, gone).length === 1
    )
  }
  await settle(b, final)
  // Counted by id: each message once; the reactions, edits and revokes are not messages of their own.
  const rows = rowsByWid(b, messages)
  expect(rows.map((r) => r.wid).sort()).toEqual([...messages].sort())
  const all = b.h.deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM messages').get()
  expect(all?.n).toBe(4)
  const byWid = new Map(rows.map((r) => [r.wid, r]))
  expect(byWid.get(earlier)).toMatchObject({ body: 'pedido de ontem', isDeleted: 1 })
  expect(byWid.get(gone)).toMatchObject({ isDeleted: 1 })
  expect(byWid.get(kept)).toMatchObject({ body: 'quero 3 pizzas', isEdited: 1, isDeleted: 0 })
  expect(reactionsOf(b, kept)).toEqual(['❤️'])
  expect(reactionsOf(b, gone)).toEqual(['👍'])
  // All in one ticket (nothing misfiled).
  expect(new Set(rows.map((r) => r.ticketId)).size).toBe(1)
}, 30_000)
