import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { TagDto } from '../../../shared/api'
import { dispatch } from '../../api/live'
import { livePageSuite, makeUser, renderAt, signIn } from '../../test/utils'
import { serveTags, tag } from './fixtures'

const TAGS = [
  tag(1, 'Entrega', { kanban: 1, ticketsCount: 4 }),
  tag(2, 'VIP', { color: '#8B5CF6', ticketsCount: 2 }),
]

const serve = (rows: () => TagDto[] = () => TAGS, extra: Parameters<typeof serveTags>[1] = {}) =>
  serveTags(rows, extra)

describe('TagsPage', () => {
  livePageSuite({ id: 3, companyId: 7, profile: 'user' })

  test('lists the tags with kind and ticket count, the count in the title; every user may open it', async () => {
    serve()
    renderAt('/tags')
    const table = await screen.findByRole('table', { name: 'Tags' })
    const row = (await within(table).findByText('Entrega')).closest('tr')!
    expect(within(row).getByText('Kanban')).toBeInTheDocument()
    expect(within(row).getByText('4')).toBeInTheDocument()
    expect(screen.getByText('2 tags')).toBeInTheDocument()
    // The menu has the item for an attendant too.
    expect(screen.getByRole('link', { name: 'Tags' })).toHaveAttribute('href', '/tags')
  })

  test("add: a name under 3 characters is 'Mensagem muito curta'; then the spec's body and toast", async () => {
    signIn(makeUser({ id: 3, companyId: 7, profile: 'admin' }))
    const calls = serve(undefined, {
      'POST /api/tags': (c) => ({
        status: 201,
        body: tag(9, 'Urgente', c.body as Partial<TagDto>),
      }),
    })
    renderAt('/tags')
    await screen.findByText('Entrega')
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar tag' })[0]!)
    const dialog = await screen.findByRole('dialog')
    const name = within(dialog).getByRole('textbox', { name: /Nome/ })
    await userEvent.type(name, 'Ur')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Mensagem muito curta')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.type(name, 'gente')
    await userEvent.click(within(dialog).getByRole('radio', { name: '#EF4444' }))
    await userEvent.click(within(dialog).getByRole('switch', { name: /Raia do Kanban/ }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação realizada com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Urgente',
      color: '#EF4444',
      kanban: 1,
    })
    expect(await screen.findByText('Urgente')).toBeInTheDocument()
  })

  test('edit loads the tag and saves with PUT; a taken name shows under the field', async () => {
    signIn(makeUser({ id: 3, companyId: 7, profile: 'admin' }))
    const calls = serve(undefined, {
      'GET /api/tags/:id': () => ({ body: TAGS[1] }),
      'PUT /api/tags/:id': () => ({
        status: 409,
        body: {
          error: 'ERR_TAG_NAME_ALREADY_EXISTS',
          message: 'taken',
          fields: [{ field: 'name', message: 'taken' }],
        },
      }),
    })
    renderAt('/tags')
    await userEvent.click(await screen.findByRole('button', { name: 'Editar: VIP' }))
    const dialog = await screen.findByRole('dialog')
    const name = await within(dialog).findByDisplayValue('VIP')
    await userEvent.clear(name)
    await userEvent.type(name, 'Entrega')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Já existe uma tag com este nome.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PUT')?.path).toBe('/api/tags/2')
  })

  test('delete asks first, then removes the row', async () => {
    signIn(makeUser({ id: 3, companyId: 7, profile: 'admin' }))
    let rows = TAGS
    const calls = serve(() => rows, {
      'DELETE /api/tags/:id': () => {
        rows = rows.filter((t) => t.id !== 2)
        return { body: { message: 'Tag deleted' } }
      },
    })
    renderAt('/tags')
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir: VIP' }))
    expect(await screen.findByText('Exclusão de Registro')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Excluir' }))
    await waitFor(() => expect(screen.queryByText('VIP')).toBeNull())
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/tags/2')
  })

  test('an attendant adds ordinary tags only: no edit or delete, no lane switch', async () => {
    const calls = serve(undefined, {
      'POST /api/tags': (c) => ({ status: 201, body: tag(9, 'Retorno', c.body as Partial<TagDto>) }),
    })
    renderAt('/tags')
    const table = await screen.findByRole('table', { name: 'Tags' })
    await within(table).findByText('VIP')
    expect(screen.queryByRole('button', { name: /Editar/ })).toBeNull()
    expect(screen.queryByRole('button', { name: /Excluir/ })).toBeNull()
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar tag' })[0]!)
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).queryByRole('switch', { name: /Raia do Kanban/ })).toBeNull()
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'Retorno')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação realizada com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Retorno', kanban: 0 })
  })

  test('live: a tag created, renamed or deleted elsewhere shows at once', async () => {
    serve()
    renderAt('/tags')
    await screen.findByText('Entrega')
    const frame = (data: unknown) => act(() => dispatch(JSON.stringify({ event: 'company-7-tag', data })))
    frame({ action: 'create', tag: tag(5, 'Atacado') })
    expect(screen.getByText('Atacado')).toBeInTheDocument()
    frame({ action: 'update', tag: { ...tag(2, 'Ouro'), ticketsCount: undefined } })
    expect(screen.getByText('Ouro')).toBeInTheDocument()
    expect(screen.queryByText('VIP')).toBeNull()
    frame({ action: 'delete', tagId: 1 })
    expect(screen.queryByText('Entrega')).toBeNull()
    expect(screen.getByText('2 tags')).toBeInTheDocument()
  })

  test('empty: says what tags are for and offers to add one', async () => {
    serve(() => [])
    renderAt('/tags')
    expect(await screen.findByText('Nenhuma tag ainda')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: 'Adicionar tag' })).toHaveLength(2)
  })
})
