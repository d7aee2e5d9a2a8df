/**
 * Issue 20, defect 4: shutdown drops what Baileys already acknowledged. A burst of messages queued while the
 * phone's server was away arrives on reconnect; Baileys decrypts each, acknowledges it to WhatsApp (so WhatsApp
 * never sends it again) and holds the events in its buffer until the burst ends. A graceful stop (a deploy) then
 * must still store every one of them: after the restart each message the customer sent is stored exactly once,
 * in order, with the reactions, edits and revokes the burst carried for them (folded by Baileys's buffer). Counted by id: the ids the simulator answered for each send against the wids Balcão stored.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import {
  newCustomer,
  phoneOffline,
  reactionsOf,
  rowsByWid,
  settle,
  storedWids,
  watchReceipts,
} from './inbound'

const BURST = 1_000

let simulator: ScenarioSimulator
const running: Balcao[] = []
const files: string[] = []

beforeAll(async () => {
  simulator = await startScenarioSimulator()
})
afterEach(async () => {
  for (const b of running.splice(0)) await b.stop()
  for (const file of files.splice(0))
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
})
afterAll(() => simulator.stop())

test(`a graceful stop during a ${BURST}-message offline burst, then a restart: every message stored once, in order, in its final state`, async () => {
  const first = await startBalcao(simulator)
  running.push(first)
  const number = await simulator.newPhone({ refresh: false })
  const id = await first.link(number)
  const ana = await newCustomer(simulator, '5511988880701', number)
  const receipts = watchReceipts(simulator)
  const sent = [await ana.text('bom dia')]
  expect(await settle(first, () => rowsByWid(first, sent).length === 1)).toBe(true)

  const phone = await phoneOffline(simulator, first, number, id)
  const acted: string[] = []
  const edited = new Map<string, string>()
  const revoked = new Set<string>()
  const reacted = new Set<string>()
  for (let i = 1; i <= BURST; i++) {
    const id = await ana.text(`mensagem ${i}`)
    sent.push(id)
    // every 10th message is reacted to, edited or revoked within the same burst (Baileys folds them)
    if (i % 10 === 1) {
      acted.push(await ana.react(id, '👍'))
      reacted.add(id)
    }
    if (i % 10 === 2) {
      acted.push(await ana.edit(id, `mensagem ${i} (corrigida)`))
      edited.set(id, `mensagem ${i} (corrigida)`)
    }
    if (i % 10 === 3) {
      acted.push(await ana.revoke(id))
      revoked.add(id)
    }
  }
  await phone.online()
  // Baileys took every stanza in and acknowledged it: WhatsApp will not deliver any of them again.
  await receipts.all([...sent.slice(1), ...acted])
  await first.stop()
  const database = join(tmpdir(), `balcao-shutdown-${crypto.randomUUID()}.db`)
  first.h.deps.sqlite.run('VACUUM INTO ?', [database])
  files.push(database)

  const second = await startBalcao(simulator, { database })
  running.push(second)
  await second.h.deps.channels.startAll(0)
  await second.connected(id)
  const after = await ana.text('ainda estão aí?')
  sent.push(after)
  await settle(second, () => rowsByWid(second, [after]).length === 1)

  const stored = storedWids(second)
  const missing = sent.filter((wid) => !stored.includes(wid))
  const doubled = stored.filter((wid, i) => stored.indexOf(wid) !== i)
  expect({ missing: missing.length, doubled: doubled.length }).toEqual({ missing: 0, doubled: 0 })
  expect(stored).toEqual(sent)
  const rows = new Map(rowsByWid(second, sent).map((r) => [r.wid, r]))
  for (const [wid, body] of edited) expect(rows.get(wid)).toMatchObject({ body, isEdited: 1 })
  for (const wid of revoked) expect(rows.get(wid)).toMatchObject({ isDeleted: 1 })
  for (const wid of reacted) expect(reactionsOf(second, wid)).toEqual(['👍'])
}, 60_000)
