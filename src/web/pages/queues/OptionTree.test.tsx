import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { QueueOptionDto } from '../../../shared/api'
import { Toaster } from '../../components/ui/Toast'
import { makeUser, mockFetch, resetState, signIn } from '../../test/utils'
import { descendants, moved, OptionTree } from './OptionTree'

type Row = {
  id: number
  parentId: number
  title: string
  message: string
  option: string
  mediaName: string | null
}

/** A small in-memory /queue-options, enough for the editor. */
function fakeOptionsApi() {
  let rows: Row[] = []
  let next = 1
  const tree = (parentId: number): QueueOptionDto[] =>
    rows
      .filter((r) => r.parentId === parentId)
      .sort((a, b) => Number(a.option) - Number(b.option))
      .map((r) => ({
        ...r,
        queueId: 9,
        mediaMime: null,
        mediaUrl: r.mediaName ? '/api/media/7/x.png?exp=1&sig=x' : null,
        children: tree(r.id),
        createdAt: '',
        updatedAt: '',
      }))
  const subtree = (id: number): number[] => [
    id,
    ...rows.filter((r) => r.parentId === id).flatMap((r) => subtree(r.id)),
  ]
  const calls = mockFetch({
    'GET /api/queue-options': (c) => ({ body: tree(Number(c.query.get('parentId') ?? -1)) }),
    'POST /api/queue-options': (c) => {
      const b = c.body as { parentId: number; title: string; message: string }
      const siblings = rows.filter((r) => r.parentId === b.parentId)
      const row = {
        id: next++,
        parentId: b.parentId,
        title: b.title,
        message: b.message,
        option: String(siblings.length + 1),
        mediaName: null,
      }
      rows.push(row)
      return { status: 201, body: row }
    },
    'POST /api/queue-options/reorder': (c) => {
      const b = c.body as { ids: number[] }
      b.ids.forEach((id, i) => {
        const r = rows.find((x) => x.id === id)!
        r.option = String(i + 1)
      })
      return { body: [] }
    },
    'PUT /api/queue-options/:id': (c) => {
      const r = rows.find((x) => x.id === Number(c.path.split('/').pop()))!
      Object.assign(r, c.body)
      return { body: r }
    },
    'DELETE /api/queue-options/:id': (c) => {
      const ids = subtree(Number(c.path.split('/').pop()))
      rows = rows.filter((r) => !ids.includes(r.id))
      return { body: { deleted: ids.length } }
    },
    'POST /api/queue-options/:id/media-upload': (c) => {
      const r = rows.find((x) => x.id === Number(c.path.split('/')[3]))!
      r.mediaName = ((c.body as FormData).get('file') as File).name
      return { body: r }
    },
    'DELETE /api/queue-options/:id/media-upload': (c) => {
      const r = rows.find((x) => x.id === Number(c.path.split('/')[3]))!
      r.mediaName = null
      return { body: r }
    },
  })
  return { calls, rows: () => rows }
}

function renderTree() {
  render(
    <>
      <OptionTree queueId={9} />
      <Toaster />
    </>,
  )
}

describe('OptionTree', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser())
  })
  afterEach(resetState)

  test('helpers', () => {
    expect(moved([1, 2, 3], 0, 1)).toEqual([2, 1, 3])
    expect(moved([1, 2, 3], 0, -1)).toEqual([1, 2, 3])
    expect(moved([1, 2, 3], 2, -1)).toEqual([1, 3, 2])
    const leaf = { children: [] } as unknown as QueueOptionDto
    expect(descendants({ children: [{ children: [leaf, leaf] }] } as unknown as QueueOptionDto)).toBe(3)
  })

  test('builds a two-level menu with the keyboard', async () => {
    const api = fakeOptionsApi()
    renderTree()
    expect(await screen.findByText('Nenhuma opção ainda')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar opção' }))
    await userEvent.type(screen.getByLabelText(/^Título/), 'Vendas{Enter}')
    expect(await screen.findByText('Vendas')).toBeInTheDocument()
    const vendas = screen.getByTestId('option-1')
    await userEvent.click(within(vendas).getByRole('button', { name: 'Adicionar sub-opção' }))
    await userEvent.type(screen.getByLabelText(/^Título/), 'Novos pedidos')
    await userEvent.type(screen.getByLabelText(/^Mensagem/), 'Um atendente já vem.')
    await userEvent.click(screen.getByRole('button', { name: 'Salvar opção' }))
    expect(await screen.findByText('Novos pedidos')).toBeInTheDocument()
    expect(within(screen.getByTestId('option-1')).getByText('1 sub-opção')).toBeInTheDocument()
    expect(api.rows()).toEqual([
      { id: 1, parentId: -1, title: 'Vendas', message: '', option: '1', mediaName: null },
      {
        id: 2,
        parentId: 1,
        title: 'Novos pedidos',
        message: 'Um atendente já vem.',
        option: '1',
        mediaName: null,
      },
    ])
    const posts = api.calls.filter((c) => c.method === 'POST')
    expect(posts.map((c) => c.body)).toEqual([
      { queueId: 9, parentId: -1, title: 'Vendas', message: '' },
      { queueId: 9, parentId: 1, title: 'Novos pedidos', message: 'Um atendente já vem.' },
    ])
  })

  test('a title is required; Escape cancels the inline form', async () => {
    const api = fakeOptionsApi()
    renderTree()
    await userEvent.click(await screen.findByRole('button', { name: 'Adicionar opção' }))
    await userEvent.click(screen.getByRole('button', { name: 'Salvar opção' }))
    expect(screen.getByText('Obrigatório')).toBeInTheDocument()
    expect(api.calls.filter((c) => c.method === 'POST')).toHaveLength(0)
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByLabelText(/^Título/)).not.toBeInTheDocument()
  })

  test('reorders, edits, attaches a file and deletes a subtree after confirming', async () => {
    const api = fakeOptionsApi()
    renderTree()
    for (const title of ['Vendas', 'Suporte']) {
      await userEvent.click(await screen.findByRole('button', { name: 'Adicionar opção' }))
      await userEvent.type(screen.getByLabelText(/^Título/), `${title}{Enter}`)
      await screen.findByText(title)
    }
    await userEvent.click(
      within(screen.getByTestId('option-1')).getByRole('button', { name: 'Adicionar sub-opção' }),
    )
    await userEvent.type(screen.getByLabelText(/^Título/), 'Novos{Enter}')
    await screen.findByText('Novos')

    await userEvent.click(
      within(screen.getByTestId('option-2')).getByRole('button', { name: 'Mover para cima' }),
    )
    await waitFor(() => expect(api.rows().find((r) => r.id === 2)?.option).toBe('1'))
    const reorder = api.calls.find((c) => c.path === '/api/queue-options/reorder')!
    expect(reorder.body).toEqual({ queueId: 9, parentId: -1, ids: [2, 1] })

    await userEvent.click(
      within(screen.getByTestId('option-2')).getByRole('button', { name: 'Editar opção' }),
    )
    const title = screen.getByLabelText(/^Título/)
    await userEvent.clear(title)
    await userEvent.type(title, 'Suporte técnico{Enter}')
    expect(await screen.findByText('Suporte técnico')).toBeInTheDocument()

    await userEvent.click(
      within(screen.getByTestId('option-2')).getByRole('button', { name: 'Editar opção' }),
    )
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'menu.png', { type: 'image/png' })
    await userEvent.upload(screen.getByTestId('option-file-2'), file)
    expect(await screen.findByText('Arquivo anexado')).toBeInTheDocument()
    expect(api.rows().find((r) => r.id === 2)?.mediaName).toBe('menu.png')
    await userEvent.click(screen.getByRole('button', { name: 'Remover arquivo' }))
    await waitFor(() => expect(api.rows().find((r) => r.id === 2)?.mediaName).toBeNull())
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar' }))

    await userEvent.click(
      within(screen.getByTestId('option-1')).getAllByRole('button', { name: 'Excluir opção' })[0]!,
    )
    expect(
      await screen.findByText('A opção “Vendas” e a sub-opção abaixo dela serão excluídas.'),
    ).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: /Excluir|Confirmar/ }))
    await waitFor(() => expect(api.rows().map((r) => r.title)).toEqual(['Suporte técnico']))
    expect(await screen.findByText('Opção excluída com sucesso')).toBeInTheDocument()
  })
})
