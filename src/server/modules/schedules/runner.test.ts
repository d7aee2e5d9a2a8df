import { describe, expect, test } from 'bun:test'
import { nextOccurrence, repeatRuleOf } from '../../../shared/scheduled-messages'
import { formatInZone, instantOf } from '../../../shared/timezone'
import { createHarness, type Harness } from '../../test/harness'
import { outboundSender } from '../messages/outbound'
import { connected } from '../messages/testing'
import { makeContact, makeTicket } from '../tickets/testing'
import { ScheduleRunner } from './runner'

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

async function setup() {
  const h = await createHarness()
  const admin = await h.as(h.a.admin)
  const { connection, session } = await connected(h, h.a.id)
  const contact = makeContact(h, h.a.id, { name: 'Maria' })
  return { h, admin, connection, session, contact }
}

type Row = {
  id: number
  status: string
  sentAt: number | null
  error: string | null
  messageId: number | null
  ticketId: number | null
  sendAt: number
  seriesId: number | null
}

function rows(h: Harness): Row[] {
  return h.deps.sqlite
    .query<Row, []>(
      `SELECT id, status, sent_at AS sentAt, error, message_id AS messageId, ticket_id AS ticketId, send_at AS sendAt,
              series_id AS seriesId FROM schedules ORDER BY send_at, id`,
    )
    .all()
}

const sends = (session: { calls: { method: string; args: unknown[] }[] }) =>
  session.calls
    .filter((c) => c.method === 'send')
    .map((c) => (c.args[1] as { body?: string; caption?: string }).body)

describe('ScheduleRunner', () => {
  test('a due schedule is sent once, at its time, into a closed ticket by default', async () => {
    const { h, admin, session, contact } = await setup()
    const runner = new ScheduleRunner(h.deps)
    await runner.start()
    const res = await admin.post('/schedules', {
      body: 'Bom dia, Maria!',
      contactId: contact.id,
      sendAt: new Date(h.clock.now() + 10 * MIN).toISOString(),
    })
    runner.wake()
    await h.clock.tick(9 * MIN)
    expect(sends(session)).toEqual([])
    await h.clock.tick(MIN)
    expect(sends(session)).toEqual(['Bom dia, Maria!'])
    const [row] = rows(h)
    expect(row).toMatchObject({ id: res.body.id, status: 'ENVIADA', error: null })
    expect(row!.sentAt).toBe(h.clock.now())
    const ticket = h.deps.sqlite
      .query<{ status: string; userId: number | null }, [number]>(
        'SELECT status, user_id AS userId FROM tickets WHERE id = ?',
      )
      .get(row!.ticketId!)
    expect(ticket?.status).toBe('closed')
    // More time and more passes send nothing again.
    await h.clock.tick(HOUR)
    await runner.run()
    expect(sends(session)).toHaveLength(1)
    runner.stop()
  })

  test("the schedule's connection (the spec's whatsappIds) sends it, not the company's default", async () => {
    const { h, admin, connection, session, contact } = await setup()
    const other = await connected(h, h.a.id)
    const runner = new ScheduleRunner(h.deps)
    await runner.start()
    const res = await admin.post('/schedules', {
      body: 'Pela outra loja',
      contactId: contact.id,
      sendAt: new Date(h.clock.now() + MIN).toISOString(),
      whatsappIds: [other.connection.id],
    })
    expect(res.status).toBe(201)
    expect(res.body.whatsappId).toBe(other.connection.id)
    runner.wake()
    await h.clock.tick(MIN)
    expect(sends(other.session)).toEqual(['Pela outra loja'])
    expect(sends(session)).toEqual([])
    const ticket = h.deps.sqlite
      .query<{ whatsappId: number }, [number]>('SELECT whatsapp_id AS whatsappId FROM tickets WHERE id = ?')
      .get(rows(h)[0]!.ticketId!)
    expect(ticket?.whatsappId).toBe(other.connection.id)
    expect(ticket?.whatsappId).not.toBe(connection.id)
    runner.stop()
  })

  test("the contact's ticket became one its author may not open: ERRO at send time, nothing written", async () => {
    const { h, session, connection, contact } = await setup()
    const mine = h.makeQueue(h.a.id, { name: 'Suporte' })
    const theirs = h.makeQueue(h.a.id, { name: 'Vendas' })
    h.addToQueue(h.a.attendantId, mine.id)
    const seller = h.makeUser(h.a.id, { name: 'Carlos', email: 'carlos@alpha.test' })
    const runner = new ScheduleRunner(h.deps)
    await runner.start()
    const agent = await h.as(h.a.attendant)
    const res = await agent.post('/schedules', {
      body: 'Bom dia, Maria!',
      contactId: contact.id,
      sendAt: new Date(h.clock.now() + 10 * MIN).toISOString(),
    })
    expect(res.status).toBe(201)
    // Meanwhile the customer wrote and another queue's attendant took the conversation.
    const held = makeTicket(h, h.a.id, {
      contactId: contact.id,
      whatsappId: connection.id,
      status: 'open',
      queueId: theirs.id,
      userId: seller.id,
    })
    const count = () => h.deps.sqlite.query('SELECT count(*) AS n FROM messages').get()
    const before = count()
    runner.wake()
    await h.clock.tick(10 * MIN)
    expect(sends(session)).toEqual([])
    expect(count()).toEqual(before)
    const [row] = rows(h)
    expect(row).toMatchObject({ id: res.body.id, status: 'ERRO', messageId: null, ticketId: null })
    expect(row!.error).toStartWith('ERR_OTHER_OPEN_TICKET')
    expect(row!.error).not.toContain('Carlos')
    // Once the ticket is the author's queue's again, a retry sends it there.
    h.deps.sqlite.query('UPDATE tickets SET queue_id = ? WHERE id = ?').run(mine.id, held.id)
    expect((await agent.post(`/schedules/${res.body.id}/retry`, {})).status).toBe(200)
    await h.clock.tick(MIN)
    expect(sends(session)).toEqual(['Bom dia, Maria!'])
    expect(rows(h)[0]).toMatchObject({ status: 'ENVIADA', ticketId: held.id })
    runner.stop()
  })

  test('a company that may not send (plan without schedules, inactive) fails its due schedules with why', async () => {
    const { h, admin, session, contact } = await setup()
    const runner = new ScheduleRunner(h.deps)
    await runner.start()
    const due = async (body: string) =>
      (
        await admin.post('/schedules', {
          body,
          contactId: contact.id,
          sendAt: new Date(h.clock.now() + MIN).toISOString(),
        })
      ).body.id as number
    const planId = h.deps.sqlite
      .query<{ planId: number }, [number]>('SELECT plan_id AS planId FROM companies WHERE id = ?')
      .get(h.a.id)!.planId
    const first = await due('Lembrete do plano')
    h.deps.sqlite.query('UPDATE plans SET use_schedules = 0 WHERE id = ?').run(planId)
    runner.wake()
    await h.clock.tick(MIN)
    h.deps.sqlite.query('UPDATE plans SET use_schedules = 1 WHERE id = ?').run(planId)
    const second = await due('Lembrete da empresa')
    h.deps.sqlite.query('UPDATE companies SET status = 0 WHERE id = ?').run(h.a.id)
    runner.wake()
    await h.clock.tick(MIN)
    expect(sends(session)).toEqual([])
    const byId = new Map(rows(h).map((r) => [r.id, r]))
    expect(byId.get(first)).toMatchObject({ status: 'ERRO', messageId: null })
    expect(byId.get(first)!.error).toStartWith('ERR_PLAN_FEATURE_DISABLED')
    expect(byId.get(second)).toMatchObject({ status: 'ERRO', messageId: null })
    expect(byId.get(second)!.error).toStartWith('ERR_COMPANY_INACTIVE')
    runner.stop()
  })

  test('openTicket with statusTicket open opens a ticket for the user and queue; an active ticket is reused', async () => {
    const { h, admin, contact } = await setup()
    const queue = h.makeQueue(h.a.id)
    const runner = new ScheduleRunner(h.deps)
    await admin.post('/schedules', {
      body: 'Abre um ticket',
      contactId: contact.id,
      sendAt: new Date(h.clock.now() - MIN).toISOString(),
      openTicket: 'enabled',
      statusTicket: 'open',
      ticketUserId: h.a.attendantId,
      queueId: queue.id,
    })
    await runner.start()
    const [row] = rows(h)
    const ticket = h.deps.sqlite
      .query<{ status: string; userId: number; queueId: number }, [number]>(
        'SELECT status, user_id AS userId, queue_id AS queueId FROM tickets WHERE id = ?',
      )
      .get(row!.ticketId!)
    expect(ticket).toEqual({ status: 'open', userId: h.a.attendantId, queueId: queue.id })
    const msg = h.deps.sqlite
      .query<{ body: string; fromMe: number; ticketId: number }, [number]>(
        'SELECT body, from_me AS fromMe, ticket_id AS ticketId FROM messages WHERE id = ?',
      )
      .get(row!.messageId!)
    expect(msg).toEqual({ body: 'Abre um ticket', fromMe: 1, ticketId: row!.ticketId! })
    // A second one goes into the same (still open) ticket, whatever its own settings.
    await admin.post('/schedules', {
      body: 'Segunda mensagem',
      contactId: contact.id,
      sendAt: new Date(h.clock.now()).toISOString(),
      openTicket: 'disabled',
    })
    await runner.run()
    expect(rows(h)[1]!.ticketId).toBe(row!.ticketId)
    runner.stop()
  })

  test('overdue after downtime: sent on start, in send_at order', async () => {
    const { h, admin, session, contact } = await setup()
    const at = (ms: number) => new Date(h.clock.now() + ms).toISOString()
    for (const [body, ms] of [
      ['Terceira mensagem', 30 * MIN],
      ['Primeira mensagem', 10 * MIN],
      ['Segunda mensagem', 20 * MIN],
      ['Ainda no futuro', 5 * HOUR],
    ] as const)
      await admin.post('/schedules', { body, contactId: contact.id, sendAt: at(ms) })
    // The server was down for two hours.
    h.clock.set(h.clock.now() + 2 * HOUR)
    const runner = new ScheduleRunner(h.deps)
    await runner.start()
    expect(sends(session)).toEqual(['Primeira mensagem', 'Segunda mensagem', 'Terceira mensagem'])
    expect(rows(h).map((r) => r.status)).toEqual(['ENVIADA', 'ENVIADA', 'ENVIADA', 'PENDENTE'])
    await h.clock.tick(3 * HOUR)
    expect(sends(session)).toHaveLength(4)
    runner.stop()
  })

  test('exactly once across two restarts, including a crash between claim and send', async () => {
    const { h, admin, session, contact } = await setup()
    const at = new Date(h.clock.now() + MIN).toISOString()
    await admin.post('/schedules', { body: 'Mensagem única A', contactId: contact.id, sendAt: at })
    await admin.post('/schedules', { body: 'Mensagem única B', contactId: contact.id, sendAt: at })
    h.clock.set(h.clock.now() + MIN)
    // Run 1 claims A (its message written, queued) and "crashes" before handing it to WhatsApp.
    const first = new ScheduleRunner(h.deps)
    const [a, b] = rows(h)
    expect(first.claim(a!.id)).not.toBeNull()
    expect(first.claim(a!.id)).toBeNull()
    expect(rows(h)[0]!.status).toBe('ENVIANDO')
    expect(sends(session)).toEqual([])
    // Boot 2: the outbound sender resumes queued messages, the runner settles and sends what is due.
    await outboundSender(h.deps).resume()
    const second = new ScheduleRunner(h.deps)
    await second.start()
    expect(sends(session).sort()).toEqual(['Mensagem única A', 'Mensagem única B'])
    expect(rows(h).map((r) => r.status)).toEqual(['ENVIADA', 'ENVIADA'])
    second.stop()
    // Boot 3: nothing is sent again.
    await outboundSender(h.deps).resume()
    const third = new ScheduleRunner(h.deps)
    await third.start()
    await h.clock.tick(DAY)
    expect(sends(session)).toHaveLength(2)
    expect(b!.id).toBeGreaterThan(a!.id)
    third.stop()
  })

  test('a crash while WhatsApp had the message: ERRO (interrupted), never resent blindly; retry sends it', async () => {
    const { h, admin, session, contact } = await setup()
    const id = (
      await admin.post('/schedules', {
        body: 'Talvez enviada',
        contactId: contact.id,
        sendAt: new Date(h.clock.now()).toISOString(),
      })
    ).body.id
    const first = new ScheduleRunner(h.deps)
    first.claim(id)
    // The sender had claimed the message (sending) when the process died.
    const messageId = rows(h)[0]!.messageId!
    h.deps.sqlite.query(`UPDATE messages SET send_state = 'sending' WHERE id = ?`).run(messageId)
    await outboundSender(h.deps).resume()
    const second = new ScheduleRunner(h.deps)
    await second.start()
    expect(sends(session)).toEqual([])
    expect(rows(h)[0]).toMatchObject({ status: 'ERRO' })
    expect(rows(h)[0]!.error).toContain('ERR_SEND_INTERRUPTED')
    const retry = await admin.post(`/schedules/${id}/retry`)
    expect(retry.status).toBe(200)
    await h.clock.tick(0)
    await second.run()
    expect(sends(session)).toEqual(['Talvez enviada'])
    expect(rows(h)[0]).toMatchObject({ status: 'ENVIADA', error: null, messageId })
    // Only a failed one can be retried.
    expect((await admin.post(`/schedules/${id}/retry`)).status).toBe(400)
    second.stop()
  })

  test('failure: ERRO with the reason, then a retry sends it', async () => {
    const { h, admin, session, contact } = await setup()
    const original = session.send.bind(session)
    session.send = async () => {
      throw new Error('número bloqueado')
    }
    const id = (
      await admin.post('/schedules', {
        body: 'Vai falhar',
        contactId: contact.id,
        sendAt: new Date(h.clock.now()).toISOString(),
      })
    ).body.id
    const runner = new ScheduleRunner(h.deps)
    await runner.start()
    const failed = await admin.get(`/schedules/${id}`)
    expect(failed.body.status).toBe('ERRO')
    expect(failed.body.error).toContain('número bloqueado')
    session.send = original
    await admin.post(`/schedules/${id}/retry`)
    await h.clock.tick(0)
    expect((await admin.get(`/schedules/${id}`)).body.status).toBe('ENVIADA')
    expect(sends(session)).toEqual(['Vai falhar'])
    runner.stop()
  })

  test('no connection at all: ERRO with ERR_NO_DEF_WAPP_FOUND; retried once there is one', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const contact = makeContact(h, h.a.id)
    const id = (
      await admin.post('/schedules', {
        body: 'Sem conexão',
        contactId: contact.id,
        sendAt: new Date(h.clock.now()).toISOString(),
      })
    ).body.id
    const runner = new ScheduleRunner(h.deps)
    await runner.start()
    expect((await admin.get(`/schedules/${id}`)).body).toMatchObject({ status: 'ERRO' })
    expect((await admin.get(`/schedules/${id}`)).body.error).toContain('ERR_NO_DEF_WAPP_FOUND')
    const { session } = await connected(h, h.a.id)
    await admin.post(`/schedules/${id}/retry`)
    await runner.run()
    await h.clock.tick(0)
    expect((await admin.get(`/schedules/${id}`)).body.status).toBe('ENVIADA')
    expect(sends(session)).toEqual(['Sem conexão'])
    runner.stop()
  })

  test('repeats daily until the end date, each occurrence its own record', async () => {
    const { h, admin, session, contact } = await setup()
    // 2026-11-21 12:00Z is 09:00 in São Paulo.
    await admin.post('/schedules', {
      body: 'Bom dia diário',
      contactId: contact.id,
      sendAt: '2026-11-21 09:30:00',
      repeat: { freq: 'daily', until: '2026-11-24' },
    })
    const runner = new ScheduleRunner(h.deps)
    await runner.start()
    await h.clock.tick(5 * DAY)
    const all = rows(h)
    expect(all.map((r) => formatInZone(r.sendAt, 'America/Sao_Paulo'))).toEqual([
      '21/11/2026 09:30:00',
      '22/11/2026 09:30:00',
      '23/11/2026 09:30:00',
      '24/11/2026 09:30:00',
    ])
    expect(all.every((r) => r.status === 'ENVIADA' && r.seriesId === all[0]!.id)).toBe(true)
    expect(sends(session)).toHaveLength(4)
    runner.stop()
  })

  test('repeats weekly on chosen days and monthly (31st -> last day of shorter months)', async () => {
    const { h, admin, contact } = await setup()
    // Saturday 21/11/2026; Mondays and Wednesdays until 02/12.
    await admin.post('/schedules', {
      body: 'Semanal seg e qua',
      contactId: contact.id,
      sendAt: '2026-11-23 08:00:00',
      repeat: { freq: 'weekly', weekdays: [1, 3], until: '2026-12-02' },
    })
    await admin.post('/schedules', {
      body: 'Mensal dia 31',
      contactId: contact.id,
      sendAt: '2026-12-31 10:00:00',
      repeat: { freq: 'monthly', until: '2027-03-31' },
    })
    const runner = new ScheduleRunner(h.deps, { maxSleepMs: DAY })
    await runner.start()
    await h.clock.tick(140 * DAY)
    const weekly = h.deps.sqlite
      .query<{ sendAt: number }, []>(
        `SELECT send_at AS sendAt FROM schedules WHERE body LIKE 'Semanal%' ORDER BY send_at`,
      )
      .all()
      .map((r) => formatInZone(r.sendAt, 'America/Sao_Paulo'))
    expect(weekly).toEqual([
      '23/11/2026 08:00:00',
      '25/11/2026 08:00:00',
      '30/11/2026 08:00:00',
      '02/12/2026 08:00:00',
    ])
    const monthly = h.deps.sqlite
      .query<{ sendAt: number; status: string }, []>(
        `SELECT send_at AS sendAt, status FROM schedules WHERE body LIKE 'Mensal%' ORDER BY send_at`,
      )
      .all()
    expect(monthly.map((r) => formatInZone(r.sendAt, 'America/Sao_Paulo'))).toEqual([
      '31/12/2026 10:00:00',
      '31/01/2027 10:00:00',
      '28/02/2027 10:00:00',
      '31/03/2027 10:00:00',
    ])
    expect(monthly.every((r) => r.status === 'ENVIADA')).toBe(true)
    runner.stop()
  })

  test('a series that missed occurrences while down sends the overdue one, then continues in the future', async () => {
    const { h, admin, session, contact } = await setup()
    await admin.post('/schedules', {
      body: 'Lembrete diário',
      contactId: contact.id,
      sendAt: '2026-11-21 09:30:00',
      repeat: { freq: 'daily', until: '2026-12-31' },
    })
    h.clock.set(h.clock.now() + 3 * DAY)
    const runner = new ScheduleRunner(h.deps)
    await runner.start()
    expect(sends(session)).toEqual(['Lembrete diário'])
    const next = rows(h).find((r) => r.status === 'PENDENTE')!
    expect(formatInZone(next.sendAt, 'America/Sao_Paulo')).toBe('24/11/2026 09:30:00')
    runner.stop()
  })
})

describe('repetition across DST (company zone)', () => {
  test('a weekly 09:00 in New York stays 09:00 across the March change', () => {
    const tz = 'America/New_York'
    const first = instantOf({ year: 2027, month: 3, day: 8, hour: 9, minute: 0, second: 0 }, tz)
    const rule = repeatRuleOf({ freq: 'weekly', weekdays: [1], until: '2027-03-22' }, first, tz)
    const second = nextOccurrence(rule, first, tz)!
    const third = nextOccurrence(rule, second, tz)!
    expect(formatInZone(second, tz)).toBe('15/03/2027 09:00:00')
    expect(third - second).toBe(7 * DAY)
    expect(second - first).toBe(7 * DAY - HOUR)
    expect(nextOccurrence(rule, third, tz)).toBeNull()
  })

  test('a time skipped by the change moves forward; a repeated time is its first occurrence', () => {
    const tz = 'America/New_York'
    const gap = instantOf({ year: 2027, month: 3, day: 14, hour: 2, minute: 30, second: 0 }, tz)
    expect(formatInZone(gap, tz)).toBe('14/03/2027 03:30:00')
    const twice = instantOf({ year: 2027, month: 11, day: 7, hour: 1, minute: 30, second: 0 }, tz)
    expect(new Date(twice).toISOString()).toBe('2027-11-07T05:30:00.000Z')
    const sp = instantOf(
      { year: 2026, month: 11, day: 21, hour: 9, minute: 0, second: 0 },
      'America/Sao_Paulo',
    )
    expect(new Date(sp).toISOString()).toBe('2026-11-21T12:00:00.000Z')
  })
})
