import { describe, expect, jest, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import type { CampaignDto } from '../../../shared/api'
import { defaultSettings } from '../../../shared/settings'
import { dispatch } from '../../api/live'
import { CSHOW_KEY, campaignsShown } from '../../state/campaigns'
import { livePageSuite, makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'

function Where() {
  const at = useLocation()
  return <output data-testid="where">{at.pathname + at.search}</output>
}

const HOUR = 3_600_000

export const campaign = (id: number, extra: Partial<CampaignDto> = {}): CampaignDto => ({
  id,
  name: `Black Friday ${id}`,
  message1: 'Olá {nome}!',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  confirmationMessage1: '',
  confirmationMessage2: '',
  confirmationMessage3: '',
  confirmationMessage4: '',
  confirmationMessage5: '',
  status: 'INATIVA',
  confirmation: false,
  scheduledAt: null,
  completedAt: null,
  whatsappId: null,
  whatsapp: null,
  contactListId: null,
  contactList: null,
  tagListId: null,
  fileListId: null,
  companyId: 7,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  editable: true,
  pausedReason: null,
  pausedDetail: null,
  waitingReason: null,
  counts: {
    total: 10,
    valid: 8,
    invalid: 2,
    delivered: 4,
    confirmationRequested: 0,
    confirmed: 0,
    pending: 4,
    failed: 0,
  },
  createdAt: '',
  updatedAt: '',
  ...extra,
})

const ROWS = [
  campaign(1),
  campaign(2, {
    name: 'Natal',
    status: 'EM_ANDAMENTO',
    confirmation: true,
    // 15:00 UTC is 12:00 in São Paulo.
    scheduledAt: '2026-11-21T15:00:00.000Z',
    whatsappId: 3,
    whatsapp: { id: 3, name: 'Comercial' },
    contactListId: 4,
    contactList: { id: 4, name: 'Clientes VIP' },
  }),
  campaign(3, { name: 'Páscoa', status: 'CANCELADA' }),
]

function serve(rows: () => CampaignDto[] = () => ROWS, extra = {}) {
  return mockFetch({
    'GET /api/campaigns/': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = rows().filter((s) => s.name.toLowerCase().includes(term))
      return { body: { records: list, count: list.length, hasMore: false } }
    },
    'GET /api/campaigns/:id': (c) => {
      const id = Number(c.path.split('/').pop())
      const found = rows().find((r) => r.id === id)
      return found ? { body: found } : { status: 404, body: { error: 'ERR_NOT_FOUND', message: 'x' } }
    },
    'GET /api/contact-lists/list': () => ({ body: [{ id: 4, name: 'Clientes VIP' }] }),
    'GET /api/tags/list': () => ({ body: [{ id: 9, name: 'Lead' }] }),
    'GET /api/whatsapp': () => ({ body: [{ id: 3, name: 'Comercial' }] }),
    'GET /api/files/list': () => ({ body: [] }),
    'GET /api/campaign-settings': () => ({
      body: [{ key: 'variables', value: JSON.stringify([{ key: 'cupom', value: 'BF10' }]) }],
    }),
    ...extra,
  })
}

describe('CampaignsPage', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  test('lists every column with the spec fallbacks; the menu links it', async () => {
    serve()
    renderAt('/campaigns')
    const table = await screen.findByRole('table', { name: 'Campanhas' })
    const first = within(table).getByText('Black Friday 1').closest('tr')!
    expect(within(first).getByText('Inativa')).toBeInTheDocument()
    expect(within(first).getAllByText('Não definida')).toHaveLength(2)
    expect(within(first).getByText('Sem agendamento')).toBeInTheDocument()
    expect(within(first).getByText('Não concluída')).toBeInTheDocument()
    expect(within(first).getByText('Desabilitado')).toBeInTheDocument()
    const second = within(table).getByText('Natal').closest('tr')!
    expect(within(second).getByText('Clientes VIP')).toBeInTheDocument()
    expect(within(second).getByText('Comercial')).toBeInTheDocument()
    expect(within(second).getByText('21/11/2026 12:00:00')).toBeInTheDocument()
    expect(within(second).getByText('Habilitado')).toBeInTheDocument()
    // Actions per status: running can be cancelled, cancelled restarted.
    expect(within(second).getByRole('button', { name: 'Cancelar campanha: Natal' })).toBeInTheDocument()
    expect(within(table).getByRole('button', { name: 'Reiniciar campanha: Páscoa' })).toBeInTheDocument()
    expect(within(first).queryByRole('button', { name: /Relatório/ })).toBeNull()
    expect(screen.getByText('3 campanhas')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Campanhas' })).toHaveAttribute('href', '/campaigns')
  })

  test('live create, update and delete', async () => {
    serve(() => [])
    renderAt('/campaigns')
    expect(await screen.findByText('Nenhuma campanha ainda')).toBeInTheDocument()
    act(() =>
      dispatch(
        JSON.stringify({ event: 'company-7-campaign', data: { action: 'create', record: campaign(9) } }),
      ),
    )
    expect(await screen.findByText('Black Friday 9')).toBeInTheDocument()
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-campaign',
          data: { action: 'update', record: campaign(9, { status: 'FINALIZADA' }) },
        }),
      ),
    )
    expect(await screen.findByText('Finalizada')).toBeInTheDocument()
    act(() => dispatch(JSON.stringify({ event: 'company-7-campaign', data: { action: 'delete', id: 9 } })))
    await waitFor(() => expect(screen.queryByText('Black Friday 9')).toBeNull())
  })

  test('delete asks with the spec dialog, then removes the row', async () => {
    const calls = serve(undefined, { 'DELETE /api/campaigns/:id': () => ({ status: 204 }) })
    renderAt('/campaigns')
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir: Páscoa' }))
    const dialog = await screen.findByRole('alertdialog')
    expect(within(dialog).getByText('Exclusão de Registro')).toBeInTheDocument()
    expect(within(dialog).getByText('Deseja realmente excluir esse registro?')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Excluir' }))
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/campaigns/3')).toBe(true),
    )
    expect(await screen.findByText('Campanha excluída com sucesso.')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByText('Páscoa')).toBeNull())
  })

  test("a failed restart shows the server's message; cancel asks first", async () => {
    const calls = serve(undefined, {
      'POST /api/campaigns/:id/restart': () => ({
        status: 400,
        body: { error: 'ERR_CAMPAIGN_CONNECTION', message: 'A conexão da campanha está desconectada' },
      }),
      'POST /api/campaigns/:id/cancel': () => ({ body: { ...ROWS[1], status: 'CANCELADA' } }),
    })
    renderAt('/campaigns')
    await userEvent.click(await screen.findByRole('button', { name: 'Reiniciar campanha: Páscoa' }))
    expect(await screen.findByText('A conexão da campanha está desconectada')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar campanha: Natal' }))
    const dialog = await screen.findByRole('alertdialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar campanha' }))
    await waitFor(() => expect(calls.some((c) => c.path === '/api/campaigns/2/cancel')).toBe(true))
    expect(await screen.findByText('Campanha cancelada com sucesso.')).toBeInTheDocument()
  })

  test('create: name 2-50, the schedule as YYYY-MM-DD HH:mm:ss, empty strings and "Nenhuma" become null', async () => {
    const calls = serve(() => [], {
      'POST /api/campaigns': (c: { body: unknown }) => ({
        status: 201,
        body: campaign(11, c.body as object),
      }),
    })
    renderAt('/campaigns')
    await screen.findByText('Nenhuma campanha ainda')
    await userEvent.click(screen.getAllByRole('button', { name: 'Nova campanha' })[0]!)
    const dialog = await screen.findByRole('dialog')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'A')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Muito curto (mínimo 2 caracteres)')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'niversário')
    // The variables hint has the fixed ones and the custom ones of the campaign settings.
    await within(dialog).findByRole('button', { name: '{cupom}' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Msg. 1' }), 'Oi ')
    await userEvent.click(within(dialog).getByRole('button', { name: '{nome}' }))
    expect(within(dialog).getByRole('textbox', { name: 'Msg. 1' })).toHaveValue('Oi {nome}')
    // Confirmation tabs appear with the switch.
    expect(within(dialog).queryByRole('tab', { name: 'Confirmação 1' })).toBeNull()
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Confirmação' }))
    expect(within(dialog).getByRole('tab', { name: 'Confirmação 1' })).toBeInTheDocument()
    const when = dialog.querySelector('input[type="datetime-local"]') as HTMLInputElement
    await userEvent.type(when, '2030-05-04T09:30')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 3000 })
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.body).toMatchObject({
      name: 'Aniversário',
      confirmation: true,
      scheduledAt: '2030-05-04 09:30:00',
      contactListId: null,
      tagListId: null,
      whatsappId: null,
      fileListId: null,
      message1: 'Oi {nome}',
      message2: null,
      confirmationMessage1: null,
    })
    expect(await screen.findByText('Campanha salva com sucesso.')).toBeInTheDocument()
  })

  test('a running campaign opens read-only: the title says so and there is no save', async () => {
    serve()
    renderAt('/campaigns')
    await userEvent.click(await screen.findByRole('button', { name: 'Ver: Natal' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('Campanha - somente leitura')).toBeInTheDocument()
    expect(within(dialog).getByRole('textbox', { name: /Nome/ })).toHaveAttribute('readonly')
    expect(within(dialog).getByRole('switch', { name: 'Confirmação' })).toBeDisabled()
    expect(within(dialog).queryByRole('button', { name: 'Salvar' })).toBeNull()
  })

  test('scheduled: editable more than 1 hour ahead, read-only within the hour', async () => {
    const soon = campaign(5, {
      name: 'Logo',
      status: 'PROGRAMADA',
      scheduledAt: new Date(Date.now() + HOUR / 2).toISOString(),
    })
    const later = campaign(6, {
      name: 'Depois',
      status: 'PROGRAMADA',
      scheduledAt: new Date(Date.now() + 2 * HOUR).toISOString(),
    })
    serve(() => [soon, later, ROWS[2]!])
    renderAt('/campaigns')
    await userEvent.click(await screen.findByRole('button', { name: 'Ver: Logo' }))
    let dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('Campanha - somente leitura')).toBeInTheDocument()
    await userEvent.click(within(dialog).getAllByRole('button', { name: 'Fechar' }).at(-1)!)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await userEvent.click(screen.getByRole('button', { name: 'Editar: Depois' }))
    dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('Editar campanha')).toBeInTheDocument()
    expect(within(dialog).getByRole('textbox', { name: /Nome/ })).not.toHaveAttribute('readonly')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  test('a cancelled campaign can still be saved (spec 2): editable, it says what a save does, and PUTs', async () => {
    const calls = serve(undefined, {
      'PUT /api/campaigns/:id': (c: { body: unknown }) => ({
        body: campaign(3, { ...(c.body as object), status: 'PROGRAMADA' }),
      }),
    })
    renderAt('/campaigns')
    await userEvent.click(await screen.findByRole('button', { name: 'Editar: Páscoa' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('Editar campanha')).toBeInTheDocument()
    expect(within(dialog).getByText(/Esta campanha foi cancelada. Ao salvar/)).toBeInTheDocument()
    const name = within(dialog).getByRole('textbox', { name: /Nome/ })
    expect(name).not.toHaveAttribute('readonly')
    await userEvent.clear(name)
    await userEvent.type(name, 'Páscoa 2')
    const when = dialog.querySelector('input[type="datetime-local"]') as HTMLInputElement
    await userEvent.type(when, '2030-04-01T10:00')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 3000 })
    expect(calls.find((c) => c.method === 'PUT' && c.path === '/api/campaigns/3')?.body).toMatchObject({
      name: 'Páscoa 2',
      scheduledAt: '2030-04-01 10:00:00',
    })
    expect(await screen.findByText('Campanha salva com sucesso.')).toBeInTheDocument()
  })
})

describe('campaign route gating', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  const settings = (enabled: 'true' | 'false') =>
    defaultSettings().map((s) => (s.key === 'campaignsEnabled' ? { ...s, value: enabled } : s))

  test("sign-in with campaignsEnabled off clears 'cshow': no menu item, the routes lead to /tickets", async () => {
    serve()
    expect(localStorage.getItem(CSHOW_KEY)).not.toBeNull()
    resetState()
    signIn(makeUser({ id: 2, company: { ...makeUser().company, settings: settings('false') } }))
    expect(localStorage.getItem(CSHOW_KEY)).toBeNull()
    expect(campaignsShown.value).toBe(false)
    renderAt('/campaigns', <Where />)
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/tickets/))
    expect(screen.queryByRole('link', { name: 'Campanhas' })).toBeNull()
  })

  test('the report route is gated the same way', async () => {
    serve()
    resetState()
    signIn(makeUser({ id: 3, company: { ...makeUser().company, settings: settings('false') } }))
    renderAt('/campaign/2/report', <Where />)
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/tickets/))
  })

  test("the setting turned off while signed in clears 'cshow' and hides the menu item", async () => {
    serve()
    renderAt('/campaigns')
    await screen.findByRole('table', { name: 'Campanhas' })
    expect(screen.getByRole('link', { name: 'Campanhas' })).toBeInTheDocument()
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-settings',
          data: { action: 'update', setting: { key: 'campaignsEnabled', value: 'false' } },
        }),
      ),
    )
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Campanhas' })).toBeNull())
    expect(localStorage.getItem(CSHOW_KEY)).toBeNull()
  })

  test('a plan without campaigns: no menu item and the route redirects', async () => {
    serve()
    resetState()
    signIn(
      makeUser({
        id: 4,
        company: { ...makeUser().company, plan: { useCampaigns: false } as never },
      }),
    )
    renderAt('/campaigns', <Where />)
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent(/^\/tickets/))
    expect(screen.queryByRole('link', { name: 'Campanhas' })).toBeNull()
  })

  test('a non-admin sees the permission message and no menu item', async () => {
    serve()
    resetState()
    signIn(makeUser({ id: 5, profile: 'user' }))
    renderAt('/campaigns')
    expect(await screen.findByText(/permiss/i)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Campanhas' })).toBeNull()
    expect(screen.queryByRole('table', { name: 'Campanhas' })).toBeNull()
  })
})

describe('CampaignReportPage', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  test('delivered of valid, the progress bar and the cards', async () => {
    serve()
    renderAt('/campaign/2/report')
    expect(await screen.findByTestId('campaign-delivered')).toHaveTextContent('4 de 8 mensagens entregues')
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50')
    expect(screen.getByText('Contatos válidos')).toBeInTheDocument()
    expect(screen.getByText('Contatos inválidos')).toBeInTheDocument()
    // Confirmation is on for this campaign: its two cards show.
    expect(screen.getByText('Confirmações solicitadas')).toBeInTheDocument()
    expect(screen.getByText('Comercial')).toBeInTheDocument()
    expect(screen.getByText('Clientes VIP')).toBeInTheDocument()
    expect(screen.getByText('Não concluída')).toBeInTheDocument()
  })

  test('paused: the reason and Retomar, which calls resume', async () => {
    const paused = campaign(2, { status: 'EM_ANDAMENTO', pausedReason: 'restricted', pausedDetail: '463' })
    const calls = serve(() => [paused], {
      'POST /api/campaigns/:id/resume': () => ({
        body: { ...paused, pausedReason: null, pausedDetail: null },
      }),
    })
    renderAt('/campaign/2/report')
    expect(await screen.findByText('Campanha pausada')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Retomar' }))
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/campaigns/2/resume')).toBe(true),
    )
    await waitFor(() => expect(screen.queryByText('Campanha pausada')).toBeNull())
  })

  test('live updates; 5 s after an update to FINALIZADA the report is fetched again', async () => {
    let row = ROWS[1]!
    const calls = serve(() => [row])
    renderAt('/campaign/2/report')
    await screen.findByTestId('campaign-delivered')
    const gets = () => calls.filter((c) => c.method === 'GET' && c.path === '/api/campaigns/2').length
    expect(gets()).toBe(1)
    jest.useFakeTimers()
    try {
      const live = campaign(2, { ...row, counts: { ...row.counts, delivered: 6 } })
      act(() =>
        dispatch(JSON.stringify({ event: 'company-7-campaign', data: { action: 'update', record: live } })),
      )
      expect(screen.getByTestId('campaign-delivered')).toHaveTextContent('6 de 8 mensagens entregues')
      const done = { ...live, status: 'FINALIZADA' as const, completedAt: '2026-11-21T16:00:00.000Z' }
      act(() =>
        dispatch(JSON.stringify({ event: 'company-7-campaign', data: { action: 'update', record: done } })),
      )
      row = { ...done, counts: { ...done.counts, delivered: 8 } }
      act(() => jest.advanceTimersByTime(4999))
      expect(gets()).toBe(1)
      act(() => jest.advanceTimersByTime(1))
      expect(gets()).toBe(2)
    } finally {
      jest.useRealTimers()
    }
    await waitFor(() =>
      expect(screen.getByTestId('campaign-delivered')).toHaveTextContent('8 de 8 mensagens entregues'),
    )
  })
})
