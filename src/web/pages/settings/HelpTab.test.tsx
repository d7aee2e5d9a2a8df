import { describe, expect, test } from 'bun:test'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { HelpDto } from '../../../shared/helps'
import { defaultSettings } from '../../../shared/settings'
import { livePageSuite, mockFetch, renderAt } from '../../test/utils'

const help = (id: number, title: string, video = 'dQw4w9WgXcQ', description = ''): HelpDto => ({
  id,
  title,
  description,
  video,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
})

const SAVE_FAILED =
  'Não foi possível realizar a operação. Verifique se já existe uma ajuda com o mesmo nome ou se os campos foram preenchidos corretamente'

function serve(rows: HelpDto[], extra = {}) {
  return mockFetch({
    'GET /api/settings': () => ({ body: defaultSettings() }),
    'GET /api/helps': () => ({ body: { records: rows, count: rows.length, hasMore: false } }),
    ...extra,
  })
}

async function openTab() {
  renderAt('/settings')
  await userEvent.click(await screen.findByRole('tab', { name: 'Ajuda' }))
  return screen.findByRole('table', { name: 'Ajuda' })
}

describe('Settings, Help tab (super user)', () => {
  livePageSuite({ id: 1, companyId: 1, profile: 'admin', super: true })

  test('lists the help videos; add validates, accepts a link and posts it', async () => {
    const calls = serve([help(1, 'Primeiros passos', 'dQw4w9WgXcQ', 'Como começar')], {
      'POST /api/helps': (c: { body: { title: string; description: string } }) => ({
        status: 201,
        body: help(2, c.body.title, 'abcdefghijk', c.body.description),
      }),
    })
    const table = await openTab()
    expect(within(table).getByText('Primeiros passos')).toBeInTheDocument()
    expect(within(table).getByText('Como começar')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar vídeo' }))
    const dialog = await screen.findByRole('dialog')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(within(dialog).getAllByText('Obrigatório')).toHaveLength(2)
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Título/ }), 'Tags')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Vídeo/ }), 'https://vimeo.com/1')
    expect(
      await within(dialog).findByText('Informe um link do YouTube ou o código do vídeo (11 caracteres).'),
    ).toBeInTheDocument()
    await userEvent.clear(within(dialog).getByRole('textbox', { name: /Vídeo/ }))
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: /Vídeo/ }),
      'https://youtu.be/abcdefghijk',
    )
    // The preview shows which video the link names.
    expect(within(dialog).getByText('abcdefghijk')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Operação realizada com sucesso!')).toBeInTheDocument()
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.body).toEqual({ title: 'Tags', description: '', video: 'https://youtu.be/abcdefghijk' })
    expect(await within(table).findByText('Tags')).toBeInTheDocument()
  })

  test("a duplicate title: the spec's save failure ('help variant') and the message under the title", async () => {
    serve([help(1, 'Filas')], {
      'PUT /api/helps/:id': () => ({
        status: 409,
        body: {
          error: 'ERR_HELP_DUPLICATED',
          message: 'Another help video has this title',
          fields: [{ field: 'title', message: 'Another help video has this title' }],
        },
      }),
    })
    const table = await openTab()
    await userEvent.click(within(table).getByRole('button', { name: 'Editar: Filas' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('textbox', { name: /Título/ })).toHaveValue('Filas')
    expect(within(dialog).getByRole('textbox', { name: /Vídeo/ })).toHaveValue('dQw4w9WgXcQ')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText(SAVE_FAILED)).toBeInTheDocument()
    expect(within(dialog).getByText('Já existe uma ajuda com este título.')).toBeInTheDocument()
    expect(screen.getByRole('dialog')).toBeInTheDocument()
  })

  test('delete asks first; a failure is the spec message and the row stays', async () => {
    let fail = true
    serve([help(1, 'Filas'), help(2, 'Tags')], {
      'DELETE /api/helps/:id': () =>
        fail ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'x' } } : { body: { message: 'ok' } },
    })
    const table = await openTab()
    await userEvent.click(within(table).getByRole('button', { name: 'Excluir: Tags' }))
    const confirm = await screen.findByRole('alertdialog')
    expect(within(confirm).getByText('Exclusão de Registro')).toBeInTheDocument()
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }))
    expect(await screen.findByText('Não foi possível realizar a operação')).toBeInTheDocument()
    expect(within(table).getByText('Tags')).toBeInTheDocument()
    fail = false
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }))
    expect(await screen.findByText('Vídeo de ajuda excluído com sucesso.')).toBeInTheDocument()
    await waitFor(() => expect(within(table).queryByText('Tags')).toBeNull())
  })
})

describe('Settings, Help tab (not a super user)', () => {
  livePageSuite({ id: 2, companyId: 7, profile: 'admin', super: false })

  test('an admin who is not a super user has no Help tab', async () => {
    serve([])
    renderAt('/settings')
    expect(await screen.findByRole('tab', { name: 'Opções' })).toBeInTheDocument()
    expect(screen.queryByRole('tab', { name: 'Ajuda' })).toBeNull()
  })
})
