import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { TagDto } from '../../../shared/api'
import { dispatch } from '../../api/live'
import { livePageSuite, makeUser, renderAt, signIn } from '../../test/utils'
import { serveTags, tag } from '../tags/fixtures'

/** A lane: a tag with kanban 1. */
const lane = (id: number, name: string, extra: Partial<TagDto> = {}) => tag(id, name, { kanban: 1, ...extra })

const LANES = [lane(1, 'Negociação', { color: '#EF4444', ticketsCount: 3 }), lane(2, 'Fechado')]

const serve = (rows: () => TagDto[] = () => LANES, extra: Parameters<typeof serveTags>[1] = {}) =>
  serveTags(rows, extra)

describe('LanesPage', () => {
  livePageSuite({ id: 3, companyId: 7, profile: 'user' })

  test('/TagsKanban and /tagsKanban list the lanes (GET /tags/?kanban=1) as cards with the count', async () => {
    const calls = serve()
    renderAt('/TagsKanban')
    const list = await screen.findByRole('list', { name: 'Raias do Kanban' })
    const card = (await within(list).findByText('Negociação')).closest('li')!
    expect(within(card).getByText('3 tickets')).toBeInTheDocument()
    expect(screen.getByText('2 raias')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/tags/')?.query.get('kanban')).toBe('1')
  })

  test('add: the tags dialog, starting as a lane; saved with kanban 1 and the spec toast', async () => {
    signIn(makeUser({ id: 3, companyId: 7, profile: 'admin' }))
    const calls = serve(undefined, {
      'POST /api/tags': (c) => ({ status: 201, body: lane(9, 'Pós-venda', c.body as Partial<TagDto>) }),
    })
    renderAt('/tagsKanban')
    await screen.findByText('Negociação')
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar raia' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('switch', { name: /Raia do Kanban/ })).toBeChecked()
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'Pós-venda')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação realizada com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Pós-venda', kanban: 1 })
    expect(await screen.findByText('Pós-venda')).toBeInTheDocument()
  })

  test('delete asks first; live: a lane turned into an ordinary tag leaves, a new lane arrives', async () => {
    signIn(makeUser({ id: 3, companyId: 7, profile: 'admin' }))
    let rows = LANES
    serve(() => rows, {
      'DELETE /api/tags/:id': () => {
        rows = rows.filter((t) => t.id !== 2)
        return { body: { message: 'Tag deleted' } }
      },
    })
    renderAt('/tagsKanban')
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir: Fechado' }))
    expect(await screen.findByText('Exclusão de Registro')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Excluir' }))
    await waitFor(() => expect(screen.queryByText('Fechado')).toBeNull())
    const frame = (data: unknown) => act(() => dispatch(JSON.stringify({ event: 'company-7-tag', data })))
    frame({ action: 'update', tag: tag(1, 'Negociação') })
    expect(screen.queryByText('Negociação')).toBeNull()
    frame({ action: 'create', tag: lane(4, 'Entregue') })
    frame({ action: 'create', tag: tag(5, 'Só uma tag') })
    expect(screen.getByText('Entregue')).toBeInTheDocument()
    expect(screen.queryByText('Só uma tag')).toBeNull()
  })

  test('an attendant sees the lanes but is offered no add, edit or delete (lanes are the admins`)', async () => {
    serve()
    renderAt('/tagsKanban')
    await screen.findByText('Negociação')
    expect(screen.queryByRole('button', { name: 'Adicionar raia' })).toBeNull()
    expect(screen.queryByRole('button', { name: /Editar|Excluir/ })).toBeNull()
    expect(screen.getByRole('link', { name: /quadro|board/i })).toBeInTheDocument()
  })

  test('empty: says what lanes are for and offers to add one', async () => {
    signIn(makeUser({ id: 3, companyId: 7, profile: 'admin' }))
    serve(() => [])
    renderAt('/tagsKanban')
    expect(await screen.findByText('Nenhuma raia ainda')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: 'Adicionar raia' })).toHaveLength(2)
  })
})
