/**
 * A conversation for outbound scenarios: a linked Balcão connection, a simulated customer who wrote first (so
 * Balcão has the contact and its ticket), and the attendant's side (the admin answers through the API).
 */
import { expect } from 'bun:test'
import type { Balcao } from './balcao'
import type { WiredCustomers } from './customers'

type MessageRow = {
  id: number
  wid: string | null
  sendState: string | null
  sendError: string | null
  ack: number
}

/**
 * Resolves once `check` answers a value, re-checked on every live event Balcão publishes and every 20 ms (for
 * state that publishes nothing, such as the door's restriction).
 */
export function untilValue<T>(b: Balcao, check: () => T | undefined, what: string, ms = 8_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false
    const finish = (value?: T, error?: Error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearInterval(poll)
      untap()
      if (error) reject(error)
      else resolve(value as T)
    }
    const probe = () => {
      const value = check()
      if (value !== undefined) finish(value)
    }
    const untap = b.h.deps.hub.tap(probe)
    const poll = setInterval(probe, 20)
    const timer = setTimeout(() => finish(undefined, new Error(`timed out waiting for ${what}`)), ms)
    probe()
  })
}

export function messageRow(b: Balcao, id: number): MessageRow {
  const row = b.h.deps.sqlite
    .query<MessageRow, [number]>(
      `SELECT id, wid, send_state AS sendState, send_error AS sendError, ack FROM messages WHERE id = ?`,
    )
    .get(id)
  if (!row) throw new Error(`no message ${id}`)
  return row
}

/** A customer writes to the linked company; Balcão opens a ticket for them, which the admin takes. */
export async function openConversation(
  b: Balcao,
  wired: WiredCustomers,
  number: string,
  customerPhone: string,
) {
  const company = await wired.company(number)
  const customer = wired.customer(company, customerPhone)
  const hello = await customer.send([{ jid: company.companion.jid, keys: company.keys }], {
    kind: 'text',
    text: 'Olá, meu pedido?',
  })
  wired.deliver(number, customer.stanzasFor(hello, { t: wired.now() }))
  const ticketId = await untilValue(
    b,
    () =>
      b.h.deps.sqlite
        .query<{ ticketId: number }, [string]>(
          `SELECT ticket_id AS ticketId FROM messages WHERE wid = ? AND from_me = 0`,
        )
        .get(hello.id)?.ticketId,
    'the customer message stored',
  )
  expect((await b.admin.put(`/tickets/${ticketId}`, { status: 'open' })).status).toBe(200)
  return {
    company,
    customer,
    ticketId,
    /** The attendant answers on the ticket; answers the new message's row id. */
    async reply(body: string): Promise<number> {
      const res = await b.admin.post(`/messages/${ticketId}`, { body })
      if (res.status !== 201) throw new Error(`POST /messages: ${res.status} ${JSON.stringify(res.body)}`)
      return (res.body as { message: { id: number } }).message.id
    },
  }
}
