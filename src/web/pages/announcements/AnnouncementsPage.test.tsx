import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import type { AnnouncementDto } from '../../../shared/announcements'
import { dispatch } from '../../api/live'
import { livePageSuite, makeUser, mockFetch, renderAt, signIn } from '../../test/utils'

const announcement = (id: number, title: string, extra: Partial<AnnouncementDto> = {}): AnnouncementDto => ({
  id,
  title,
  text: `Texto de ${title}`,
  priority: 3,
  status: true,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  createdAt: `2026-11-${String(id).padStart(2, '0')}T10:00:00.000Z`,
  updatedAt: `2026-11-${String(id).padStart(2, '0')}T10:00:00.000Z`,
  ...extra,
})

const ROWS = [
  announcement(3, 'Manutenção', { priority: 1 }),
  announcement(2, 'Novidade', { priority: 2, status: false }),
  announcement(1, 'Lembrete', {
    mediaName: 'banner.png',
    mediaPath: 'x.png',
    mediaUrl: '/api/media/1/x.png',
  }),
]

function serve(rows: () => AnnouncementDto[] = () => ROWS, extra = {}) {
  return mockFetch({
    'GET /api/announcements/': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = rows().filter(
        (r) => r.title.toLowerCase().includes(term) || r.text.toLowerCase().includes(term),
      )
      return { body: { records: list, count: list.length, hasMore: false } }
    },
    'GET /api/announcements/feed': () => ({ body: { records: [], hasMore: false } }),
    ...extra,
  })
}

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>
}

const rowOf = async (title: string) => (await screen.findByText(title)).closest('tr') as HTMLElement

describe('AnnouncementsPage', () => {
  livePageSuite({ id: 1, companyId: 1, profile: 'admin', super: true })

  test('a super user has it in the menu; the table shows priority by colour, status and actions', async () => {
    serve()
    renderAt('/announcements')
    const table = await screen.findByRole('table', { name: 'Informativos' })
    const high = (await within(table).findByText('Manutenção')).closest('tr')!
    expect(within(high).getByText('Alta').closest('span')?.className).toContain('bg-danger-soft')
    expect(within(high).getByText('Ativo')).toBeInTheDocument()
    const medium = within(table).getByText('Novidade').closest('tr')!
    expect(within(medium).getByText('Média').closest('span')?.className).toContain('bg-warning-soft')
    expect(within(medium).getByText('Inativo')).toBeInTheDocument()
    const low = within(table).getByText('Lembrete').closest('tr')!
    expect(within(low).getByText('Baixa').closest('span')?.className).toContain('bg-surface-2')
    expect(within(low).getByLabelText('Com imagem')).toBeInTheDocument()
    expect(within(low).getByRole('button', { name: 'Editar: Lembrete' })).toBeInTheDocument()
    expect(screen.getByText('3 informativos')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Informativos' })).toHaveAttribute('href', '/announcements')
  })

  test("add: title and text are 'Obrigatório'; then POST, the image uploaded, the toast", async () => {
    const calls = serve(undefined, {
      'POST /api/announcements/': (c: { body: unknown }) => ({
        status: 201,
        body: announcement(9, 'Feriado', c.body as Partial<AnnouncementDto>),
      }),
      'POST /api/announcements/:id/media-upload': () => ({
        body: announcement(9, 'Feriado', {
          priority: 2,
          mediaName: 'aviso.png',
          mediaPath: 'y.png',
          mediaUrl: '/y',
        }),
      }),
    })
    renderAt('/announcements')
    await screen.findByText('Manutenção')
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar' })[0]!)
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findAllByText('Obrigatório')).toHaveLength(2)
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Título/ }), 'Feriado')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Texto/ }), 'Linha 1{enter}Linha 2')
    // The priority select starts at 'Baixa' (3); choose 'Média'.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Prioridade' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Média' }))
    // A gif is refused before any upload.
    const gif = new File([new Uint8Array([0x47, 0x49, 0x46])], 'anim.gif', { type: 'image/gif' })
    await userEvent.upload(within(dialog).getByTestId('announcement-file'), gif, { applyAccept: false })
    expect(within(dialog).getByText('Envie uma imagem .png, .jpg ou .jpeg.')).toBeInTheDocument()
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'aviso.png', { type: 'image/png' })
    await userEvent.upload(within(dialog).getByTestId('announcement-file'), png)
    expect(within(dialog).getByText('aviso.png')).toBeInTheDocument()
    expect(within(dialog).queryByText('Envie uma imagem .png, .jpg ou .jpeg.')).toBeNull()
    expect(within(dialog).getByTestId('announcement-preview')).toHaveAttribute('src')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Informativo salvo com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/announcements/')?.body).toEqual({
      title: 'Feriado',
      text: 'Linha 1\nLinha 2',
      priority: 2,
      status: true,
    })
    const upload = calls.find((c) => c.path === '/api/announcements/9/media-upload')?.body as FormData
    expect((upload.get('file') as File).name).toBe('aviso.png')
    // The new one goes first (newest first).
    const rows = within(screen.getByRole('table', { name: 'Informativos' })).getAllByRole('row')
    expect(within(rows[1]!).getByText('Feriado')).toBeInTheDocument()
  })

  test('edit loads the record; switching it off and removing the image saves both', async () => {
    const calls = serve(undefined, {
      'GET /api/announcements/:id': () => ({ body: ROWS[2] }),
      'PUT /api/announcements/:id': (c: { body: unknown }) => ({
        body: { ...ROWS[2], ...(c.body as object) },
      }),
      'DELETE /api/announcements/:id/media-upload': () => ({
        body: { ...ROWS[2], status: false, mediaName: null, mediaPath: null, mediaUrl: null },
      }),
    })
    renderAt('/announcements')
    await userEvent.click(await screen.findByRole('button', { name: 'Editar: Lembrete' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByDisplayValue('Lembrete')).toBeInTheDocument()
    expect(within(dialog).getByText('banner.png')).toBeInTheDocument()
    expect(within(dialog).getByTestId('announcement-preview')).toHaveAttribute('src', '/api/media/1/x.png')
    await userEvent.click(within(dialog).getByRole('switch', { name: /Ativo/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remover' }))
    expect(within(dialog).queryByTestId('announcement-preview')).toBeNull()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Informativo salvo com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      title: 'Lembrete',
      text: 'Texto de Lembrete',
      priority: 3,
      status: false,
    })
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/announcements/1/media-upload')).toBe(
      true,
    )
    const row = await rowOf('Lembrete')
    await waitFor(() => expect(within(row).getByText('Inativo')).toBeInTheDocument())
  })

  test("delete asks first ('Exclusão de Registro'), then removes the row with the toast", async () => {
    let rows = ROWS
    const calls = serve(() => rows, {
      'DELETE /api/announcements/:id': () => {
        rows = rows.filter((r) => r.id !== 2)
        return { body: { message: 'Announcement deleted' } }
      },
    })
    renderAt('/announcements')
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir: Novidade' }))
    expect(await screen.findByText('Exclusão de Registro')).toBeInTheDocument()
    expect(screen.getByText('Deseja realmente excluir esse registro?')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Excluir' }))
    await waitFor(() => expect(screen.queryByText('Novidade')).toBeNull())
    expect(await screen.findByText('Informativo excluído com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/announcements/2')
  })

  test('live: create goes first, update replaces, delete removes; search goes to the server', async () => {
    const calls = serve()
    renderAt('/announcements')
    await screen.findByText('Manutenção')
    const frame = (data: unknown) => act(() => dispatch(JSON.stringify({ event: 'announcement', data })))
    frame({ action: 'create', record: announcement(20, 'Urgente', { priority: 1 }) })
    await waitFor(() => expect(screen.getByText('Urgente')).toBeInTheDocument())
    const rows = within(screen.getByRole('table', { name: 'Informativos' })).getAllByRole('row')
    expect(within(rows[1]!).getByText('Urgente')).toBeInTheDocument()
    frame({ action: 'update', record: { ...ROWS[0], title: 'Manutenção adiada' } })
    await waitFor(() => expect(screen.getByText('Manutenção adiada')).toBeInTheDocument())
    expect(screen.queryByText('Manutenção')).toBeNull()
    frame({ action: 'delete', id: 1 })
    await waitFor(() => expect(screen.queryByText('Lembrete')).toBeNull())
    await userEvent.type(screen.getByRole('searchbox', { name: 'Pesquisar...' }), 'feri')
    await waitFor(() => expect(calls.some((c) => c.query.get('searchParam') === 'feri')).toBe(true), {
      timeout: 2000,
    })
  })

  test('empty: says what announcements are for and offers to add one', async () => {
    serve(() => [])
    renderAt('/announcements')
    expect(await screen.findByText('Nenhum informativo ainda')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: 'Adicionar' })).toHaveLength(2)
  })

  test("a user who is not super gets the spec's message and goes to / after 1 second; no menu item", async () => {
    signIn(makeUser({ id: 5, companyId: 7, profile: 'admin', super: false }))
    const calls = serve()
    renderAt('/announcements', <Where />)
    expect(
      await screen.findAllByText(
        'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
      ),
    ).not.toHaveLength(0)
    expect(screen.getByTestId('where').textContent).toBe('/announcements')
    // '/' is the dashboard for an admin
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/'), { timeout: 2000 })
    expect(calls.some((c) => c.path === '/api/announcements/')).toBe(false)
    expect(screen.queryByRole('link', { name: 'Informativos' })).toBeNull()
  })
})
