import { afterEach, beforeEach, describe, expect, jest, mock, test } from 'bun:test'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { dispatch } from '../../api/live'
import { Toaster } from '../../components/ui/Toast'
import { makeUser, mockFetch, resetState, signIn } from '../../test/utils'
import { makeConnection } from './fixtures'
import { QrCodeDialog } from './QrCodeDialog'

const session = (over: Record<string, unknown>) => ({
  event: 'company-7-whatsappSession',
  data: {
    action: 'update',
    session: {
      id: 1,
      name: 'Loja Centro',
      status: 'qrcode',
      qrcode: '2@abc',
      pairingCode: null,
      expirationTime: null,
      retries: 0,
      number: null,
      updatedAt: new Date().toISOString(),
      ...over,
    },
  },
})

describe('QrCodeDialog', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser({ companyId: 7 }))
  })
  afterEach(() => {
    jest.useRealTimers()
    resetState()
  })

  test('counts down to the expiration as mm:ss, then says Expirado', async () => {
    jest.useFakeTimers()
    const row = makeConnection({ status: 'qrcode', qrcode: '2@abc', expirationTime: Date.now() + 62_000 })
    mockFetch({ 'GET /api/whatsapp/1': () => ({ body: row }), 'GET /api/whatsapp': () => ({ body: [row] }) })
    render(<QrCodeDialog open connectionId={1} onClose={() => {}} />)
    await act(async () => {})
    await act(async () => {})
    expect(screen.getByRole('img', { name: 'QR Code da conexão Loja Centro' })).toBeInTheDocument()
    expect(screen.getByTestId('qr-countdown')).toHaveTextContent('Expira em 01:02')
    act(() => jest.advanceTimersByTime(2000))
    expect(screen.getByTestId('qr-countdown')).toHaveTextContent('01:00')
    act(() => jest.advanceTimersByTime(59_000))
    expect(screen.getByTestId('qr-countdown')).toHaveTextContent('00:01')
    act(() => jest.advanceTimersByTime(1000))
    expect(screen.getByTestId('qr-countdown')).toHaveTextContent('Expirado')
    // A new QR code arriving live restarts the countdown.
    act(() => dispatch(JSON.stringify(session({ qrcode: '2@def', expirationTime: Date.now() + 20_000 }))))
    expect(screen.getByTestId('qr-countdown')).toHaveTextContent('00:20')
  })

  test('closes with the success toast when a live frame says CONNECTED', async () => {
    const row = makeConnection({ status: 'qrcode', qrcode: '2@abc', expirationTime: Date.now() + 30_000 })
    mockFetch({ 'GET /api/whatsapp/1': () => ({ body: row }), 'GET /api/whatsapp': () => ({ body: [row] }) })
    const onClose = mock(() => {})
    render(
      <>
        <QrCodeDialog open connectionId={1} onClose={onClose} />
        <Toaster />
      </>,
    )
    await screen.findByRole('img', { name: /QR Code da conexão/ })
    act(() => dispatch(JSON.stringify(session({ status: 'PAIRING', qrcode: '', pairingCode: 'WXYZ9876' }))))
    expect(screen.getByTestId('qr-pairing-code')).toHaveTextContent('WXYZ 9876')
    expect(onClose).not.toHaveBeenCalled()
    act(() => dispatch(JSON.stringify(session({ status: 'CONNECTED', qrcode: '', number: '5511999990001' }))))
    expect(await screen.findByText('WhatsApp conectado com sucesso!')).toBeInTheDocument()
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  test('pairs with a phone number: POSTs the digits and shows the code spaced', async () => {
    const row = makeConnection({ status: 'qrcode', qrcode: '2@abc' })
    const calls = mockFetch({
      'GET /api/whatsapp/1': () => ({ body: row }),
      'GET /api/whatsapp': () => ({ body: [row] }),
      'POST /api/whatsappsession/1': () => ({
        body: { ...row, status: 'PAIRING', qrcode: '', pairingCode: 'K7P2M9QX' },
      }),
    })
    render(<QrCodeDialog open connectionId={1} onClose={() => {}} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Conectar com número de telefone' }))
    await userEvent.click(screen.getByRole('button', { name: 'Gerar código' }))
    expect(screen.getByText('Informe de 8 a 15 dígitos')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Número do WhatsApp'), '+55 (11) 99999-0001')
    await userEvent.click(screen.getByRole('button', { name: 'Gerar código' }))
    await waitFor(() => expect(screen.getByTestId('qr-pairing-code')).toHaveTextContent('K7P2 M9QX'))
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ phone: '5511999990001' })
    expect(screen.getByText('Digite este código no celular')).toBeInTheDocument()
  })
})
