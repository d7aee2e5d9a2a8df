import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { downloadMediaMessage, type WAMessage } from '@whiskeysockets/baileys'
import { installSimulatorFetch, parseWaSimulatorUrl } from '../../src/server/channels/baileys/simulator'
import { silentLogger, within } from './baileys-client'
import { makeHarness } from './harness'
import { decryptMessageMedia } from './media/index.ts'
import { type RunningSimulator, startSimulator } from './start'
import { distrustSimulator, trustSimulator } from './trust'

let simulator: RunningSimulator
const harness = makeHarness(() => simulator)
const { control, newPhone, pairAndLogin, endClients } = harness

let restoreFetch: () => void = () => {}
beforeAll(async () => {
  simulator = await startSimulator()
  trustSimulator(simulator.root)
  // As `serve --wa-simulator` does: Baileys's https media URLs reach the simulator's port.
  restoreFetch = installSimulatorFetch(parseWaSimulatorUrl(simulator.wsUrl))
})
afterEach(endClients)
afterAll(async () => {
  restoreFetch()
  distrustSimulator()
  await simulator.stop()
})

/** Resolves with the first upserted message that matches. */
type Sock = Awaited<ReturnType<ReturnType<typeof makeHarness>['pairAndLogin']>>['sock']
const nextUpsert = (sock: Sock, match: (message: WAMessage) => boolean) =>
  new Promise<{ message: WAMessage; type: string }>((resolve) => {
    sock.ev.on('messages.upsert', ({ messages, type }) => {
      const found = messages.find(match)
      if (found) resolve({ message: found, type })
    })
  })

type Received = { id: string; kind: string; text?: string; quotedId?: string }

/** Tracks what Baileys learns was delivered (status 3 or more, as an update or folded into its own upsert). */
const deliveries = (sock: Sock) => {
  const seen = new Set<string>()
  const waiters = new Map<string, () => void>()
  const mark = (id: string | null | undefined, status: number | null | undefined) => {
    if (!id || (status ?? 0) < 3) return
    seen.add(id)
    waiters.get(id)?.()
  }
  sock.ev.on('messages.update', (updates) => {
    for (const { key, update } of updates) mark(key.id, update.status)
  })
  sock.ev.on('messages.upsert', ({ messages }) => {
    for (const message of messages) mark(message.key.id, message.status)
  })
  return (id: string) =>
    seen.has(id) ? Promise.resolve() : new Promise<void>((resolve) => waiters.set(id, resolve))
}

describe('customers', () => {
  test('a text round trip with the real socket: customer -> messages.upsert, sendMessage -> received', async () => {
    const phone = await newPhone({ refresh: false })
    const company = await pairAndLogin(phone)
    const customerNumber = '5511987650001'
    const created = await control<{ jid: string; lid: string }>('/control/customers', {
      number: customerNumber,
      name: 'Maria',
    })
    expect(created.status).toBe(200)

    const upserted = nextUpsert(company.sock, (message) => message.message?.conversation === 'Olá, tudo bem?')
    const sent = await control<{ id: string }>(`/control/customers/${customerNumber}/send`, {
      to: phone,
      text: 'Olá, tudo bem?',
    })
    expect(sent.status).toBe(200)
    const { message, type } = await within(upserted, 5_000, 'messages.upsert')
    expect(type).toBe('notify')
    expect(message.key.id).toBe(sent.json.id)
    expect(message.key.fromMe).toBe(false)
    expect(message.pushName).toBe('Maria')

    const delivered = deliveries(company.sock)
    const reply = await company.sock.sendMessage(`${customerNumber}@s.whatsapp.net`, {
      text: 'Tudo ótimo, e você?',
    })
    // sendMessage resolves once the stanza is written; the customer's device decrypts it when the
    // server reads it, before the server's ack: wait for that ack's effect, the delivery receipt.
    await within(delivered(reply?.key.id ?? ''), 5_000, 'delivery receipt')
    const received = (await control<Received[]>(`/control/customers/${customerNumber}/received`)).json
    expect(received).toEqual([
      expect.objectContaining({ id: reply?.key.id, kind: 'text', text: 'Tudo ótimo, e você?' }),
    ])
  })

  test('media both ways: a customer voice note Baileys downloads, an image Baileys uploads the customer decrypts', async () => {
    const phone = await newPhone({ refresh: false })
    const company = await pairAndLogin(phone)
    const customerNumber = '5511987650002'
    await control('/control/customers', { number: customerNumber, name: 'João' })

    const voice = Buffer.from('OggS fake opus voice note bytes '.repeat(40))
    const upserted = nextUpsert(company.sock, (message) => !!message.message?.audioMessage)
    const sent = await control<{ id: string }>(`/control/customers/${customerNumber}/send`, {
      to: phone,
      media: {
        kind: 'ptt',
        mimetype: 'audio/ogg; codecs=opus',
        dataBase64: voice.toString('base64'),
        seconds: 3,
      },
    })
    expect(sent.status).toBe(200)
    const { message } = await within(upserted, 5_000, 'voice note upsert')
    expect(message.message?.audioMessage).toMatchObject({ ptt: true, mimetype: 'audio/ogg; codecs=opus' })
    const downloaded = await downloadMediaMessage(
      message,
      'buffer',
      {},
      { logger: silentLogger, reuploadRequest: async (m) => m },
    )
    expect(Buffer.from(downloaded).equals(voice)).toBe(true)

    const picture = Buffer.from('\x89PNG fake image bytes '.repeat(64))
    const delivered = deliveries(company.sock)
    const reply = await company.sock.sendMessage(`${customerNumber}@s.whatsapp.net`, {
      image: picture,
      mimetype: 'image/png',
      caption: 'segue a foto',
    })
    await within(delivered(reply?.key.id ?? ''), 5_000, 'delivery receipt')
    const received = (await control<Received[]>(`/control/customers/${customerNumber}/received`)).json
    expect(received.at(-1)).toMatchObject({
      id: reply?.key.id,
      kind: 'image',
      text: 'segue a foto',
      mimetype: 'image/png',
    })
    const decrypted = await decryptMessageMedia(
      simulator.media,
      simulator.customers.find(customerNumber)?.customer.receivedMessage(reply?.key.id ?? '') ?? {},
    )
    expect(decrypted && Buffer.from(decrypted.bytes).equals(picture)).toBe(true)
  })

  test('read and retry from the control API: Baileys marks the message READ, and resends it on retry', async () => {
    const phone = await newPhone({ refresh: false })
    const sentMessages = new Map<string, WAMessage>()
    const company = await pairAndLogin(phone, {
      getMessage: async (key) => sentMessages.get(key.id ?? '')?.message ?? undefined,
    })
    const customerNumber = '5511987650003'
    await control('/control/customers', { number: customerNumber, name: 'Rita' })
    const relayed: string[] = []
    const relayWaiters: (() => void)[] = []
    simulator.sim.onStanzaKind('message', ({ node }) => {
      relayed.push(node.attrs.id ?? '')
      for (const waiter of relayWaiters.splice(0)) waiter()
      return undefined
    })
    const delivered = deliveries(company.sock)
    const reply = await company.sock.sendMessage(`${customerNumber}@s.whatsapp.net`, {
      text: 'Seu pedido saiu',
    })
    if (reply?.key.id) sentMessages.set(reply.key.id, reply)
    const id = reply?.key.id ?? ''
    await within(delivered(id), 5_000, 'delivery receipt')

    const read = new Promise<void>((resolve) =>
      company.sock.ev.on('messages.update', (updates) => {
        if (updates.some(({ key, update }) => key.id === id && update.status === 4)) resolve()
      }),
    )
    expect((await control(`/control/customers/${customerNumber}/read`, { ids: [id] })).status).toBe(200)
    await within(read, 5_000, 'read status')

    const resent = new Promise<void>((resolve) => relayWaiters.push(resolve))
    expect((await control(`/control/customers/${customerNumber}/retry`, { id })).status).toBe(200)
    await within(resent, 5_000, 'resend')
    expect(relayed.filter((relayedId) => relayedId === id)).toHaveLength(2)
    expect((await control(`/control/customers/${customerNumber}/retry`, { id: 'NOT-RECEIVED' })).status).toBe(
      404,
    )
  })

  test('messages a customer sends while the company is offline arrive in order as append on reconnect', async () => {
    const phone = await newPhone({ refresh: false })
    const first = await pairAndLogin(phone)
    const customerNumber = '5511987650004'
    await control('/control/customers', { number: customerNumber, name: 'Bia' })
    await control(`/control/phones/${phone}/offline`, {})
    expect((await within(first.closed, 5_000, 'offline')).statusCode).toBe(428)
    const ids: string[] = []
    for (const text of ['um', 'dois', 'três']) {
      ids.push(
        (await control<{ id: string }>(`/control/customers/${customerNumber}/send`, { to: phone, text })).json
          .id,
      )
    }
    await control(`/control/phones/${phone}/online`, {})
    const back = harness.client(first.auth)
    const burst: { id: string; type: string; text: string }[] = []
    const all = new Promise<void>((resolve) =>
      back.sock.ev.on('messages.upsert', ({ messages, type }) => {
        for (const message of messages) {
          if (message.message?.conversation)
            burst.push({ id: message.key.id ?? '', type, text: message.message.conversation })
        }
        if (burst.length === 3) resolve()
      }),
    )
    await within(all, 5_000, 'offline burst')
    expect(burst).toEqual([
      { id: ids[0] ?? '', type: 'append', text: 'um' },
      { id: ids[1] ?? '', type: 'append', text: 'dois' },
      { id: ids[2] ?? '', type: 'append', text: 'três' },
    ])
  })
})
