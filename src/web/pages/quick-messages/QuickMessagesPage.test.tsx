import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { QuickMessageDto } from '../../../shared/api'
import { dispatch } from '../../api/live'
import { livePageSuite, makeUser, mockFetch, renderAt, signIn } from '../../test/utils'

const quick = (id: number, shortcode: string, extra: Partial<QuickMessageDto> = {}): QuickMessageDto => ({
  id,
  shortcode,
  message: `Mensagem ${shortcode}`,
  geral: false,
  status: true,
  isMedia: false,
  mediaPath: null,
  mediaName: null,
  mediaMime: null,
  mediaUrl: null,
  userId: 3,
  companyId: 7,
  createdAt: '',
  updatedAt: '',
  ...extra,
})

const ROWS = [
  quick(1, 'catalogo', { geral: true, mediaName: 'catalogo.pdf', isMedia: true, userId: 9 }),
  quick(2, 'pix'),
]

function serve(rows: () => QuickMessageDto[] = () => ROWS, extra = {}) {
  return mockFetch({
    'GET /api/quick-messages': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = rows().filter((r) => r.shortcode.includes(term) || r.message.toLowerCase().includes(term))
      return { body: { records: list, count: list.length, hasMore: false } }
    },
    ...extra,
  })
}

describe('QuickMessagesPage', () => {
  livePageSuite({ id: 3, companyId: 7, profile: 'user' })

  test('every user has it in the menu; the table shows shortcode, attachment name and actions', async () => {
    serve()
    renderAt('/quick-messages')
    const table = await screen.findByRole('table', { name: 'Respostas rápidas' })
    const row = (await within(table).findByText('/catalogo')).closest('tr')!
    expect(within(row).getByText('catalogo.pdf')).toBeInTheDocument()
    expect(within(row).getByText('Global')).toBeInTheDocument()
    // Another user's company-wide one: usable, not editable by an attendant.
    expect(within(row).queryByRole('button', { name: /Editar/ })).toBeNull()
    const mine = within(table).getByText('/pix').closest('tr')!
    expect(within(mine).getByText('Pessoal')).toBeInTheDocument()
    expect(within(mine).getByRole('button', { name: 'Editar: /pix' })).toBeInTheDocument()
    expect(screen.getByText('2 respostas rápidas')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Respostas rápidas' })).toHaveAttribute('href', '/quick-messages')
  })

  test("add: the shortcode is 'Obrigatório'; then POST, the attachment uploaded, the toast", async () => {
    signIn(makeUser({ id: 3, companyId: 7, profile: 'admin' }))
    const calls = serve(undefined, {
      'POST /api/quick-messages': (c: { body: unknown }) => ({
        status: 201,
        body: quick(9, 'prazo', c.body as Partial<QuickMessageDto>),
      }),
      'POST /api/quick-messages/:id/media-upload': () => ({
        body: quick(9, 'prazo', { mediaName: 'tabela.png', isMedia: true, geral: true }),
      }),
    })
    renderAt('/quick-messages')
    await screen.findByText('/pix')
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar' })[0]!)
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Obrigatório')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Atalho/ }), 'dois termos')
    expect(await within(dialog).findByText('O atalho não pode ter espaços.')).toBeInTheDocument()
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /Atalho/ }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Atalho/ }), 'prazo')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Mensagem/ }), 'Entregamos em 3 dias')
    await userEvent.click(within(dialog).getByRole('switch', { name: /Global/ }))
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'tabela.png', { type: 'image/png' })
    await userEvent.upload(within(dialog).getByTestId('quick-message-file'), file)
    expect(within(dialog).getByText('tabela.png')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação realizada com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/quick-messages')?.body).toEqual({
      shortcode: 'prazo',
      message: 'Entregamos em 3 dias',
      geral: true,
      status: true,
    })
    const upload = calls.find((c) => c.path === '/api/quick-messages/9/media-upload')?.body as FormData
    expect(upload.get('typeArch')).toBe('quickMessage')
    expect((upload.get('file') as File).name).toBe('tabela.png')
    const row = (await screen.findByText('/prazo')).closest('tr')!
    expect(within(row).getByText('tabela.png')).toBeInTheDocument()
  })

  test('an attendant is not offered to share one with the company, nor to change a company-wide one they own', async () => {
    serve(() => [quick(1, 'antiga', { geral: true }), quick(2, 'pix')])
    renderAt('/quick-messages')
    const table = await screen.findByRole('table', { name: 'Respostas rápidas' })
    const shared = (await within(table).findByText('/antiga')).closest('tr')!
    expect(within(shared).queryByRole('button', { name: /Editar/ })).toBeNull()
    expect(within(shared).queryByRole('button', { name: /Excluir/ })).toBeNull()
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar' })[0]!)
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('switch', { name: /Ativa/ })).toBeInTheDocument()
    expect(within(dialog).queryByRole('switch', { name: /Global/ })).toBeNull()
  })

  test('edit loads the record; a taken shortcode shows under the field; removing the attachment deletes it', async () => {
    let conflict = true
    const calls = serve(undefined, {
      'GET /api/quick-messages/:id': () => ({
        body: quick(2, 'pix', { mediaName: 'qr.png', isMedia: true }),
      }),
      'PUT /api/quick-messages/:id': (c: { body: unknown }) =>
        conflict
          ? {
              status: 409,
              body: {
                error: 'ERR_QUICK_MESSAGE_SHORTCODE_EXISTS',
                message: 'taken',
                fields: [{ field: 'shortcode', message: 'taken' }],
              },
            }
          : { body: quick(2, 'chavepix', { ...(c.body as object), mediaName: 'qr.png', isMedia: true }) },
      'DELETE /api/quick-messages/:id/media-upload': () => ({ body: quick(2, 'chavepix') }),
    })
    renderAt('/quick-messages')
    await userEvent.click(await screen.findByRole('button', { name: 'Editar: /pix' }))
    const dialog = await screen.findByRole('dialog')
    const code = await within(dialog).findByDisplayValue('pix')
    await userEvent.clear(code)
    await userEvent.type(code, 'catalogo')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(
      await within(dialog).findByText('Já existe uma resposta rápida com este atalho.'),
    ).toBeInTheDocument()
    conflict = false
    await userEvent.clear(code)
    await userEvent.type(code, 'chavepix')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remover anexo' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação atualizada com sucesso.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.path)).toEqual([
      '/api/quick-messages/2',
      '/api/quick-messages/2',
    ])
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/quick-messages/2/media-upload')).toBe(
      true,
    )
    expect(await screen.findByText('/chavepix')).toBeInTheDocument()
  })

  test("delete asks first ('Exclusão de Registro'), then removes the row", async () => {
    let rows = ROWS
    const calls = serve(() => rows, {
      'DELETE /api/quick-messages/:id': () => {
        rows = rows.filter((r) => r.id !== 2)
        return { body: { message: 'Quick message deleted' } }
      },
    })
    renderAt('/quick-messages')
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir: /pix' }))
    expect(await screen.findByText('Exclusão de Registro')).toBeInTheDocument()
    expect(screen.getByText('Deseja realmente excluir esse registro?')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Excluir' }))
    await waitFor(() => expect(screen.queryByText('/pix')).toBeNull())
    expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/api/quick-messages/2')
  })

  test('search is sent to the server; live create, update and delete show at once', async () => {
    const calls = serve()
    renderAt('/quick-messages')
    await screen.findByText('/pix')
    const frame = (data: unknown) =>
      act(() => dispatch(JSON.stringify({ event: 'company-7-quickmessage', data })))
    frame({ action: 'create', record: quick(5, 'boleto') })
    await waitFor(() => expect(screen.getByText('/boleto')).toBeInTheDocument())
    frame({ action: 'update', record: quick(2, 'chave') })
    await waitFor(() => expect(screen.queryByText('/pix')).toBeNull())
    expect(screen.getByText('/chave')).toBeInTheDocument()
    frame({ action: 'delete', id: 1 })
    await waitFor(() => expect(screen.queryByText('/catalogo')).toBeNull())
    await userEvent.type(screen.getByRole('searchbox', { name: 'Pesquisar...' }), 'bol')
    await waitFor(() => expect(calls.some((c) => c.query.get('searchParam') === 'bol')).toBe(true), {
      timeout: 2000,
    })
  })

  test('empty: says what quick messages are for and offers to add one', async () => {
    serve(() => [])
    renderAt('/quick-messages')
    expect(await screen.findByText('Nenhuma resposta rápida ainda')).toBeInTheDocument()
    expect(screen.getAllByRole('button', { name: 'Adicionar' })).toHaveLength(2)
  })
})
