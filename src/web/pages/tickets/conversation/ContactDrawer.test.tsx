import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ContactDto } from '../../../../shared/api'
import { Toaster } from '../../../components/ui/Toast'
import { makeUser, mockFetch, resetState, signIn } from '../../../test/utils'
import { ContactDrawer } from './ContactDrawer'
import { makeTicket } from './fixtures'

const maria: ContactDto = {
  id: 9,
  uuid: 'u9',
  name: 'Maria Souza',
  number: '5511999990001',
  email: 'maria@example.com',
  profilePicUrl: '',
  isGroup: false,
  disableBot: false,
  lgpdConsent: 'accepted',
  lgpdConsentAt: '2026-03-02T12:00:00.000Z',
  whatsappId: 3,
  companyId: 7,
  extraInfo: [],
  tags: [],
  createdAt: '2026-03-02T12:00:00.000Z',
  updatedAt: '2026-03-02T12:00:00.000Z',
}

function renderDrawer() {
  render(
    <>
      <ContactDrawer ticket={makeTicket()} open onClose={() => {}} />
      <Toaster />
    </>,
  )
}

describe('ContactDrawer: personal data (LGPD)', () => {
  beforeEach(() => resetState())
  afterEach(() => resetState())

  test('an admin sees the consent answer and erases the data after the delete confirmation', async () => {
    signIn(makeUser())
    const calls = mockFetch({
      'GET /api/contacts/9': () => ({ body: maria }),
      'DELETE /api/contacts/9/personal-data': () => ({ body: { contactId: 9, messages: 12 } }),
    })
    renderDrawer()
    const section = await screen.findByTestId('contact-privacy')
    expect(within(section).getByText(/Consentimento aceito em/)).toBeInTheDocument()
    expect(within(section).getByRole('button', { name: 'Exportar dados pessoais' })).toBeInTheDocument()
    await userEvent.click(within(section).getByRole('button', { name: 'Apagar dados pessoais' }))
    const dialog = await screen.findByRole('alertdialog')
    expect(within(dialog).getByText('Exclusão de Registro')).toBeInTheDocument()
    expect(within(dialog).getByText(/Deseja realmente excluir esse registro\?/)).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apagar dados' }))
    await waitFor(() => expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1))
    expect(await screen.findByText('Dados pessoais apagados: 12 mensagens')).toBeInTheDocument()
  })

  test('an attendant does not see the section', async () => {
    signIn(makeUser({ profile: 'user' }))
    mockFetch({ 'GET /api/contacts/9': () => ({ body: { ...maria, lgpdConsent: null } }) })
    renderDrawer()
    await screen.findByText('Nenhuma informação adicional.')
    expect(screen.queryByTestId('contact-privacy')).toBeNull()
  })
})
