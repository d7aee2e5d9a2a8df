import { describe, expect, test } from 'bun:test'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { livePageSuite, makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { curlMedia, curlText, NUMBER_PATTERN } from './MessagesApiPage'

const TOKEN = 'conn-token-abc123'

/** The calls to the send endpoint (the page's other requests left out). */
function serve(answer: (c: { headers: Headers; body: unknown }) => { status?: number; body?: unknown }) {
  const calls = mockFetch({ 'POST /api/messages/send': answer })
  return {
    get length() {
      return calls.filter((c) => c.path === '/api/messages/send').length
    },
    at: (i: number) => calls.filter((c) => c.path === '/api/messages/send')[i]!,
  }
}

describe('MessagesApiPage', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  test('documents the call for text and media with curl examples for this origin; the menu links it', async () => {
    serve(() => ({ body: {} }))
    renderAt('/messages-api')
    expect(await screen.findByRole('heading', { name: 'API de mensagens' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'API de mensagens' })).toHaveAttribute('href', '/messages-api')
    const origin = window.location.origin
    expect(screen.getByRole('figure', { name: 'Exemplo curl de texto' })).toHaveTextContent(
      `${origin}/api/messages/send`,
    )
    const code = (name: string) => screen.getByRole('figure', { name }).querySelector('code')?.textContent
    expect(code('Exemplo curl de texto')).toBe(curlText(origin))
    expect(code('Exemplo curl com arquivo')).toBe(curlMedia(origin))
    expect(curlMedia(origin)).toContain("-F 'medias=@")
    expect(screen.getByText(/Authorization: Bearer <token>/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Conexões → editar/ })).toHaveAttribute('href', '/connections')
  })

  test('the text tester checks token and number (unmasked digits), sends with the token and says so', async () => {
    const calls = serve(() => ({
      body: { message: 'Message sent', ticketId: 1, contactId: 2, messages: [] },
    }))
    renderAt('/messages-api')
    const form = await screen.findByRole('form', { name: 'Testar mensagem de texto' })
    await userEvent.click(within(form).getByRole('button', { name: 'Enviar' }))
    expect(within(form).getByText('Informe o token da conexão')).toBeInTheDocument()
    expect(within(form).getByText('Informe o número')).toBeInTheDocument()
    expect(within(form).getByText('Escreva a mensagem')).toBeInTheDocument()
    await userEvent.type(within(form).getByLabelText(/Token da conexão/), TOKEN)
    await userEvent.type(within(form).getByRole('textbox', { name: /Número/ }), '(11) 99999-8888')
    await userEvent.type(within(form).getByRole('textbox', { name: /Mensagem/ }), 'Olá do teste')
    await userEvent.click(within(form).getByRole('button', { name: 'Enviar' }))
    expect(within(form).getByText(/Use só dígitos, sem máscara/)).toBeInTheDocument()
    expect(calls.length).toBe(0)
    const number = within(form).getByRole('textbox', { name: /Número/ })
    await userEvent.clear(number)
    await userEvent.type(number, '5511999998888')
    await userEvent.click(within(form).getByRole('button', { name: 'Enviar' }))
    expect(await within(form).findByRole('status')).toHaveTextContent('Mensagem enviada com sucesso')
    expect(calls.length).toBe(1)
    expect(calls.at(0).headers.get('authorization')).toBe(`Bearer ${TOKEN}`)
    expect(calls.at(0).headers.get('content-type')).toBe('application/json')
    expect(calls.at(0).body).toEqual({ number: '5511999998888', body: 'Olá do teste' })
  })

  test('the server’s refusal is shown translated', async () => {
    serve(() => ({ status: 400, body: { error: 'ERR_WAPP_INVALID_CONTACT', message: 'not on WhatsApp' } }))
    renderAt('/messages-api')
    const form = await screen.findByRole('form', { name: 'Testar mensagem de texto' })
    await userEvent.type(within(form).getByLabelText(/Token da conexão/), TOKEN)
    await userEvent.type(within(form).getByRole('textbox', { name: /Número/ }), '5511999998888')
    await userEvent.type(within(form).getByRole('textbox', { name: /Mensagem/ }), 'Oi')
    await userEvent.click(within(form).getByRole('button', { name: 'Enviar' }))
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'Este não é um número de WhatsApp válido.',
    )
    expect(within(form).queryByRole('status')).toBeNull()
  })

  test('the media tester sends a multipart form with number, caption and the file', async () => {
    const calls = serve(() => ({ body: { message: 'Message sent' } }))
    renderAt('/messages-api')
    const form = await screen.findByRole('form', { name: 'Testar mensagem com arquivo' })
    await userEvent.type(within(form).getByLabelText(/Token da conexão/), TOKEN)
    await userEvent.type(within(form).getByRole('textbox', { name: /Número/ }), '5511999998888')
    await userEvent.click(within(form).getByRole('button', { name: 'Enviar' }))
    expect(within(form).getByText('Escolha um arquivo')).toBeInTheDocument()
    await userEvent.type(within(form).getByRole('textbox', { name: /Legenda/ }), 'Comprovante')
    const file = new File(['%PDF-1.4'], 'comprovante.pdf', { type: 'application/pdf' })
    await userEvent.upload(within(form).getByLabelText('Arquivo'), file)
    expect(within(form).getByText('comprovante.pdf')).toBeInTheDocument()
    await userEvent.click(within(form).getByRole('button', { name: 'Enviar' }))
    expect(await within(form).findByRole('status')).toHaveTextContent('Mensagem enviada com sucesso')
    const sent = calls.at(0).body as FormData
    expect(sent).toBeInstanceOf(FormData)
    expect(sent.get('number')).toBe('5511999998888')
    expect(sent.get('body')).toBe('Comprovante')
    expect((sent.get('medias') as File).name).toBe('comprovante.pdf')
    expect(calls.at(0).headers.get('authorization')).toBe(`Bearer ${TOKEN}`)
  })

  test('without the plan flag: a message and no menu item', async () => {
    serve(() => ({}))
    resetState()
    signIn(makeUser({ company: { ...makeUser().company!, plan: { useExternalApi: false } as never } }))
    renderAt('/messages-api')
    expect(await screen.findByText('O plano da sua empresa não inclui a API externa.')).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'API de mensagens' })).toBeNull()
  })

  test('the number rule: 10 to 15 digits, nothing else', () => {
    for (const ok of ['5511999998888', '551133334444', '14155550123'])
      expect(NUMBER_PATTERN.test(ok)).toBe(true)
    for (const bad of ['+5511999998888', '(11) 99999-8888', '11 9999', '123', '5511999998888999'])
      expect(NUMBER_PATTERN.test(bad)).toBe(false)
  })
})
