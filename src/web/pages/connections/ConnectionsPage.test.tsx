import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { WhatsappDto } from '../../../shared/api'
import { dispatch, stopLive } from '../../api/live'
import { toasts } from '../../state/toast'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { makeConnection } from './fixtures'
import { formatUpdatedAt } from './format'
import { resetConnectionsStore } from './store'

const rows: WhatsappDto[] = [
  makeConnection({ id: 1, name: 'A Conectada', status: 'CONNECTED', isDefault: true }),
  makeConnection({
    id: 2,
    name: 'B QR',
    status: 'qrcode',
    qrcode: '2@abc',
    provider: 'sandbox',
    number: null,
  }),
  makeConnection({ id: 3, name: 'C Caiu', status: 'DISCONNECTED', number: null }),
  makeConnection({ id: 4, name: 'D Pareando', status: 'PAIRING', pairingCode: 'ABCD1234', number: null }),
  makeConnection({ id: 5, name: 'E Expirou', status: 'TIMEOUT', number: null }),
  makeConnection({ id: 6, name: 'F Abrindo', status: 'OPENING', number: null }),
]

const live = (event: string, data: unknown) => act(() => dispatch(JSON.stringify({ event, data })))

function rowOf(name: string) {
  const table = screen.getByRole('table', { name: 'Conexões' })
  return within(table).getByText(name).closest('tr')!
}
const buttonsOf = (name: string) =>
  within(rowOf(name))
    .getAllByRole('button')
    .filter((b) => !/^(Editar|Excluir):/.test(b.getAttribute('aria-label') ?? ''))
    .map((b) => b.textContent?.trim())

describe('ConnectionsPage', () => {
  beforeEach(() => {
    resetState()
    resetConnectionsStore()
    signIn(makeUser({ id: 1, companyId: 7 }))
  })
  afterEach(() => {
    stopLive()
    resetState()
    resetConnectionsStore()
  })

  test('each status shows its pill and the buttons the spec gives it', async () => {
    mockFetch({ 'GET /api/whatsapp': () => ({ body: rows }) })
    renderAt('/connections')
    await screen.findByText('A Conectada')
    expect(within(rowOf('A Conectada')).getByTestId('status-pill')).toHaveTextContent('Conectado')
    expect(buttonsOf('A Conectada')).toEqual(['Desconectar'])
    expect(within(rowOf('A Conectada')).getByText('+5511999990001')).toBeInTheDocument()
    expect(within(rowOf('A Conectada')).getByText('Padrão')).toBeInTheDocument() // the default star
    expect(buttonsOf('B QR')).toEqual(['QR CODE'])
    expect(within(rowOf('B QR')).getByText('Sandbox')).toBeInTheDocument()
    expect(buttonsOf('C Caiu')).toEqual(['Tentar novamente', 'Novo QR CODE'])
    expect(within(rowOf('D Pareando')).getByTestId('pairing-code')).toHaveTextContent('ABCD 1234')
    expect(buttonsOf('E Expirou')).toEqual(['Desconectar', 'Novo QR CODE'])
    const opening = within(rowOf('F Abrindo')).getByRole('button', { name: /Conectando/ })
    expect(opening).toBeDisabled()
    expect(within(rowOf('F Abrindo')).queryByText('Padrão')).toBeNull()
    expect(screen.getByText('6 conexões')).toBeInTheDocument()
    expect(within(rowOf('A Conectada')).getByText(formatUpdatedAt(rows[0]!.updatedAt))).toBeInTheDocument()
  })

  test('live frames change a row, add one and remove one', async () => {
    mockFetch({ 'GET /api/whatsapp': () => ({ body: [rows[2]!] }) })
    renderAt('/connections')
    await screen.findByText('C Caiu')
    live('company-7-whatsappSession', {
      action: 'update',
      session: {
        id: 3,
        name: 'C Caiu',
        status: 'CONNECTED',
        qrcode: '',
        pairingCode: null,
        expirationTime: null,
        retries: 0,
        number: '5521988887777',
        updatedAt: new Date().toISOString(),
      },
    })
    expect(buttonsOf('C Caiu')).toEqual(['Desconectar'])
    expect(within(rowOf('C Caiu')).getByText('+5521988887777')).toBeInTheDocument()
    live('company-7-whatsapp', { action: 'create', whatsapp: makeConnection({ id: 9, name: 'Nova' }) })
    expect(screen.getByText('Nova')).toBeInTheDocument()
    live('company-7-whatsapp', { action: 'delete', whatsappId: 3 })
    expect(screen.queryByText('C Caiu')).toBeNull()
    // Another company's frames are not ours.
    live('company-8-whatsapp', { action: 'create', whatsapp: makeConnection({ id: 10, name: 'Outra' }) })
    expect(screen.queryByText('Outra')).toBeNull()
  })

  test('disconnect warns, asks, then DELETEs the session', async () => {
    const calls = mockFetch({
      'GET /api/whatsapp': () => ({ body: [rows[0]!] }),
      'DELETE /api/whatsappsession/1': () => ({
        body: { ...rows[0]!, status: 'DISCONNECTED', number: null },
      }),
    })
    renderAt('/connections')
    await screen.findByText('A Conectada')
    await userEvent.click(within(rowOf('A Conectada')).getByRole('button', { name: /Desconectar/ }))
    expect(await screen.findByText('Você está prestes a desconectar o WhatsApp.')).toBeInTheDocument()
    const confirm = await screen.findByRole('alertdialog')
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Desconectar' }))
    await waitFor(() => expect(buttonsOf('A Conectada')).toEqual(['Tentar novamente', 'Novo QR CODE']))
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/whatsappsession/1'])
  })

  test('Novo QR CODE PUTs the session with the spec toasts and opens the QR dialog', async () => {
    let waitingShown = false
    const calls = mockFetch({
      'GET /api/whatsapp': () => ({ body: [rows[2]!] }),
      'PUT /api/whatsappsession/3': () => {
        waitingShown = toasts.value.some(
          (x) => x.kind === 'info' && x.message === 'Aguarde, estamos carregando o QR Code...',
        )
        return { body: { ...rows[2]!, status: 'OPENING' } }
      },
      'GET /api/whatsapp/3': () => ({ body: { ...rows[2]!, status: 'OPENING' } }),
    })
    renderAt('/connections')
    await screen.findByText('C Caiu')
    await userEvent.click(within(rowOf('C Caiu')).getByRole('button', { name: /Novo QR CODE/ }))
    expect(await screen.findByText('QR CODE gerado com sucesso!')).toBeInTheDocument()
    expect(waitingShown).toBe(true)
    // The success replaces the 'please wait'.
    expect(screen.queryByText('Aguarde, estamos carregando o QR Code...')).toBeNull()
    expect(calls.some((c) => c.method === 'PUT' && c.path === '/api/whatsappsession/3')).toBe(true)
    expect(await screen.findByRole('heading', { name: 'Conectar o WhatsApp' })).toBeInTheDocument()
  })

  test('restart, empty state and error state with retry', async () => {
    let fail = true
    const calls = mockFetch({
      'GET /api/whatsapp': () =>
        fail ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'x' } } : { body: [] },
      'GET /api/health': () => ({ body: { status: 'ok', version: '0.1.0', uptimeMs: 1, sandbox: true } }),
      'POST /api/whatsapp-restart/': () => ({ body: { restarted: 0 } }),
    })
    renderAt('/connections')
    expect(
      await screen.findByText('Erro interno do servidor. Tente novamente em instantes.'),
    ).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: /Tentar novamente/ }))
    expect(await screen.findByText('Nenhuma conexão ainda')).toBeInTheDocument()
    expect(await screen.findByText(/este servidor tem o sandbox/i)).toBeInTheDocument()
    await userEvent.click(screen.getAllByRole('button', { name: 'Reiniciar conexões' })[0]!)
    expect(await screen.findByText('Aguarde... reiniciando...')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/whatsapp-restart/')).toBe(true)
  })
})
