import { beforeEach, describe, expect, mock, test } from 'bun:test'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { MessageDto } from '../../../../shared/api'
import { resetState } from '../../../test/utils'
import { makeMessage } from './fixtures'
import { type MessageActions, MessageBubble } from './MessageBubble'

function actions(overrides: Partial<MessageActions> = {}): MessageActions {
  return {
    onReply: mock(),
    onEdit: mock(),
    onDelete: mock(),
    onForward: mock(),
    onReact: mock(),
    onRetrySend: mock(async () => {}),
    onRetryMedia: mock(async () => {}),
    onQuoteClick: mock(),
    onToggleSelect: mock(),
    ...overrides,
  }
}

function show(m: MessageDto, extra: Partial<Parameters<typeof MessageBubble>[0]> = {}) {
  const a = actions()
  const view = render(<MessageBubble m={m} actions={a} canSend {...extra} />)
  return { ...view, actions: a, bubble: screen.getByTestId('bubble') }
}

describe('MessageBubble: one message per kind', () => {
  beforeEach(() => resetState())

  test('text with WhatsApp formatting and a link, time HH:mm', () => {
    const at = new Date(2026, 2, 2, 9, 5).toISOString()
    const { bubble } = show(
      makeMessage({ body: '*Oi* _tudo_ bem? veja https://example.com/a', createdAt: at }),
    )
    expect(bubble.dataset.kind).toBe('text')
    expect(within(bubble).getByText('Oi').tagName).toBe('STRONG')
    expect(within(bubble).getByText('tudo').tagName).toBe('EM')
    expect(within(bubble).getByRole('link', { name: 'https://example.com/a' })).toHaveAttribute(
      'target',
      '_blank',
    )
    expect(within(bubble).getAllByText('09:05').length).toBeGreaterThan(0)
  })

  test('customer text never becomes markup', () => {
    const { bubble } = show(makeMessage({ body: '<img src=x onerror=alert(1)>' }))
    expect(bubble.querySelector('img')).toBeNull()
    expect(within(bubble).getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument()
  })

  test('image: the picture, and the caption when it is not just the file name', () => {
    const { bubble } = show(
      makeMessage({
        mediaType: 'image',
        mediaUrl: '/api/media/x.jpg?s=1',
        mediaName: 'foto.jpg',
        body: 'Meu pedido',
        mediaState: 'stored',
      }),
    )
    expect(bubble.dataset.kind).toBe('image')
    expect(bubble.querySelector('img')?.getAttribute('src')).toBe('/api/media/x.jpg?s=1')
    expect(within(bubble).getByText('Meu pedido')).toBeInTheDocument()
  })

  test('audio: playable; a voice note is shown as one', () => {
    const { bubble, unmount } = show(
      makeMessage({
        mediaType: 'audio',
        mediaUrl: '/api/media/a.ogg',
        ptt: true,
        body: '',
        mediaState: 'stored',
      }),
    )
    const audio = bubble.querySelector('audio')
    expect(audio?.getAttribute('src')).toBe('/api/media/a.ogg')
    expect(audio).toHaveAttribute('controls')
    expect(bubble.querySelector('[data-voice]')).not.toBeNull()
    expect(within(bubble).getByLabelText('Mensagem de voz')).toBeInTheDocument()
    unmount()
    const file = show(
      makeMessage({
        mediaType: 'audio',
        mediaUrl: '/api/media/b.mp3',
        mediaName: 'musica.mp3',
        body: '',
        mediaState: 'stored',
      }),
    )
    expect(file.bubble.querySelector('[data-voice]')).toBeNull()
    expect(within(file.bubble).getByText('musica.mp3')).toBeInTheDocument()
  })

  test('video: a player', () => {
    const { bubble } = show(
      makeMessage({ mediaType: 'video', mediaUrl: '/api/media/v.mp4', body: '', mediaState: 'stored' }),
    )
    expect(bubble.querySelector('video')?.getAttribute('src')).toBe('/api/media/v.mp4')
  })

  test('document: name, type and size, as a download', () => {
    const { bubble } = show(
      makeMessage({
        mediaType: 'application',
        mediaUrl: '/api/media/d.pdf',
        mediaName: 'boleto.pdf',
        mediaSize: 250_880,
        body: 'boleto.pdf',
        mediaState: 'stored',
      }),
    )
    expect(bubble.dataset.kind).toBe('document')
    const link = within(bubble).getByRole('link')
    expect(link).toHaveAttribute('href', '/api/media/d.pdf')
    expect(link).toHaveAttribute('download', 'boleto.pdf')
    expect(within(link).getByText('boleto.pdf')).toBeInTheDocument()
    expect(within(link).getByText('PDF · 245 KB')).toBeInTheDocument()
    // The body that only repeats the file name is not shown again as a caption.
    expect(within(bubble).getAllByText('boleto.pdf')).toHaveLength(1)
  })

  test('location: a map link with the place name', () => {
    const { bubble } = show(
      makeMessage({
        mediaType: 'locationMessage',
        body: JSON.stringify({ latitude: -23.55, longitude: -46.63, name: 'Loja Centro' }),
      }),
    )
    const link = within(bubble).getByRole('link')
    expect(link.getAttribute('href')).toContain('-23.55,-46.63')
    expect(within(link).getByText('Loja Centro')).toBeInTheDocument()
    expect(within(link).getByText('Abrir no mapa')).toBeInTheDocument()
  })

  test('contact card (vCard): name and numbers as phone links', () => {
    const vcard =
      'BEGIN:VCARD\nVERSION:3.0\nFN:João Lima\nTEL;type=CELL;waid=5511988887777:+55 11 98888-7777\nEND:VCARD'
    const { bubble } = show(makeMessage({ mediaType: 'contactMessage', body: vcard }))
    expect(bubble.dataset.kind).toBe('contact')
    expect(within(bubble).getByText('João Lima')).toBeInTheDocument()
    expect(within(bubble).getByRole('link', { name: '+55 11 98888-7777' })).toHaveAttribute(
      'href',
      'tel:+5511988887777',
    )
  })

  test('call log', () => {
    const { bubble } = show(makeMessage({ mediaType: 'call_log', body: '' }))
    expect(bubble.dataset.kind).toBe('call')
    expect(within(bubble).getByText('Chamada de voz perdida')).toBeInTheDocument()
  })

  test('media still downloading, and failed with ERR_WAPP_DOWNLOAD_MEDIA and a retry', async () => {
    const pending = show(makeMessage({ mediaType: 'image', mediaState: 'pending', body: '' }))
    expect(within(pending.bubble).getByText('Baixando mídia...')).toBeInTheDocument()
    pending.unmount()
    const m = makeMessage({ mediaType: 'image', mediaState: 'failed', body: '' })
    const { bubble, actions: a } = show(m)
    expect(within(bubble).getByTestId('media-failed')).toHaveTextContent(
      'Não foi possível baixar a mídia do WhatsApp.',
    )
    await userEvent.click(within(bubble).getByRole('button', { name: 'Baixar novamente' }))
    expect(a.onRetryMedia).toHaveBeenCalledWith(m)
  })

  test('private note: amber, with a lock and its label, and no ticks', () => {
    const { bubble } = show(makeMessage({ fromMe: true, isPrivate: true, body: 'Cliente VIP', ack: 0 }))
    expect(bubble.dataset.private).toBe('true')
    expect(within(bubble).getByText('Nota privada')).toBeInTheDocument()
    expect(bubble.querySelector('[data-ack]')).toBeNull()
  })

  test('deleted: greyed, struck, marked', () => {
    const { bubble } = show(makeMessage({ isDeleted: true, body: 'Mensagem antiga' }))
    expect(bubble.dataset.deleted).toBe('true')
    expect(within(bubble).getByText('Mensagem apagada')).toBeInTheDocument()
    expect(within(bubble).getByText('Mensagem antiga').closest('.line-through')).not.toBeNull()
  })

  test('edited: marked, with the earlier text in its tooltip', () => {
    const { bubble } = show(
      makeMessage({
        isEdited: true,
        body: 'Novo',
        oldMessages: [{ body: 'Velho', createdAt: '2026-03-02T12:00:00.000Z' }],
      }),
    )
    const mark = within(bubble).getByTestId('edited')
    expect(mark).toHaveTextContent('Editada')
    expect(mark.getAttribute('title')).toContain('Velho')
  })

  test('quoted message as a bar; a click asks to go to it', async () => {
    const m = makeMessage({
      body: 'Sim, esse',
      quotedMsg: {
        id: 42,
        body: 'Qual produto?',
        fromMe: true,
        mediaType: 'chat',
        isDeleted: false,
        participantName: null,
        contactName: null,
      },
    })
    const { bubble, actions: a } = show(m)
    const quote = within(bubble).getByTestId('quoted')
    expect(quote).toHaveTextContent('Você')
    expect(quote).toHaveTextContent('Qual produto?')
    await userEvent.click(quote)
    expect(a.onQuoteClick).toHaveBeenCalledWith(42)
  })

  test('reactions under their message, grouped', () => {
    show(
      makeMessage({
        reactions: [
          { emoji: '👍', fromMe: false, senderName: 'Maria' },
          { emoji: '👍', fromMe: true, senderName: 'Ana' },
          { emoji: '❤️', fromMe: false, senderName: 'João' },
        ],
      }),
    )
    const pill = screen.getByTestId('reactions')
    expect(pill).toHaveTextContent('👍❤️3')
  })

  test('a failed send shows the reason and a retry', async () => {
    const m = makeMessage({ fromMe: true, sendState: 'failed', sendError: 'número inválido', ack: 0 })
    const { bubble, actions: a } = show(m)
    expect(within(bubble).getByRole('alert')).toHaveTextContent('Não enviada: número inválido')
    expect(bubble.querySelector('[data-ack="failed"]')).not.toBeNull()
    await userEvent.click(within(bubble).getByRole('button', { name: 'Tentar novamente' }))
    expect(a.onRetrySend).toHaveBeenCalledWith(m)
  })
})

test("a failure's ERR_ code is said in words", () => {
  resetState()
  const { bubble } = show(
    makeMessage({
      fromMe: true,
      sendState: 'failed',
      sendError: 'ERR_WAPP_NOT_INITIALIZED: the connection is not connected',
    }),
  )
  expect(within(bubble).getByRole('alert')).toHaveTextContent(
    'Não enviada: A sessão do WhatsApp não foi inicializada. Verifique a página de conexões.',
  )
})

describe('MessageBubble: ack ticks', () => {
  test.each([
    [0, 'Enviando'],
    [1, 'Enviada'],
    [2, 'Entregue'],
    [3, 'Entregue a todos'],
    [4, 'Lida'],
  ] as const)('ack %i is "%s"', (ack, label) => {
    const { bubble } = show(makeMessage({ fromMe: true, ack, sendState: 'sent' }))
    const tick = bubble.querySelector('[data-ack]')
    expect(tick?.getAttribute('data-ack')).toBe(String(ack))
    expect(tick?.getAttribute('aria-label')).toBe(label)
    // Only read is blue.
    expect((tick?.getAttribute('class') ?? '').includes('#1d9bd7')).toBe(ack === 4)
    // One tick for sent, two for delivered and read, a clock while pending.
    const kind = tick?.getAttribute('class') ?? ''
    expect(kind).toContain(ack === 0 ? 'lucide-clock' : ack === 1 ? 'lucide-check' : 'lucide-check-check')
    expect(kind.includes('lucide-check-check')).toBe(ack >= 2)
  })

  test("the customer's messages have no ticks", () => {
    const { bubble } = show(makeMessage({ fromMe: false, ack: 4 }))
    expect(bubble.querySelector('[data-ack]')).toBeNull()
  })
})

describe('MessageBubble: menu', () => {
  test('reply, edit (own text), forward and delete (own)', async () => {
    const m = makeMessage({ fromMe: true, body: 'Oi', sendState: 'sent', ack: 2 })
    const { actions: a } = show(m)
    await userEvent.click(screen.getByRole('button', { name: 'Opções da mensagem' }))
    expect(screen.getByRole('menuitem', { name: /Responder/ })).toBeInTheDocument()
    expect(screen.getByRole('menuitem', { name: /Encaminhar/ })).toBeInTheDocument()
    expect(screen.getByRole('menuitem', { name: /Excluir/ })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('menuitem', { name: /Editar/ }))
    expect(a.onEdit).toHaveBeenCalledWith(m)
  })

  test("the customer's message cannot be edited or deleted; nothing to send on a closed ticket", async () => {
    show(makeMessage({ fromMe: false }), { canSend: false })
    await userEvent.click(screen.getByRole('button', { name: 'Opções da mensagem' }))
    expect(screen.queryByRole('menuitem', { name: /Editar/ })).toBeNull()
    expect(screen.queryByRole('menuitem', { name: /Excluir/ })).toBeNull()
    expect(screen.queryByRole('menuitem', { name: /Responder/ })).toBeNull()
    expect(screen.getByRole('menuitem', { name: /Encaminhar/ })).toBeInTheDocument()
  })

  test('read-only (spy): no menu', () => {
    show(makeMessage(), { readOnly: true })
    expect(screen.queryByRole('button', { name: 'Opções da mensagem' })).toBeNull()
  })
})
