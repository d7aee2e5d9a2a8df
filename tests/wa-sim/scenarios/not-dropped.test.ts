/**
 * Issue 20, defect 13: nothing dropped silently. What Balcão cannot show still becomes a row the attendant sees:
 * a broadcast list's message (in the sender's chat), a view-once message, a kind Balcão does not support ("not
 * supported on this device"), and a message that could not be decrypted ("waiting for this message"), which
 * becomes the message, in place, when the customer's phone resends it after Baileys's retry receipt.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import type { BinaryNode } from '@whiskeysockets/baileys'
import { PLACEHOLDER_BODIES } from '../../../src/server/modules/inbound/store'
import { type Balcao, type ScenarioSimulator, startBalcao, startScenarioSimulator } from './balcao'
import { answerRetries, newCustomer, rowsByWid, sendRaw, settle } from './inbound'

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

/** A linked Balcão and a customer who already wrote once (its row stored). */
async function linkedWithCustomer(customerNumber: string) {
  const b = await startBalcao(simulator)
  balcao = b
  const number = await simulator.newPhone({ refresh: false })
  await b.link(number)
  const customer = await newCustomer(simulator, customerNumber, number)
  const hello = await customer.text('oi')
  expect(await settle(b, () => rowsByWid(b, [hello]).length === 1)).toBe(true)
  const ticketId = rowsByWid(b, [hello])[0]!.ticketId
  return { b, number, customer, hello, ticketId }
}

const storedOnce = (b: Balcao, wid: string) => settle(b, () => rowsByWid(b, [wid]).length === 1, 5_000)

test("a broadcast list's message is stored in the sender's chat", async () => {
  const { b, number, customer, ticketId } = await linkedWithCustomer('5511988880601')
  const id = await sendRaw(
    simulator,
    customer.number,
    number,
    { conversation: 'promoção da lista' },
    (node) => {
      // a broadcast list: the list is the stanza's `from`, the customer its participant (pairwise encrypted)
      node.attrs.participant = node.attrs.from ?? ''
      if (node.attrs.sender_lid) node.attrs.participant_lid = node.attrs.sender_lid
      delete node.attrs.sender_lid
      node.attrs.from = '1726000000000001@broadcast'
    },
  )
  await storedOnce(b, id)
  expect(rowsByWid(b, [id])).toMatchObject([{ wid: id, body: 'promoção da lista', ticketId }])
}, 30_000)

test('a view-once image is stored as a row', async () => {
  const { b, customer, ticketId } = await linkedWithCustomer('5511988880602')
  const id = await customer.send({
    media: {
      kind: 'image',
      mimetype: 'image/jpeg',
      dataBase64: Buffer.from('not really a jpeg').toString('base64'),
    },
    viewOnce: true,
  })
  await storedOnce(b, id)
  expect(rowsByWid(b, [id])).toMatchObject([{ wid: id, mediaType: 'image', ticketId }])
}, 30_000)

test('a view-once message WhatsApp keeps from linked devices (unavailable) becomes a "not supported" row', async () => {
  const { b, number, customer, ticketId } = await linkedWithCustomer('5511988880605')
  const id = `3EB0VIEWONCE${Date.now()}`
  // WhatsApp's fan-out of a view-once message to a linked device: no ciphertext, only `<unavailable>`.
  simulator.running.sim.sendToCompanion(number, {
    tag: 'message',
    attrs: { id, from: customer.jid, t: String(Math.floor(Date.now() / 1000)), type: 'media', notify: 'Ana' },
    content: [{ tag: 'unavailable', attrs: { type: 'view_once_unavailable_fanout' } }],
  })
  await storedOnce(b, id)
  expect(rowsByWid(b, [id])).toMatchObject([{ wid: id, body: PLACEHOLDER_BODIES.unsupported, ticketId }])
}, 30_000)

test('a kind Balcão does not support becomes a "not supported on this device" row', async () => {
  const { b, number, customer, ticketId } = await linkedWithCustomer('5511988880603')
  const id = await sendRaw(simulator, customer.number, number, {
    eventMessage: { name: 'Churrasco de sábado', description: 'na casa da Ana' },
  })
  await storedOnce(b, id)
  const rows = rowsByWid(b, [id])
  expect(rows).toMatchObject([{ wid: id, body: PLACEHOLDER_BODIES.unsupported, ticketId }])
  expect(JSON.parse(rows[0]!.providerData ?? '{}').placeholder).toBe('unsupported')
}, 30_000)

test('an undecryptable message is a "waiting" row, replaced in place by the resend', async () => {
  const { b, number, customer, ticketId } = await linkedWithCustomer('5511988880604')
  const resent = answerRetries(simulator, number, customer.number)
  const damage = (node: BinaryNode) => {
    for (const child of Array.isArray(node.content) ? node.content : []) {
      if (child.tag === 'enc' && child.content instanceof Uint8Array) {
        const bytes = Uint8Array.from(child.content)
        bytes[bytes.length - 3] = (bytes[bytes.length - 3] ?? 0) ^ 0xff
        child.content = bytes
      }
    }
  }
  const seenWaiting: string[] = []
  const untap = b.h.deps.hub.tap(() => {
    const row = rowsByWid(b, [idRef.id])[0]
    if (row && row.body === PLACEHOLDER_BODIES.waiting && !seenWaiting.length) {
      seenWaiting.push(row.body)
    }
  })
  const idRef = { id: '' }
  idRef.id = await sendRaw(
    simulator,
    customer.number,
    number,
    { conversation: 'chegou minha encomenda?' },
    damage,
  )
  const id = idRef.id
  await settle(b, () => resent.includes(id) && rowsByWid(b, [id])[0]?.body === 'chegou minha encomenda?')
  untap()
  // the attendant saw the placeholder first (published), then the message, in the same row
  expect(seenWaiting).toEqual([PLACEHOLDER_BODIES.waiting])
  expect(resent).toContain(id)
  expect(rowsByWid(b, [id])).toMatchObject([{ wid: id, body: 'chegou minha encomenda?', ticketId }])
}, 30_000)
