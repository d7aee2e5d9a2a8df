/**
 * Issue 20, defect 14 (part): the history-import status does not flicker. WhatsApp sends a fresh link its
 * history in several chunks (INITIAL_BOOTSTRAP, then RECENT ones up to 100 %); Baileys says "complete" for the
 * bootstrap as soon as it arrives (Socket/chats.js ~936-945) while the RECENT chunks still come. The
 * connection must show 'importing' once, from the first chunk to the last, and CONNECTED after: not
 * importing → CONNECTED → importing → CONNECTED as each chunk begins and "completes" an import.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { proto } from '@whiskeysockets/baileys'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { phoneSendsHistory, rowsByWid, settle, watchReceipts } from './inbound'

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

/** A one-message conversation of the customer `pn`, as a history chunk carries it. */
const conversationWith = (pn: string, id: string, text: string, at: number): proto.IConversation => ({
  id: pn,
  messages: [
    {
      message: {
        key: { remoteJid: pn, fromMe: false, id },
        message: { conversation: text },
        messageTimestamp: Math.floor(at / 1000),
      },
    },
  ],
})

test('a history in several chunks shows importing once, then CONNECTED', async () => {
  const b = await startBalcao(simulator)
  balcao = b
  // The chunks are sent by hand, one by one, each stored before the next (the realistic worst case).
  const number = await simulator.newPhone({ refresh: false, history: false })
  const id = await b.link(number)
  b.h.deps.sqlite.run("UPDATE whatsapps SET import_old_messages = '2020-01-01' WHERE id = ?", [id])

  const statuses: string[] = []
  const untap = b.h.deps.hub.tap((event) => {
    if (!event.event.endsWith('whatsappSession')) return
    const { session } = event.data as { session: { id: number; status: string } }
    if (session.id === id && statuses.at(-1) !== session.status) statuses.push(session.status)
  })
  const receipts = watchReceipts(simulator)
  const now = Date.now()
  const chunks = [
    { syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP, chunkOrder: 1, progress: 100 },
    { syncType: proto.HistorySync.HistorySyncType.RECENT, chunkOrder: 2, progress: 50 },
    { syncType: proto.HistorySync.HistorySyncType.RECENT, chunkOrder: 3, progress: 100 },
  ]
  const wids: string[] = []
  for (const [i, chunk] of chunks.entries()) {
    const wid = `HISTMSG${now}${i}`
    wids.push(wid)
    const sent = await phoneSendsHistory(simulator, number, {
      ...chunk,
      contacts: [],
      conversations: [
        conversationWith(`55119888700${i}@s.whatsapp.net`, wid, `mensagem antiga ${i}`, now - 3_600_000),
      ],
    })
    await receipts.all([sent])
    expect(await settle(b, () => rowsByWid(b, [wid]).length === 1)).toBe(true)
  }
  expect(await settle(b, () => statuses.at(-1) === 'CONNECTED')).toBe(true)
  untap()
  expect(rowsByWid(b, wids).map((r) => r.wid)).toEqual(wids)
  expect(statuses).toEqual(['importing', 'CONNECTED'])
}, 30_000)
