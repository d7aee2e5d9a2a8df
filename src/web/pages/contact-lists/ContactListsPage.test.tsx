import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ContactListDto, ContactListItemDto, SpreadsheetImportDto } from '../../../shared/contact-lists'
import { dispatch } from '../../api/live'
import { livePageSuite, mockFetch, renderAt } from '../../test/utils'

const list = (id: number, name: string, contactsCount = 0): ContactListDto => ({
  id,
  name,
  contactsCount,
  companyId: 7,
  createdAt: '',
  updatedAt: '',
})

const item = (id: number, name: string, isWhatsappValid: boolean | null): ContactListItemDto => ({
  id,
  name,
  number: `55119888800${id}`,
  email: '',
  isWhatsappValid,
  companyId: 7,
  contactListId: 3,
  createdAt: '',
  updatedAt: '',
})

const job = (extra: Partial<SpreadsheetImportDto>): SpreadsheetImportDto => ({
  id: 11,
  target: 'contactList',
  contactListId: 3,
  fileName: 'lista.xlsx',
  state: 'pending',
  total: 4,
  processed: 0,
  created: 0,
  updated: 0,
  rejectedCount: 0,
  rejected: [],
  error: null,
  createdAt: '',
  updatedAt: '',
  ...extra,
})

describe('ContactListsPage', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  test('lists with their contact count; the menu links it; add validates the name; live create', async () => {
    const calls = mockFetch({
      'GET /api/contact-lists': () => ({
        body: { records: [list(3, 'Clientes VIP', 12)], count: 1, hasMore: false },
      }),
      'POST /api/contact-lists': (c) => ({ status: 201, body: list(4, (c.body as { name: string }).name) }),
    })
    renderAt('/contact-lists')
    const table = await screen.findByRole('table', { name: 'Listas de contatos' })
    const row = within(table).getByText('Clientes VIP').closest('tr')!
    expect(within(row).getByText('12')).toBeInTheDocument()
    expect(within(row).getByRole('button', { name: 'Contatos: Clientes VIP' })).toBeInTheDocument()
    expect(within(row).getByRole('button', { name: 'Planilha de exemplo: Clientes VIP' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Listas de contatos' })).toHaveAttribute('href', '/contact-lists')
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar' })[0]!)
    const dialog = await screen.findByRole('dialog')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'A')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Muito curto!')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'mostra')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true))
    expect(await within(table).findByText('Amostra')).toBeInTheDocument()
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-ContactList',
          data: { action: 'create', record: list(5, 'Bazar') },
        }),
      ),
    )
    expect(await within(table).findByText('Bazar')).toBeInTheDocument()
  })

  test('items: green and grey icons; import shows progress and the refused rows with their reasons', async () => {
    let polled = 0
    mockFetch({
      'GET /api/contact-lists/:id': () => ({ body: list(3, 'Clientes VIP', 2) }),
      'GET /api/contact-list-items': () => ({
        body: { contacts: [item(1, 'Ana', true), item(2, 'Bruno', null)], count: 2, hasMore: false },
      }),
      'POST /api/contact-lists/:id/upload': () => ({ status: 202, body: job({}) }),
      'GET /api/contact-lists/imports/:id': () => {
        polled++
        return {
          body: job({
            state: 'done',
            processed: 4,
            created: 2,
            rejectedCount: 2,
            rejected: [
              { row: 3, field: 'number', reason: 'duplicateInFile' },
              { row: 5, field: 'name', reason: 'tooShort' },
            ],
          }),
        }
      },
    })
    renderAt('/contact-lists/3/contacts')
    expect(await screen.findByRole('heading', { name: 'Clientes VIP' })).toBeInTheDocument()
    expect(await screen.findByRole('img', { name: 'Número válido no WhatsApp' })).toHaveAttribute(
      'data-valid',
      'true',
    )
    expect(screen.getByRole('img', { name: 'Ainda não verificado no WhatsApp' })).toHaveAttribute(
      'data-valid',
      'null',
    )
    // An admin has contacts-page:deleteContact.
    expect(screen.getByRole('button', { name: 'Excluir: Ana' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Importar' }))
    const dialog = await screen.findByRole('dialog')
    const input = dialog.querySelector('input[type=file]') as HTMLInputElement
    await userEvent.upload(input, new File(['x'], 'lista.xlsx'))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Importar' }))
    expect(await within(dialog).findByRole('progressbar')).toBeInTheDocument()
    expect(
      await within(dialog).findByText('Concluído: 2 criados, 0 atualizados, 2 recusados.', undefined, {
        timeout: 3000,
      }),
    ).toBeInTheDocument()
    expect(polled).toBeGreaterThan(0)
    expect(within(dialog).getByText('Número: Número repetido na planilha')).toBeInTheDocument()
    expect(within(dialog).getByText('Nome: Muito curto!')).toBeInTheDocument()
  })
})
