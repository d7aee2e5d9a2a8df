import { afterEach, beforeEach, describe, expect, mock, test } from 'bun:test'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from '../../components/ui/Toast'
import { setSettings } from '../../state/settings'
import { makeUser, mockFetch, resetState, signIn } from '../../test/utils'
import { QueueDialog } from './QueueDialog'

function renderDialog() {
  const onSaved = mock(() => {})
  const onClose = mock(() => {})
  render(
    <>
      <QueueDialog open onClose={onClose} onSaved={onSaved} />
      <Toaster />
    </>,
  )
  return { onSaved, onClose }
}

describe('QueueDialog', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser())
    setSettings([{ key: 'scheduleType', value: 'disabled' }])
  })
  afterEach(resetState)

  test('requires a name and a colour; a palette swatch fills the hex field', async () => {
    const calls = mockFetch({})
    renderDialog()
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(2)
    expect(calls).toHaveLength(0)
    await userEvent.click(screen.getByRole('radio', { name: '#22C55E' }))
    expect(screen.getByLabelText('Código da cor')).toHaveValue('#22C55E')
    expect(screen.getAllByText('Obrigatório')).toHaveLength(1)
  })

  test('saves with the spec toast', async () => {
    const calls = mockFetch({
      'POST /api/queue': (c) => ({
        body: { id: 4, companyId: 7, createdAt: '', updatedAt: '', ...(c.body as object) },
      }),
    })
    const { onSaved } = renderDialog()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'Suporte')
    await userEvent.type(screen.getByLabelText('Código da cor'), '#0ea5e9')
    await userEvent.type(screen.getByLabelText('Ordem'), '2')
    await userEvent.type(screen.getByLabelText('Mensagem de saudação'), 'Olá!')
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(calls[0]?.body).toEqual({
      name: 'Suporte',
      color: '#0EA5E9',
      orderQueue: 2,
      greetingMessage: 'Olá!',
      outOfHoursMessage: '',
    })
    expect(await screen.findByText('Fila salva com sucesso')).toBeInTheDocument()
  })

  test('a colour already in use is reported in words', async () => {
    mockFetch({
      'POST /api/queue': () => ({
        status: 409,
        body: { error: 'ERR_QUEUE_COLOR_ALREADY_EXISTS', message: 'color' },
      }),
    })
    const { onClose } = renderDialog()
    await userEvent.type(screen.getByLabelText(/^Nome/), 'Vendas')
    await userEvent.click(screen.getByRole('radio', { name: '#3284FE' }))
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect((await screen.findAllByText('Esta cor já está em uso, escolha outra.')).length).toBeGreaterThan(0)
    expect(onClose).not.toHaveBeenCalled()
  })

  test('the out-of-hours message appears only when service hours are managed', () => {
    mockFetch({})
    const view = render(<QueueDialog open onClose={() => {}} />)
    expect(screen.queryByLabelText('Mensagem fora do expediente')).not.toBeInTheDocument()
    view.unmount()
    setSettings([{ key: 'scheduleType', value: 'queue' }])
    render(<QueueDialog open onClose={() => {}} />)
    expect(screen.getByLabelText('Mensagem fora do expediente')).toBeInTheDocument()
  })
})
