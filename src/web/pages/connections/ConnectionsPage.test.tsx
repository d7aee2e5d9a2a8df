import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { WhatsappDto } from '../../../shared/api'
import { dispatch, stopLive } from '../../api/live'
import { resetHealth } from '../../state/health'
import { toasts } from '../../state/toast'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { makeConnection } from './fixtures'
import { formatUpdatedAt } from './format'

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
    resetHealth()
    signIn(makeUser({ id: 1, companyId: 7 }))
  })
  afterEach(() => {
    stopLive()
    resetState()
    resetHealth()
  })

  test('a connection of a server running against the WhatsApp simulator carries a Simulador badge', async () => {
    mockFetch({
      'GET /api/whatsapp': () => ({
        body: [
          makeConnection({ id: 1, name: 'Real', status: 'CONNECTED' }),
          makeConnection({ id: 2, name: 'Simulada', status: 'qrcode', number: null, simulated: true }),
        ],
      }),
    })
    renderAt('/connections')
    await screen.findByText('Simulada')
    expect(within(rowOf('Simulada')).getByText('Simulador')).toBeInTheDocument()
    expect(within(rowOf('Real')).queryByText('Simulador')).toBeNull()
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
    expect(buttonsOf('E Expirou')).toEqual(['Tentar novamente', 'Novo QR CODE', 'Desconectar'])
    // Connecting is a state, not a disabled button.
    expect(within(rowOf('F Abrindo')).getByTestId('status-pill')).toHaveTextContent('Conectando')
    expect(buttonsOf('F Abrindo')).toEqual([])
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

  test('disconnect asks first; the warning toast and the DELETE come only after the confirmation', async () => {
    const calls = mockFetch({
      'GET /api/whatsapp': () => ({ body: [rows[0]!] }),
      'DELETE /api/whatsappsession/1': () => ({
        body: { ...rows[0]!, status: 'DISCONNECTED', number: null },
      }),
    })
    renderAt('/connections')
    await screen.findByText('A Conectada')
    await userEvent.click(within(rowOf('A Conectada')).getByRole('button', { name: /Desconectar/ }))
    const confirm = await screen.findByRole('alertdialog')
    expect(screen.queryByText('Você está prestes a desconectar o WhatsApp.')).toBeNull()
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Desconectar' }))
    expect(await screen.findByText('Você está prestes a desconectar o WhatsApp.')).toBeInTheDocument()
    await waitFor(() => expect(buttonsOf('A Conectada')).toEqual(['Tentar novamente', 'Novo QR CODE']))
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/whatsappsession/1'])
  })

  test('cancelling the disconnection leaves no warning and sends nothing', async () => {
    const calls = mockFetch({ 'GET /api/whatsapp': () => ({ body: [rows[0]!] }) })
    renderAt('/connections')
    await screen.findByText('A Conectada')
    await userEvent.click(within(rowOf('A Conectada')).getByRole('button', { name: /Desconectar/ }))
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancelar' }),
    )
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByText('Você está prestes a desconectar o WhatsApp.')).toBeNull()
    expect(toasts.value).toEqual([])
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false)
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

  test('empty state (with the sandbox hint) and error state with retry', async () => {
    let fail = true
    mockFetch({
      'GET /api/whatsapp': () =>
        fail ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'x' } } : { body: [] },
      'GET /api/health': () => ({ body: { status: 'ok', version: '0.1.0', uptimeMs: 1, sandbox: true } }),
    })
    renderAt('/connections')
    expect(
      await screen.findByText('Erro interno do servidor. Tente novamente em instantes.'),
    ).toBeInTheDocument()
    fail = false
    await userEvent.click(screen.getByRole('button', { name: /Tentar novamente/ }))
    expect(await screen.findByText('Nenhuma conexão ainda')).toBeInTheDocument()
    expect(await screen.findByText(/este servidor tem o sandbox/i)).toBeInTheDocument()
  })

  test('Reiniciar conexões asks first, then restarts with the spec toast', async () => {
    const calls = mockFetch({
      'GET /api/whatsapp': () => ({ body: [rows[0]!] }),
      'POST /api/whatsapp-restart/': () => ({ body: { restarted: 1 } }),
    })
    renderAt('/connections')
    await screen.findByText('A Conectada')
    const restarts = () => calls.filter((c) => c.method === 'POST' && c.path === '/api/whatsapp-restart/')
    await userEvent.click(screen.getAllByRole('button', { name: 'Reiniciar conexões' })[0]!)
    const confirm = await screen.findByRole('alertdialog')
    expect(within(confirm).getByText(/serão desligadas e religadas/)).toBeInTheDocument()
    expect(restarts()).toHaveLength(0)
    expect(screen.queryByText('Aguarde... reiniciando...')).toBeNull()
    await userEvent.click(within(confirm).getByRole('button', { name: 'Reiniciar' }))
    expect(await screen.findByText('Aguarde... reiniciando...')).toBeInTheDocument()
    await waitFor(() => expect(restarts()).toHaveLength(1))
  })

  test('cancelling the restart sends nothing', async () => {
    const calls = mockFetch({ 'GET /api/whatsapp': () => ({ body: [rows[0]!] }) })
    renderAt('/connections')
    await screen.findByText('A Conectada')
    await userEvent.click(screen.getAllByRole('button', { name: 'Reiniciar conexões' })[0]!)
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancelar' }),
    )
    await new Promise((r) => setTimeout(r, 50))
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    expect(screen.queryByText('Aguarde... reiniciando...')).toBeNull()
  })

  test('a connection that cannot connect says why, and offers retry and a new QR code', async () => {
    const calls = mockFetch({
      'GET /api/whatsapp': () => ({
        body: [
          makeConnection({
            id: 1,
            name: 'Sem rede',
            status: 'OPENING',
            statusReason: 'no_network',
            retries: 3,
          }),
          makeConnection({ id: 2, name: 'Deslogada', status: 'DISCONNECTED', statusReason: 'logged_out' }),
          makeConnection({ id: 3, name: 'Banida', status: 'TIMEOUT', statusReason: 'banned' }),
        ],
      }),
      'POST /api/whatsappsession/1': () => ({
        body: makeConnection({ id: 1, name: 'Sem rede', status: 'OPENING' }),
      }),
    })
    renderAt('/connections')
    await screen.findByText('Sem rede')
    const reason = (name: string) => within(rowOf(name)).getByTestId('status-reason').textContent
    expect(reason('Sem rede')).toBe('Sem acesso ao WhatsApp: verifique a internet do servidor · 3 tentativas')
    expect(buttonsOf('Sem rede')).toEqual(['Tentar novamente', 'Novo QR CODE'])
    // Logged out or banned: only a new link helps, so no retry.
    expect(reason('Deslogada')).toBe('O celular desconectou este aparelho: leia um novo QR Code')
    expect(buttonsOf('Deslogada')).toEqual(['Novo QR CODE'])
    expect(reason('Banida')).toBe('O WhatsApp bloqueou este número')
    expect(buttonsOf('Banida')).toEqual(['Novo QR CODE', 'Desconectar'])

    await userEvent.click(within(rowOf('Sem rede')).getByRole('button', { name: /Tentar novamente/ }))
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/whatsappsession/1')).toBe(true),
    )
    // The answer has no reason any more: a plain 'Conectando' with nothing to press.
    await waitFor(() => expect(within(rowOf('Sem rede')).queryByTestId('status-reason')).toBeNull())
    expect(buttonsOf('Sem rede')).toEqual([])

    // A live session frame brings the reason (and takes it away).
    live('company-7-whatsappSession', {
      action: 'update',
      session: {
        id: 1,
        name: 'Sem rede',
        status: 'DISCONNECTED',
        statusReason: 'replaced',
        qrcode: '',
        pairingCode: null,
        expirationTime: null,
        retries: 0,
        number: null,
        updatedAt: new Date().toISOString(),
      },
    })
    expect(reason('Sem rede')).toBe('A sessão foi aberta em outro lugar')
    expect(buttonsOf('Sem rede')).toEqual(['Tentar novamente', 'Novo QR CODE'])
  })
})
