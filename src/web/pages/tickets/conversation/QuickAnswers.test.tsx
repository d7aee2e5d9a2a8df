import { afterEach, beforeEach, describe, expect, mock, test } from 'bun:test'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { MessageDto, QuickMessageDto } from '../../../../shared/api'
import { dispatch, stopLive } from '../../../api/live'
import { Toaster } from '../../../components/ui/Toast'
import { resetLiveLists } from '../../../state/liveList'
import { makeUser, mockFetch, resetState, signIn } from '../../../test/utils'
import { makeMessage, makeTicket } from './fixtures'
import { MessageInput } from './MessageInput'

const quick = (id: number, shortcode: string, message: string, extra: Partial<QuickMessageDto> = {}) =>
  ({
    id,
    shortcode,
    message,
    geral: true,
    status: true,
    isMedia: false,
    mediaPath: null,
    mediaName: null,
    mediaMime: null,
    mediaUrl: null,
    userId: 1,
    companyId: 7,
    createdAt: '',
    updatedAt: '',
    ...extra,
  }) satisfies QuickMessageDto

const QUICK = [
  quick(1, 'ola', 'Olá! Obrigado por falar com a Loja Exemplo, como posso ajudar?'),
  quick(2, 'pix', 'Nossa chave pix é 123'),
  quick(3, 'catalogo', 'Segue o catálogo', {
    isMedia: true,
    mediaPath: 'abcdefghijklmnopqrstuvwx.pdf',
    mediaName: 'catalogo.pdf',
    mediaMime: 'application/pdf',
    mediaUrl: '/api/media/7/abcdefghijklmnopqrstuvwx.pdf?exp=1&sig=x',
  }),
]

function serve(extra = {}) {
  return mockFetch({
    'GET /api/quick-messages/list': () => ({ body: QUICK }),
    'POST /api/messages/5': () => ({ status: 201, body: [makeMessage({ id: 90, fromMe: true })] }),
    ...extra,
  })
}

function renderInput() {
  const onSent = mock((_: MessageDto[]) => {})
  render(
    <>
      <MessageInput
        ticket={makeTicket()}
        replyTo={null}
        editing={null}
        onSent={onSent}
        onCancelReply={() => {}}
        onCancelEdit={() => {}}
      />
      <Toaster />
    </>,
  )
  return { box: screen.getByRole('textbox', { name: 'Mensagem' }) as HTMLTextAreaElement, onSent }
}

describe("MessageInput: quick messages after '/'", () => {
  beforeEach(() => {
    resetState()
    resetLiveLists()
    localStorage.setItem('signOption', 'false')
    signIn(makeUser({ id: 1, companyId: 7, name: 'Ana Admin' }))
  })
  afterEach(() => {
    stopLive()
    resetLiveLists()
    resetState()
  })

  test("nothing is fetched until '/' is typed; then the matches, labelled '/shortcode - message' cut at 35", async () => {
    const calls = serve()
    const { box } = renderInput()
    await userEvent.type(box, 'oi')
    expect(calls.some((c) => c.path === '/api/quick-messages/list')).toBe(false)
    await userEvent.clear(box)
    await userEvent.type(box, '/')
    const list = await screen.findByRole('listbox', { name: 'Respostas rápidas' })
    // In the order the server answered.
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      '/ola - Olá! Obrigado por falar com a Loja ...',
      '/pix - Nossa chave pix é 123',
      '/catalogo - Segue o catálogo',
    ])
    await userEvent.type(box, 'PI')
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['/pix - Nossa chave pix é 123'])
    await userEvent.type(box, 'zz')
    expect(screen.queryByRole('listbox')).toBeNull()
  })

  test('arrow keys move, Enter chooses (the message fills the input, nothing is sent); Tab too', async () => {
    const calls = serve()
    const { box } = renderInput()
    await userEvent.type(box, '/')
    await screen.findByRole('listbox')
    const selected = () =>
      screen.getAllByRole('option').find((o) => o.getAttribute('aria-selected') === 'true')
    expect(selected()?.textContent).toStartWith('/ola')
    await userEvent.keyboard('{ArrowDown}')
    expect(selected()?.textContent).toStartWith('/pix')
    await userEvent.keyboard('{ArrowUp}{ArrowUp}')
    expect(selected()?.textContent).toStartWith('/catalogo')
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{Enter}')
    expect(box.value).toBe('Nossa chave pix é 123')
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(calls.some((c) => c.method === 'POST')).toBe(false)
    await userEvent.clear(box)
    await userEvent.type(box, '/ol')
    await screen.findByRole('listbox')
    await userEvent.keyboard('{Tab}')
    expect(box.value).toBe('Olá! Obrigado por falar com a Loja Exemplo, como posso ajudar?')
    expect(box).toHaveFocus()
  })

  test('Esc closes the suggestions and keeps the text; typing again opens them', async () => {
    serve()
    const { box } = renderInput()
    await userEvent.type(box, '/p')
    await screen.findByRole('listbox')
    await userEvent.keyboard('{Escape}')
    expect(screen.queryByRole('listbox')).toBeNull()
    expect(box.value).toBe('/p')
    await userEvent.type(box, 'i')
    expect(await screen.findByRole('listbox')).toBeInTheDocument()
  })

  test('a click chooses too; a quick message with media attaches its file and sends it', async () => {
    const calls = serve({
      'GET /api/media/7/:file': () => ({ body: { pdf: true } }),
    })
    const { box, onSent } = renderInput()
    await userEvent.type(box, '/cat')
    const option = await screen.findByRole('option', { name: /catalogo/ })
    await userEvent.click(option)
    expect(box.value).toBe('Segue o catálogo')
    await waitFor(() => expect(screen.getByTestId('attachments')).toHaveTextContent('catalogo.pdf'))
    expect(calls.some((c) => c.path === '/api/media/7/abcdefghijklmnopqrstuvwx.pdf')).toBe(true)
    await userEvent.click(screen.getByRole('button', { name: 'Enviar' }))
    await waitFor(() => expect(onSent).toHaveBeenCalled())
    const form = calls.find((c) => c.method === 'POST' && c.path === '/api/messages/5')?.body as FormData
    expect(form).toBeInstanceOf(FormData)
    const file = form.get('medias') as File
    expect(file.name).toBe('catalogo.pdf')
    expect(file.type).toBe('application/pdf')
    expect(form.get('body')).toBe('Segue o catálogo')
  })

  test('live: a new quick message is offered at once; one turned inactive leaves', async () => {
    serve()
    const { box } = renderInput()
    await userEvent.type(box, '/')
    await screen.findByRole('listbox')
    const frame = (data: unknown) =>
      act(() => dispatch(JSON.stringify({ event: 'company-7-quickmessage', data })))
    frame({ action: 'create', record: quick(4, 'prazo', 'Entregamos em 3 dias') })
    expect(screen.getByRole('option', { name: /prazo/ })).toBeInTheDocument()
    frame({ action: 'update', record: quick(2, 'pix', 'x', { status: false }) })
    const shortcodes = () => screen.queryAllByRole('option').map((o) => o.textContent?.split(' - ')[0])
    await waitFor(() => expect(shortcodes()).toEqual(['/ola', '/catalogo', '/prazo']))
    frame({ action: 'delete', id: 1 })
    await waitFor(() => expect(shortcodes()).toEqual(['/catalogo', '/prazo']))
  })
})
