import { afterEach, beforeEach, describe, expect, mock, test } from 'bun:test'
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { MessageDto, TicketDto } from '../../../../shared/api'
import { Toaster } from '../../../components/ui/Toast'
import { makeUser, mockFetch, resetState, signIn } from '../../../test/utils'
import { makeMessage, makeTicket } from './fixtures'
import { MessageInput, type MessageInputProps } from './MessageInput'

function renderInput(props: Partial<MessageInputProps> & { ticket?: TicketDto } = {}) {
  const onSent = mock((_: MessageDto[]) => {})
  const onCancelReply = mock(() => {})
  const onCancelEdit = mock(() => {})
  const view = render(
    <>
      <MessageInput
        ticket={props.ticket ?? makeTicket()}
        replyTo={props.replyTo ?? null}
        editing={props.editing ?? null}
        onSent={onSent}
        onCancelReply={onCancelReply}
        onCancelEdit={onCancelEdit}
      />
      <Toaster />
    </>,
  )
  const box = screen.getByRole('textbox', { name: 'Mensagem' }) as HTMLTextAreaElement
  return { ...view, box, onSent, onCancelReply, onCancelEdit }
}

const sent = (calls: { method: string; path: string; body: unknown }[], path = '/api/messages/5') =>
  calls.filter((c) => c.method === 'POST' && c.path === path)

describe('MessageInput', () => {
  beforeEach(() => {
    resetState()
    localStorage.setItem('signOption', 'false')
    signIn(makeUser({ id: 1, name: 'Ana Admin' }))
  })
  afterEach(() => resetState())

  test('Enter sends the trimmed text; Shift+Enter writes a newline; empty is ignored', async () => {
    const calls = mockFetch({
      'POST /api/messages/5': (c) => ({
        status: 201,
        body: makeMessage({ id: 77, body: (c.body as { body: string }).body, fromMe: true }),
      }),
    })
    const { box, onSent } = renderInput()
    await userEvent.type(box, '   {Enter}')
    expect(sent(calls)).toHaveLength(0)
    expect(box.value).toBe('   ') // ignored, left as typed
    await userEvent.clear(box)
    await userEvent.type(box, '  Bom dia{Shift>}{Enter}{/Shift}tudo bem?  ')
    expect(box.value).toBe('  Bom dia\ntudo bem?  ')
    expect(sent(calls)).toHaveLength(0)
    await userEvent.type(box, '{Enter}')
    await waitFor(() => expect(sent(calls)).toHaveLength(1))
    expect(sent(calls)[0]?.body).toEqual({ body: 'Bom dia\ntudo bem?', quotedMsg: null, isPrivate: false })
    expect(box.value).toBe('')
    await waitFor(() => expect(onSent).toHaveBeenCalled())
    expect(onSent.mock.calls[0]?.[0]?.[0]?.id).toBe(77)
  })

  test('the input shows at most 5 rows', async () => {
    mockFetch({})
    const { box } = renderInput()
    expect(box.getAttribute('rows')).toBe('1')
    fireEvent.change(box, { target: { value: 'a\nb\nc' } })
    expect(box.getAttribute('rows')).toBe('3')
    fireEvent.change(box, { target: { value: '1\n2\n3\n4\n5\n6\n7\n8' } })
    expect(box.getAttribute('rows')).toBe('5')
  })

  test('nothing can be sent unless the ticket is open', async () => {
    mockFetch({})
    const { box } = renderInput({ ticket: makeTicket({ status: 'pending' }) })
    expect(box).toBeDisabled()
    expect(box.placeholder).toBe('Aceite o atendimento para responder')
    expect(screen.getByRole('button', { name: 'Anexar arquivos' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Gravar áudio' })).toBeDisabled()
  })

  test('the sign option prefixes the name in bold on new messages and is remembered', async () => {
    localStorage.removeItem('signOption')
    const calls = mockFetch({ 'POST /api/messages/5': () => ({ status: 201, body: {} }) })
    const { box } = renderInput()
    const toggle = screen.getByRole('button', { name: 'Assinar mensagens com meu nome' })
    expect(toggle).toHaveAttribute('aria-pressed', 'true')
    await userEvent.type(box, 'Olá{Enter}')
    await waitFor(() => expect(sent(calls)).toHaveLength(1))
    expect((sent(calls)[0]!.body as { body: string }).body).toBe('*Ana Admin:*\nOlá')
    await userEvent.click(toggle)
    expect(localStorage.getItem('signOption')).toBe('false')
    await userEvent.type(box, 'Sem assinatura{Enter}')
    await waitFor(() => expect(sent(calls)).toHaveLength(2))
    expect((sent(calls)[1]!.body as { body: string }).body).toBe('Sem assinatura')
  })

  test('edit mode: starts from the message, saves through /messages/edit/{id}, never signed', async () => {
    localStorage.setItem('signOption', 'true')
    const target = makeMessage({ id: 31, fromMe: true, body: 'Preço: 10' })
    const calls = mockFetch({
      'POST /api/messages/edit/31': () => ({ body: { ...target, body: 'Preço: 12', isEdited: true } }),
    })
    const { box, onCancelEdit, onSent } = renderInput({ editing: target })
    expect(screen.getByText('Editando mensagem')).toBeInTheDocument()
    expect(box.value).toBe('Preço: 10')
    expect(screen.queryByRole('button', { name: 'Anexar arquivos' })).toBeNull()
    fireEvent.change(box, { target: { value: ' Preço: 12 ' } })
    await userEvent.type(box, '{Enter}')
    await waitFor(() => expect(sent(calls, '/api/messages/edit/31')).toHaveLength(1))
    expect(sent(calls, '/api/messages/edit/31')[0]?.body).toEqual({ body: 'Preço: 12' })
    expect(sent(calls)).toHaveLength(0)
    await waitFor(() => expect(onCancelEdit).toHaveBeenCalled())
    expect(onSent.mock.calls[0]?.[0]?.[0]?.isEdited).toBe(true)
  })

  test('reply mode: the quoted bar above, quotedMsg sent, Escape leaves it', async () => {
    const quoted = makeMessage({ id: 12, body: 'Qual o prazo?' })
    const calls = mockFetch({ 'POST /api/messages/5': () => ({ status: 201, body: {} }) })
    const { box, onCancelReply } = renderInput({ replyTo: quoted })
    expect(screen.getByText('Respondendo')).toBeInTheDocument()
    expect(screen.getByTestId('quoted')).toHaveTextContent('Maria Souza')
    expect(screen.getByTestId('quoted')).toHaveTextContent('Qual o prazo?')
    await userEvent.type(box, 'Amanhã{Enter}')
    await waitFor(() => expect(sent(calls)).toHaveLength(1))
    expect(sent(calls)[0]?.body).toMatchObject({ body: 'Amanhã', quotedMsg: 12 })
    expect(onCancelReply).toHaveBeenCalled()
  })

  test('a private note is sent with isPrivate', async () => {
    const calls = mockFetch({ 'POST /api/messages/5': () => ({ status: 201, body: {} }) })
    const { box } = renderInput()
    await userEvent.click(screen.getByRole('button', { name: 'Nota privada (não é enviada ao cliente)' }))
    expect(box.placeholder).toBe('Nota privada: só a equipe vê')
    await userEvent.type(box, 'Cliente pediu desconto{Enter}')
    await waitFor(() => expect(sent(calls)).toHaveLength(1))
    expect(sent(calls)[0]?.body).toMatchObject({ body: 'Cliente pediu desconto', isPrivate: true })
  })

  test('note mode ends after one note: the next message is a reply to the customer', async () => {
    const calls = mockFetch({ 'POST /api/messages/5': () => ({ status: 201, body: {} }) })
    const { box } = renderInput()
    await userEvent.click(screen.getByRole('button', { name: 'Nota privada (não é enviada ao cliente)' }))
    expect(screen.getByTestId('note-mode')).toHaveTextContent('Nota privada')
    expect(screen.getByTestId('note-mode')).toHaveTextContent('Não é enviada ao cliente')
    await userEvent.type(box, 'Cliente pediu desconto')
    expect(screen.getByRole('button', { name: 'Salvar nota privada' })).toBeInTheDocument()
    await userEvent.type(box, '{Enter}')
    await waitFor(() => expect(sent(calls)).toHaveLength(1))
    expect(sent(calls)[0]?.body).toMatchObject({ isPrivate: true })
    await waitFor(() => expect(screen.queryByTestId('note-mode')).toBeNull())
    expect(box.placeholder).toBe('Digite uma mensagem')
    expect(screen.getByRole('button', { name: 'Nota privada (não é enviada ao cliente)' })).toHaveAttribute(
      'aria-pressed',
      'false',
    )
    await userEvent.type(box, 'Posso dar 10%')
    expect(screen.getByRole('button', { name: 'Enviar' })).toBeInTheDocument()
    await userEvent.type(box, '{Enter}')
    await waitFor(() => expect(sent(calls)).toHaveLength(2))
    expect(sent(calls)[1]?.body).toMatchObject({ body: 'Posso dar 10%', isPrivate: false })
  })

  test("quoting a customer's message leaves note mode: the answer goes to the customer", async () => {
    const calls = mockFetch({ 'POST /api/messages/5': () => ({ status: 201, body: {} }) })
    const ticket = makeTicket()
    const view = renderInput({ ticket })
    await userEvent.click(screen.getByRole('button', { name: 'Nota privada (não é enviada ao cliente)' }))
    expect(screen.getByTestId('note-mode')).toBeInTheDocument()
    const quoted = makeMessage({ id: 12, body: 'Qual o prazo?' })
    view.rerender(
      <MessageInput
        ticket={ticket}
        replyTo={quoted}
        editing={null}
        onSent={view.onSent}
        onCancelReply={view.onCancelReply}
        onCancelEdit={view.onCancelEdit}
      />,
    )
    expect(screen.queryByTestId('note-mode')).toBeNull()
    expect(screen.getByText('Respondendo')).toBeInTheDocument()
    await userEvent.type(view.box, 'Amanhã{Enter}')
    await waitFor(() => expect(sent(calls)).toHaveLength(1))
    expect(sent(calls)[0]?.body).toMatchObject({ body: 'Amanhã', quotedMsg: 12, isPrivate: false })
  })

  test('a refused note stays a note: the text comes back in note mode', async () => {
    mockFetch({
      'POST /api/messages/5': () => ({ status: 409, body: { error: 'ERR_TICKET_NOT_OPEN', message: 'x' } }),
    })
    const { box } = renderInput()
    await userEvent.click(screen.getByRole('button', { name: 'Nota privada (não é enviada ao cliente)' }))
    await userEvent.type(box, 'Interno{Enter}')
    expect(
      await screen.findByText('As mensagens só podem ser enviadas em um atendimento aberto.'),
    ).toBeInTheDocument()
    expect(box.value).toBe('Interno')
    expect(screen.getByTestId('note-mode')).toBeInTheDocument()
  })

  test('a refused quoted note stays a note once the quote is gone', async () => {
    mockFetch({
      'POST /api/messages/5': () => ({ status: 409, body: { error: 'ERR_TICKET_NOT_OPEN', message: 'x' } }),
    })
    const ticket = makeTicket()
    const quoted = makeMessage({ id: 12, body: 'Qual o prazo?' })
    const view = renderInput({ ticket, replyTo: quoted })
    await userEvent.click(screen.getByRole('button', { name: 'Nota privada (não é enviada ao cliente)' }))
    await userEvent.type(view.box, 'Ver com logística{Enter}')
    // The conversation drops the quote as the send starts.
    view.rerender(
      <>
        <MessageInput
          ticket={ticket}
          replyTo={null}
          editing={null}
          onSent={view.onSent}
          onCancelReply={view.onCancelReply}
          onCancelEdit={view.onCancelEdit}
        />
        <Toaster />
      </>,
    )
    expect(
      await screen.findByText('As mensagens só podem ser enviadas em um atendimento aberto.'),
    ).toBeInTheDocument()
    expect(view.box.value).toBe('Ver com logística')
    expect(screen.getByTestId('note-mode')).toBeInTheDocument()
  })

  test('a refused send puts the text back and reports the error', async () => {
    mockFetch({
      'POST /api/messages/5': () => ({ status: 409, body: { error: 'ERR_TICKET_NOT_OPEN', message: 'x' } }),
    })
    const { box } = renderInput()
    await userEvent.type(box, 'Oi{Enter}')
    expect(
      await screen.findByText('As mensagens só podem ser enviadas em um atendimento aberto.'),
    ).toBeInTheDocument()
    expect(box.value).toBe('Oi')
  })

  test('attachments: previewed first, then sent as multipart medias with the caption', async () => {
    const calls = mockFetch({ 'POST /api/messages/5': () => ({ status: 201, body: [] }) })
    const { box } = renderInput()
    const file = new File(['%PDF-1.4 hello'], 'pedido.pdf', { type: 'application/pdf' })
    await userEvent.upload(screen.getByTestId('file-input'), file)
    expect(screen.getByTestId('attachments')).toHaveTextContent('pedido.pdf')
    expect(screen.getByText('1 arquivo para enviar')).toBeInTheDocument()
    expect(sent(calls)).toHaveLength(0)
    await userEvent.type(box, 'Segue o pedido')
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }))
    await waitFor(() => expect(sent(calls)).toHaveLength(1))
    const form = sent(calls)[0]?.body as FormData
    expect(form).toBeInstanceOf(FormData)
    expect((form.get('medias') as File).name).toBe('pedido.pdf')
    expect(form.get('body')).toBe('Segue o pedido')
    await waitFor(() => expect(screen.queryByTestId('attachments')).toBeNull())
  })

  test('pasted files become attachments, only on an open ticket', async () => {
    mockFetch({})
    const file = new File(['x'], 'print.png', { type: 'image/png' })
    const closed = renderInput({ ticket: makeTicket({ status: 'closed' }) })
    fireEvent.paste(closed.box, { clipboardData: { files: [file], getData: () => '' } })
    expect(screen.queryByTestId('attachments')).toBeNull()
    closed.unmount()
    const open = renderInput()
    fireEvent.paste(open.box, { clipboardData: { files: [file], getData: () => '' } })
    expect(await screen.findByTestId('attachments')).toHaveTextContent('print.png')
  })

  test('an emoji goes in at the cursor; the picker shows 16 per line', async () => {
    mockFetch({})
    const { box } = renderInput()
    fireEvent.change(box, { target: { value: 'Oi !' } })
    box.setSelectionRange(3, 3)
    await userEvent.click(screen.getByRole('button', { name: 'Emojis' }))
    const lines = await screen.findAllByTestId('emoji-line')
    for (const line of lines.slice(0, -1)) expect(line.querySelectorAll('button')).toHaveLength(16)
    expect(lines.at(-1)!.querySelectorAll('button').length).toBeLessThanOrEqual(16)
    await userEvent.click(screen.getByRole('button', { name: '😀' }))
    expect(box.value).toBe('Oi 😀!')
  })
})

/** A MediaRecorder that hands over a recording of `size` bytes when stopped. */
function fakeRecorder(size: number) {
  class FakeRecorder {
    static isTypeSupported = (t: string) => t === 'audio/webm;codecs=opus'
    state = 'inactive'
    mimeType = 'audio/webm;codecs=opus'
    ondataavailable: ((e: { data: Blob }) => void) | null = null
    onstop: (() => void) | null = null
    constructor(
      _stream: unknown,
      readonly options: { mimeType?: string; audioBitsPerSecond?: number },
    ) {
      recorders.push(this)
    }
    start() {
      this.state = 'recording'
    }
    stop() {
      this.state = 'inactive'
      this.ondataavailable?.({ data: new Blob([new Uint8Array(size)]) })
      this.onstop?.()
    }
  }
  const recorders: FakeRecorder[] = []
  ;(globalThis as unknown as { MediaRecorder: unknown }).MediaRecorder = FakeRecorder
  const track = { stop: mock(() => {}) }
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: mock(async () => ({ getTracks: () => [track] })) },
  })
  return { recorders, track }
}

describe('MessageInput: audio', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser())
  })
  afterEach(() => {
    resetState()
    delete (globalThis as unknown as { MediaRecorder?: unknown }).MediaRecorder
  })

  test('record, see the mm:ss timer, send: a voice note of 10000 bytes or more is uploaded', async () => {
    const { recorders, track } = fakeRecorder(12_000)
    const calls = mockFetch({ 'POST /api/messages/5': () => ({ status: 201, body: [] }) })
    renderInput()
    await userEvent.click(screen.getByRole('button', { name: 'Gravar áudio' }))
    expect(await screen.findByTestId('recording-time')).toHaveTextContent('00:00')
    expect(recorders[0]?.options.audioBitsPerSecond).toBe(128_000)
    await act(() => new Promise((r) => setTimeout(r, 1100)))
    expect(screen.getByTestId('recording-time')).toHaveTextContent('00:01')
    await userEvent.click(screen.getByRole('button', { name: 'Enviar áudio' }))
    await waitFor(() => expect(sent(calls)).toHaveLength(1))
    const file = (sent(calls)[0]!.body as FormData).get('medias') as File
    expect(file.size).toBe(12_000)
    expect(file.name).toMatch(/^audio-\d+\.webm$/)
    expect(track.stop).toHaveBeenCalled()
  })

  test('a recording under 10000 bytes is discarded silently', async () => {
    fakeRecorder(9_999)
    const calls = mockFetch({ 'POST /api/messages/5': () => ({ status: 201, body: [] }) })
    renderInput()
    await userEvent.click(screen.getByRole('button', { name: 'Gravar áudio' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Enviar áudio' }))
    await act(() => new Promise((r) => setTimeout(r, 50)))
    expect(sent(calls)).toHaveLength(0)
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByRole('button', { name: 'Gravar áudio' })).toBeInTheDocument()
  })

  test('cancel throws the recording away', async () => {
    fakeRecorder(50_000)
    const calls = mockFetch({ 'POST /api/messages/5': () => ({ status: 201, body: [] }) })
    renderInput()
    await userEvent.click(screen.getByRole('button', { name: 'Gravar áudio' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Descartar gravação' }))
    await act(() => new Promise((r) => setTimeout(r, 50)))
    expect(sent(calls)).toHaveLength(0)
  })

  test('a microphone that cannot be used is reported', async () => {
    fakeRecorder(50_000)
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: mock(async () => Promise.reject(new Error('NotAllowedError'))) },
    })
    mockFetch({})
    renderInput()
    await userEvent.click(screen.getByRole('button', { name: 'Gravar áudio' }))
    expect(
      await screen.findByText('Não foi possível acessar o microfone. Verifique a permissão do navegador.'),
    ).toBeInTheDocument()
  })
})
