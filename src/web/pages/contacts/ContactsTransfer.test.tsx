import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { livePageSuite, mockFetch, renderAt } from '../../test/utils'

describe('ContactsPage: import and export (an attendant)', () => {
  livePageSuite({ id: 3, companyId: 7, profile: 'user' })

  test('import and export are administration: an attendant sees neither', async () => {
    mockFetch({
      'GET /api/contacts/': () => ({
        body: {
          contacts: [{ id: 1, name: 'Ana', number: '551199****', email: '' }],
          count: 1,
          hasMore: false,
        },
      }),
    })
    renderAt('/contacts')
    expect(await screen.findByText('Ana')).toBeInTheDocument()
    for (const name of ['Importar', 'Exportar CSV', 'Exportar Excel (.xlsx)'])
      expect(screen.queryByRole('button', { name })).toBeNull()
  })
})

describe('ContactsPage: import and export (an admin)', () => {
  livePageSuite({ id: 3, companyId: 7, profile: 'admin' })
  const { createObjectURL, revokeObjectURL } = URL
  const { click } = HTMLAnchorElement.prototype
  // happy-dom follows a clicked download link (a browser saves the file instead), which would leave every later
  // test of the run on a blob: page: the clicks are recorded, not followed.
  const downloads: string[] = []
  beforeEach(() => {
    downloads.length = 0
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      downloads.push(this.download)
    }
  })
  afterEach(() => {
    URL.createObjectURL = createObjectURL
    URL.revokeObjectURL = revokeObjectURL
    HTMLAnchorElement.prototype.click = click
  })

  test('export downloads csv or xlsx from the server; import shows the result dialog', async () => {
    const calls = mockFetch({
      'GET /api/contacts/': () => ({ body: { contacts: [], count: 0, hasMore: false } }),
      'GET /api/contacts/export': () => ({ body: 'nome,numero,email\n' }),
      'POST /api/contacts/import': () => ({
        status: 202,
        body: {
          id: 5,
          target: 'contacts',
          contactListId: null,
          fileName: 'c.xls',
          state: 'done',
          total: 3,
          processed: 3,
          created: 1,
          updated: 1,
          rejectedCount: 1,
          rejected: [{ row: 4, field: 'email', reason: 'invalid' }],
          error: null,
          createdAt: '',
          updatedAt: '',
        },
      }),
    })
    URL.createObjectURL = () => 'blob:x'
    URL.revokeObjectURL = () => {}
    renderAt('/contacts')
    await userEvent.click(await screen.findByRole('button', { name: 'Exportar CSV' }))
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/api/contacts/export' && c.query.get('format') === 'csv')).toBe(
        true,
      ),
    )
    await userEvent.click(screen.getByRole('button', { name: 'Exportar Excel (.xlsx)' }))
    await waitFor(() => expect(calls.some((c) => c.query.get('format') === 'xlsx')).toBe(true))
    await waitFor(() => expect(downloads).toEqual(['contatos.csv', 'contatos.xlsx']))
    expect(location.href).not.toStartWith('blob:')
    await userEvent.click(screen.getByRole('button', { name: 'Importar' }))
    const dialog = await screen.findByRole('dialog')
    expect(within(dialog).getByRole('button', { name: 'Planilha de exemplo' })).toBeInTheDocument()
    await userEvent.upload(
      dialog.querySelector('input[type=file]') as HTMLInputElement,
      new File(['x'], 'c.xls'),
    )
    await userEvent.click(within(dialog).getByRole('button', { name: 'Importar' }))
    expect(
      await within(dialog).findByText('Concluído: 1 criados, 1 atualizados, 1 recusados.'),
    ).toBeInTheDocument()
    expect(within(dialog).getByText('E-mail: Inválido')).toBeInTheDocument()
  })
})
