import { describe, expect, test } from 'bun:test'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ContactsPage, DashboardData } from '../../../shared/api'
import { maySeeDashboard } from '../../state/dashboard'
import { type Call, livePageSuite, makeUser, mockFetch, renderAt, signIn } from '../../test/utils'
import { durationParts, filterQuery, npsZone } from './format'

const hours = Array.from({ length: 24 }, (_, h) => (h === 9 ? 4 : h === 14 ? 2 : 0))

const DATA: DashboardData = {
  range: { dateFrom: '2026-11-15', dateTo: '2026-11-21', timeZone: 'America/Sao_Paulo' },
  counters: {
    supportHappening: 3,
    supportPending: 5,
    supportFinished: 42,
    avgSupportTime: 65.4,
    avgWaitTime: 7.5,
    ticketsCreated: 50,
    messagesSent: 0,
    messagesReceived: 0,
    leads: 0,
    onlineAttendants: 1,
    totalAttendants: 2,
  },
  attendants: [
    {
      id: 1,
      name: 'Ana Admin',
      rating: 9,
      ratings: 4,
      tickets: 10,
      openCount: 2,
      closeCount: 8,
      avgWaitTime: 3,
      avgSupportTime: 125,
      online: true,
    },
    {
      id: 2,
      name: 'Bruno Atendente',
      rating: null,
      ratings: 0,
      tickets: 0,
      openCount: 0,
      closeCount: 0,
      avgWaitTime: null,
      avgSupportTime: null,
      online: false,
    },
  ],
  nps: {
    score: 50,
    promoters: 3,
    passives: 0,
    detractors: 1,
    total: 4,
    distribution: [0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 2],
    byAttendant: [
      { id: 1, name: 'Ana Admin', score: 50, average: 9, promoters: 3, passives: 0, detractors: 1, total: 4 },
    ],
  },
  ticketsByHour: hours,
}

function server(data: DashboardData = DATA) {
  return mockFetch({
    'GET /api/dashboard': () => ({ body: data }),
    'GET /api/messages-allMe': (call: Call) => ({
      body: { count: [{ count: call.query.get('fromMe') === 'true' ? 1234 : 567 }] },
    }),
    'GET /api/contacts': () => ({ body: { contacts: [], count: 12, hasMore: false } satisfies ContactsPage }),
  })
}

const LOAD = { timeout: 4000 }

describe('format', () => {
  test('minutes as HH h mm m', () => {
    expect(durationParts(0)).toEqual({ h: '00', m: '00' })
    expect(durationParts(7.5)).toEqual({ h: '00', m: '08' })
    expect(durationParts(65.4)).toEqual({ h: '01', m: '05' })
    expect(durationParts(1500)).toEqual({ h: '25', m: '00' })
    expect(durationParts(-3)).toEqual({ h: '00', m: '00' })
  })

  test('a filter without days or both dates has no query', () => {
    expect(filterQuery({ kind: 'days', days: null })).toBeNull()
    expect(filterQuery({ kind: 'days', days: 30 })).toEqual({ days: '30' })
    expect(filterQuery({ kind: 'dates', from: '2026-11-01', to: '' })).toBeNull()
    expect(filterQuery({ kind: 'dates', from: '2026-11-01', to: '2026-11-21' })).toEqual({
      date_from: '2026-11-01',
      date_to: '2026-11-21',
    })
  })

  test('who sees it; NPS zones', () => {
    expect(maySeeDashboard(makeUser({ profile: 'admin' }))).toBe(true)
    expect(maySeeDashboard(makeUser({ profile: 'user' }))).toBe(false)
    expect(maySeeDashboard(makeUser({ profile: 'user', showDashboard: 'enabled' }))).toBe(true)
    expect([80, 60, 0, -1].map(npsZone)).toEqual(['excellent', 'good', 'fair', 'poor'])
  })
})

describe('DashboardPage (admin)', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  test('/ is the dashboard: nothing is asked for before 1 s, then the cards and the chart', async () => {
    const calls = server()
    renderAt('/')
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument()
    expect(screen.getByTestId('dashboard-loading')).toBeInTheDocument()
    await new Promise((r) => setTimeout(r, 300))
    expect(calls.filter((c) => c.path === '/api/dashboard')).toHaveLength(0)

    const inService = await screen.findByTestId('card-in-service', {}, LOAD)
    expect(inService).toHaveTextContent('Em atendimento3')
    expect(screen.getByTestId('card-waiting')).toHaveTextContent('5')
    // Who is signed in now, whatever the range: the card says so.
    expect(screen.getByTestId('card-online')).toHaveTextContent('Atendentes online agora1de 2')
    expect(screen.getByTestId('card-finished')).toHaveTextContent('42')
    expect(screen.getByTestId('card-sent')).toHaveTextContent('1.234')
    expect(screen.getByTestId('card-received')).toHaveTextContent('567')
    expect(screen.getByTestId('card-leads')).toHaveTextContent('12')
    expect(screen.getByTestId('card-avg-service')).toHaveTextContent('01 h 05 m')
    expect(screen.getByTestId('card-avg-wait')).toHaveTextContent('00 h 08 m')

    const dash = calls.find((c) => c.path === '/api/dashboard')!
    expect(dash.query.get('days')).toBe('7')
    // The counting calls use the days the server resolved (the company's time zone).
    const sent = calls.find((c) => c.path === '/api/messages-allMe' && c.query.get('fromMe') === 'true')!
    expect(sent.query.get('dateStart')).toBe('2026-11-15')
    expect(sent.query.get('dateEnd')).toBe('2026-11-21')
    const leads = calls.find((c) => c.path === '/api/contacts')!
    expect(leads.query.get('dateStart')).toBe('2026-11-15')

    const chart = screen.getByRole('list', { name: 'Atendimentos de hoje por hora' })
    const bars = within(chart).getAllByRole('listitem')
    expect(bars).toHaveLength(24)
    expect(bars[9]).toHaveAttribute('aria-label', '09h: 4 atendimentos')
    expect(bars[14]).toHaveAttribute('aria-label', '14h: 2 atendimentos')
    expect(bars[0]).toHaveAttribute('aria-label', '00h: 0 atendimentos')
    expect(screen.getByText('6 atendimentos hoje')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/')
  })

  test('without a filter: Parametrize o filtro, and no call', async () => {
    const calls = server()
    renderAt('/')
    await screen.findByTestId('card-in-service', {}, LOAD)
    const before = calls.length
    await userEvent.click(screen.getByRole('button', { name: /Período|Últimos 7 dias/ }))
    await userEvent.click(await screen.findByRole('option', { name: 'Nenhum' }))
    expect(await screen.findByText('Parametrize o filtro')).toBeInTheDocument()
    expect(screen.queryByTestId('card-in-service')).toBeNull()
    expect(calls.length).toBe(before)

    // Dates: incomplete says the same; both dates load at once (no second delay).
    await userEvent.click(screen.getByRole('button', { name: 'Datas' }))
    expect(screen.getByText('Parametrize o filtro')).toBeInTheDocument()
    const from = screen.getByLabelText('Data inicial')
    const to = screen.getByLabelText('Data final')
    await userEvent.type(from, '2026-11-01')
    await userEvent.type(to, '2026-11-21')
    await userEvent.click(screen.getByRole('button', { name: 'Filtrar' }))
    await screen.findByTestId('card-in-service', {}, { timeout: 500 })
    const last = calls.filter((c) => c.path === '/api/dashboard').at(-1)!
    expect(last.query.get('date_from')).toBe('2026-11-01')
    expect(last.query.get('date_to')).toBe('2026-11-21')
  })

  test('the attendants tab: ratings as stars, counts, times and online status', async () => {
    server()
    renderAt('/')
    await screen.findByTestId('card-in-service', {}, LOAD)
    await userEvent.click(screen.getByRole('tab', { name: 'Atendentes' }))
    const table = await screen.findByRole('table', { name: 'Atendentes' })
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(3)
    const ana = rows[1]!
    expect(within(ana).getByRole('img', { name: 'Nota média 9 de 10 (4 avaliações)' })).toBeInTheDocument()
    expect(ana).toHaveTextContent('Ana Admin')
    expect(ana).toHaveTextContent('02 h 05 m')
    expect(ana).toHaveTextContent('00 h 03 m')
    expect(ana).toHaveTextContent('Online')
    const bruno = rows[2]!
    expect(within(bruno).getByRole('img', { name: 'Sem avaliações' })).toBeInTheDocument()
    expect(bruno).toHaveTextContent('Offline')
  })

  test('the NPS tab: score, groups, distribution and per attendant; empty without ratings', async () => {
    server()
    renderAt('/')
    await screen.findByTestId('card-in-service', {}, LOAD)
    await userEvent.click(screen.getByRole('tab', { name: 'NPS' }))
    expect(await screen.findByTestId('nps-score')).toHaveTextContent('50')
    expect(screen.getByText('Bom')).toBeInTheDocument()
    expect(screen.getByTestId('nps-promoters')).toHaveTextContent(/3\s*75%/)
    expect(screen.getByTestId('nps-detractors')).toHaveTextContent(/1\s*25%/)
    const dist = screen.getByRole('list', { name: 'Distribuição das notas' })
    expect(within(dist).getAllByRole('listitem')).toHaveLength(11)
    expect(
      within(screen.getByRole('list', { name: 'Por atendente' })).getByText('Ana Admin'),
    ).toBeInTheDocument()
  })

  test('no ratings: the NPS tab says so', async () => {
    server({
      ...DATA,
      nps: { ...DATA.nps, score: null, promoters: 0, detractors: 0, total: 0, byAttendant: [] },
    })
    renderAt('/')
    await screen.findByTestId('card-in-service', {}, LOAD)
    await userEvent.click(screen.getByRole('tab', { name: 'NPS' }))
    expect(await screen.findByText('Nenhuma avaliação no período.')).toBeInTheDocument()
  })

  test('a failed load shows the error and retries', async () => {
    let fail = true
    mockFetch({
      'GET /api/dashboard': () =>
        fail ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'boom' } } : { body: DATA },
      'GET /api/messages-allMe': () => ({ body: { count: [{ count: 0 }] } }),
      'GET /api/contacts': () => ({ body: { contacts: [], count: 0, hasMore: false } }),
    })
    renderAt('/')
    const retry = await screen.findByRole('button', { name: 'Tentar novamente' }, LOAD)
    fail = false
    await userEvent.click(retry)
    await waitFor(() => expect(screen.getByTestId('card-in-service')).toBeInTheDocument())
  })
})

describe('DashboardPage (attendant)', () => {
  livePageSuite({ id: 2, companyId: 7, profile: 'user' })

  test('/ leads an attendant to the tickets, and the menu has no dashboard', async () => {
    mockFetch({})
    renderAt('/')
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Dashboard' })).toBeNull())
    expect(screen.queryByRole('link', { name: 'Dashboard' })).toBeNull()
  })

  test('with showDashboard enabled the attendant sees it', async () => {
    signIn(makeUser({ id: 2, companyId: 7, profile: 'user', showDashboard: 'enabled' }))
    server()
    renderAt('/')
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument()
    expect(await screen.findByTestId('card-in-service', {}, LOAD)).toBeInTheDocument()
  })
})
