/**
 * Issue 20, defects 2 and 14 (outbound): what WhatsApp's server says of a message Balcão sent is what the
 * message shows. An error ack fails it with a translated reason and a retry (463 also restricts the number's
 * door, so campaigns pause); the reach-out time lock WhatsApp announces is kept on the door with its end; ack 1
 * means the server acknowledged the message, not that Baileys returned; a send cut by a closing socket (428)
 * goes back in line instead of failing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { BinaryNode } from '@whiskeysockets/baileys'
import * as messaging from '../../../src/server/channels/baileys/messaging'
import { doorOf } from '../../../src/server/modules/outbound/door'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { messageRow, openConversation, untilValue } from './conversation'
import { type WiredCustomers, wireCustomers } from './customers'

let simulator: ScenarioSimulator
let wired: WiredCustomers
let b: Balcao
let number: string
let connectionId: number

beforeAll(async () => {
  simulator = await startScenarioSimulator()
  wired = wireCustomers(simulator)
  b = await startBalcao(simulator)
  number = await simulator.newPhone({ refresh: false })
  connectionId = await b.link(number)
})
afterAll(async () => {
  await b.stop()
  await simulator.stop()
})

/** How long a send waits for the server's ack (read through the namespace: the code before the fix had none). */
const SERVER_ACK_TIMEOUT_MS =
  (messaging as { SERVER_ACK_TIMEOUT_MS?: number }).SERVER_ACK_TIMEOUT_MS ?? 20_000

/** A message to this customer (Balcão may address them by number or by LID: defect 7 is not this file's). */
const to = (customer: { phoneUserJid: string; lidUserJid: string }, jid: string) =>
  jid === customer.phoneUserJid || jid === customer.lidUserJid

const settled = (id: number) =>
  untilValue(
    b,
    () => {
      const row = messageRow(b, id)
      return row.sendState === 'sent' || row.sendState === 'failed' ? row : undefined
    },
    `message ${id} sent or failed`,
  )

describe('WhatsApp refuses a send (error ack)', () => {
  test('479: the reply ends failed with the reason; retry sends it and the customer reads it', async () => {
    const talk = await openConversation(b, wired, number, '5511988880401')
    const undo = wired.reject((chat) => to(talk.customer, chat), 479)
    const id = await talk.reply('Pedido confirmado')
    const failed = await settled(id)
    expect(failed.sendState).toBe('failed')
    expect(failed.sendError).toStartWith('ERR_WAPP_REJECTED: ')
    expect(failed.sendError).toContain('479')

    undo()
    const retried = await b.admin.post(`/messages/${id}/retry`, {})
    expect(retried.status).toBe(200)
    const sent = await settled(id)
    expect(sent).toMatchObject({ sendState: 'sent', sendError: null, ack: 1 })
    const relayed = await wired.relay((m) => m.out.id === sent.wid)
    const read = await talk.customer.receive(relayed.out, talk.company.companion.jid)
    expect(read.entries.map((e) => e.text)).toEqual(['Pedido confirmado'])
  }, 20_000)

  test('463: the reply ends failed as restricted, and the door holds outreach, durably', async () => {
    const talk = await openConversation(b, wired, number, '5511988880402')
    const undo = wired.reject((chat) => to(talk.customer, chat), 463)
    const id = await talk.reply('Oferta especial')
    const failed = await settled(id)
    undo()
    expect(failed.sendState).toBe('failed')
    expect(failed.sendError).toStartWith('ERR_WAPP_RESTRICTED: ')
    expect(failed.sendError).toContain('463')
    // The door (campaigns look there before each send) is restricted, and a restart keeps it.
    expect(doorOf(b.h.deps, connectionId).restriction).not.toBeNull()
    const stored = b.h.deps.sqlite
      .query<{ at: number | null }, [number]>(
        'SELECT restricted_at AS at FROM connection_doors WHERE whatsapp_id = ?',
      )
      .get(connectionId)
    expect(stored?.at).not.toBeNull()
    doorOf(b.h.deps, connectionId).lift()
  }, 20_000)

  test("WhatsApp's reach-out time lock is kept on the door until its end, and lifted when WhatsApp says", async () => {
    const ends = Math.floor(Date.now() / 1000) + 3600
    const lock = (active: boolean): BinaryNode => ({
      tag: 'notification',
      attrs: { from: 's.whatsapp.net', type: 'mex', id: `mex-${active}-${ends}`, t: String(wired.now()) },
      content: [
        {
          tag: 'update',
          attrs: { op_name: 'NotificationUserReachoutTimelockUpdate' },
          content: Buffer.from(
            JSON.stringify({
              data: {
                xwa2_notify_account_reachout_timelock: active
                  ? { is_active: true, time_enforcement_ends: String(ends), enforcement_type: 'DEFAULT' }
                  : { is_active: false },
              },
            }),
          ),
        },
      ],
    })
    const door = doorOf(b.h.deps, connectionId)
    wired.deliver(number, [{ node: lock(true) }])
    const restriction = await untilValue(b, () => door.restriction ?? undefined, 'the door restricted')
    expect(restriction.until).toBe(ends * 1000)
    const stored = b.h.deps.sqlite
      .query<{ until: number | null }, [number]>(
        'SELECT restricted_until AS until FROM connection_doors WHERE whatsapp_id = ?',
      )
      .get(connectionId)
    expect(stored?.until).toBe(ends * 1000)

    wired.deliver(number, [{ node: lock(false) }])
    await untilValue(b, () => (door.restriction ? undefined : true), 'the lock lifted')
  }, 20_000)
})

describe("ack 1 is the server's ack", () => {
  test('a reply shows ack 1 only once the server acknowledged it', async () => {
    const talk = await openConversation(b, wired, number, '5511988880403')
    const undo = wired.reject((chat) => to(talk.customer, chat), null)
    const id = await talk.reply('Aguarde um instante')
    const relayed = await wired.relay(
      (m) => to(talk.customer, m.out.to) && m.out.id === (messageRow(b, id).wid ?? m.out.id),
    )
    await talk.customer.receive(relayed.out, talk.company.companion.jid)
    // Baileys has long returned from sendMessage; the server has not acknowledged yet.
    expect(messageRow(b, id).ack).toBe(0)
    undo()
    wired.releaseAcks()
    expect(await settled(id)).toMatchObject({ sendState: 'sent', ack: 1, wid: relayed.out.id })
  }, 20_000)

  test('a send the server never acknowledges is sent with ack 0, and receipts move it on', async () => {
    const talk = await openConversation(b, wired, number, '5511988880404')
    const undo = wired.reject((chat) => to(talk.customer, chat), null)
    const id = await talk.reply('Sem confirmação do servidor')
    const relayed = await wired.relay((m) => to(talk.customer, m.out.to))
    await talk.customer.receive(relayed.out, talk.company.companion.jid)
    await b.clock.tick(SERVER_ACK_TIMEOUT_MS)
    expect(await settled(id)).toMatchObject({ sendState: 'sent', ack: 0, wid: relayed.out.id })
    undo()
    wired.deliver(number, [{ node: talk.customer.receipt([relayed.out.id], { t: wired.now() }) }])
    await untilValue(b, () => (messageRow(b, id).ack === 2 ? true : undefined), 'ack 2 (delivered)')
  }, 20_000)
})

describe('a send the closing socket cut (428)', () => {
  test('goes back in line and is sent once the connection is back', async () => {
    const talk = await openConversation(b, wired, number, '5511988880405')
    // Baileys asks usync for the customer's devices before it encrypts: the connection drops right there.
    wired.cutOnNextUsync()
    const id = await talk.reply('Chegou?')
    const back = await untilValue(
      b,
      () => {
        const row = messageRow(b, id)
        return row.sendState === 'queued' || row.sendState === 'failed' ? row : undefined
      },
      'the send given up',
    )
    expect(back).toMatchObject({ sendState: 'queued', sendError: null })
    for (let i = 0; i < 60 && (await b.connection(connectionId)).status !== 'CONNECTED'; i++)
      await b.clock.tick(1_000)
    await b.connected(connectionId)
    await b.clock.tick(2_000) // the sender looks again (pollMs)
    const sent = await settled(id)
    expect(sent.sendState).toBe('sent')
    const relayed = await wired.relay((m) => m.out.id === sent.wid)
    const read = await talk.customer.receive(relayed.out, talk.company.companion.jid)
    expect(read.entries.map((e) => e.text)).toEqual(['Chegou?'])
  }, 30_000)
})
