import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { FileListDto } from '../../../shared/files'
import { dispatch } from '../../api/live'
import { livePageSuite, makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { fileListBodyOf } from './FileListDialog'

const fileList = (id: number, name: string, extra: Partial<FileListDto> = {}): FileListDto => ({
  id,
  companyId: 7,
  name,
  message: '',
  options: [],
  createdAt: '',
  updatedAt: '',
  ...extra,
})

const ROWS = [
  fileList(1, 'Boletos'),
  fileList(2, 'Catálogo', {
    message: 'Veja',
    options: [
      {
        id: 5,
        fileId: 2,
        name: 'Capa',
        path: 'abcdefghijklmnopqr.png',
        mediaType: 'image/png',
        mediaName: 'capa.png',
        mediaUrl: '/api/media/7/x',
      },
    ],
  }),
]

function serve(rows: () => FileListDto[] = () => ROWS, extra = {}) {
  return mockFetch({
    'GET /api/files': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = rows().filter((r) => r.name.toLowerCase().includes(term))
      return { body: { files: list, count: list.length, hasMore: false } }
    },
    'GET /api/files/:id': (c) => {
      const id = Number(c.path.split('/').pop())
      const found = rows().find((r) => r.id === id)
      return found ? { body: found } : { status: 404, body: { error: 'ERR_NO_FILE_FOUND', message: 'x' } }
    },
    ...extra,
  })
}

describe('FilesPage', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  test('the table lists names with their options; search; the menu links it', async () => {
    const calls = serve()
    renderAt('/files')
    const table = await screen.findByRole('table', { name: 'Lista de arquivos' })
    expect(within(table).getByText('Boletos')).toBeInTheDocument()
    expect(within(table).getByText('Catálogo')).toBeInTheDocument()
    expect(within(table).getByText('1 opção · Veja')).toBeInTheDocument()
    expect(screen.getByText('2 listas')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Lista de arquivos' })).toHaveAttribute('href', '/files')
    await userEvent.type(screen.getByPlaceholderText('Pesquisar...'), 'cat')
    await waitFor(() => expect(calls.some((c) => c.query.get('searchParam') === 'cat')).toBe(true))
    await waitFor(() => expect(within(table).queryByText('Boletos')).toBeNull())
  })

  test('add: name (3+ characters) and message required; options with a file: POST, then the spec multipart upload, then the toast', async () => {
    const calls = serve(undefined, {
      'POST /api/files': (c: { body: unknown }) => {
        const body = c.body as { name: string; options: { name: string }[] }
        return {
          status: 201,
          body: fileList(9, body.name, {
            options: body.options.map((o, i) => ({
              id: 20 + i,
              fileId: 9,
              name: o.name,
              path: null,
              mediaType: null,
              mediaName: null,
              mediaUrl: null,
            })),
          }),
        }
      },
      'POST /api/files/uploadList/:id': () => ({ body: fileList(9, 'Promoções') }),
    })
    renderAt('/files')
    await screen.findByText('Boletos')
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar' })[0]!)
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    // Spec 3: the name and the message are required; a name needs 3 characters.
    expect(await within(dialog).findAllByText('Obrigatório')).toHaveLength(2)
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'Pr')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Mensagem/ }), '   ')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('nome muito curto')).toBeInTheDocument()
    expect(within(dialog).getByText('Obrigatório')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /Nome/ }))
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /Mensagem/ }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'Promoções')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Mensagem/ }), 'Confira')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Adicionar opção' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Adicionar opção' }))
    const names = within(dialog).getAllByRole('textbox', { name: 'Nome da opção' })
    await userEvent.type(names[0]!, 'Sem arquivo')
    await userEvent.type(names[1]!, 'Tabela')
    const file = new File(['%PDF-1.4'], 'tabela.pdf', { type: 'application/pdf' })
    await userEvent.upload(within(dialog).getAllByTestId('file-option-input')[1]!, file)
    expect(within(dialog).getByText('tabela.pdf')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação realizada com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST' && c.path === '/api/files')?.body).toEqual({
      name: 'Promoções',
      message: 'Confira',
      options: [{ name: 'Sem arquivo' }, { name: 'Tabela' }],
    })
    const upload = calls.find((c) => c.path === '/api/files/uploadList/9')!
    const form = upload.body as FormData
    expect(form.get('fileId')).toBe('9')
    expect(form.get('typeArch')).toBe('fileList')
    expect(form.getAll('id')).toEqual(['21'])
    expect(form.getAll('name')).toEqual(['Tabela'])
    expect(form.getAll('mediaType')).toEqual(['application/pdf'])
    expect((form.getAll('files')[0] as File).name).toBe('tabela.pdf')
  })

  test('edit: PUT keeps option ids, a removed attachment says so; delete asks and removes', async () => {
    const calls = serve(undefined, {
      'PUT /api/files/:id': (c: { body: unknown }) => ({
        body: fileList(2, (c.body as { name: string }).name),
      }),
      'DELETE /api/files/:id': () => ({ body: { message: 'ok' } }),
    })
    renderAt('/files')
    await userEvent.click(await screen.findByRole('button', { name: 'Editar: Catálogo' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('capa.png')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remover anexo' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação atualizada com sucesso.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      name: 'Catálogo',
      message: 'Veja',
      options: [{ id: 5, name: 'Capa', removeAttachment: true }],
    })
    await userEvent.click(screen.getByRole('button', { name: 'Excluir: Boletos' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(within(confirm).getByText('Exclusão de Registro')).toBeInTheDocument()
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }))
    expect(await screen.findByText('Arquivo excluído com sucesso!')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/files/1')).toBe(true)
  })

  test('live: company-{id}-file create and delete', async () => {
    serve()
    renderAt('/files')
    const table = await screen.findByRole('table', { name: 'Lista de arquivos' })
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-file',
          data: { action: 'create', fileList: fileList(3, 'Avisos') },
        }),
      ),
    )
    expect(await within(table).findByText('Avisos')).toBeInTheDocument()
    act(() => dispatch(JSON.stringify({ event: 'company-7-file', data: { action: 'delete', fileId: 1 } })))
    await waitFor(() => expect(within(table).queryByText('Boletos')).toBeNull())
  })

  test('an attendant has no menu item and no screen', async () => {
    serve()
    resetState()
    signIn(makeUser({ id: 2, profile: 'user' }))
    renderAt('/files')
    expect(await screen.findByText('Você não tem permissão para acessar este recurso.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Lista de arquivos' })).toBeNull()
  })

  test('fileListBodyOf: new options have no id; a kept attachment is not removed', () => {
    const initial = {
      name: 'x',
      message: '',
      options: [{ uid: 1, id: 5, name: 'a', mediaName: 'a.png', file: null }],
    }
    expect(
      fileListBodyOf(
        { ...initial, options: [...initial.options, { uid: 2, name: ' b ', mediaName: null, file: null }] },
        initial,
      ),
    ).toEqual({
      name: 'x',
      message: '',
      options: [{ id: 5, name: 'a' }, { name: 'b' }],
    })
  })
})
