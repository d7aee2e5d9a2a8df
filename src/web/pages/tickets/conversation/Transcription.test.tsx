import { beforeEach, describe, expect, mock, test } from 'bun:test'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { MessageDto } from '../../../../shared/api'
import { makeUser, mockFetch, resetState, signIn } from '../../../test/utils'
import { makeMessage } from './fixtures'
import { type MessageActions, MessageBubble } from './MessageBubble'

const actions = (): MessageActions => ({
  onReply: mock(),
  onEdit: mock(),
  onDelete: mock(),
  onForward: mock(),
  onReact: mock(),
  onRetrySend: mock(async () => {}),
  onRetryMedia: mock(async () => {}),
  onQuoteClick: mock(),
  onToggleSelect: mock(),
})

const voice = (extra: Partial<MessageDto> = {}) =>
  makeMessage({
    id: 41,
    mediaType: 'audio',
    mediaUrl: '/api/media/a.ogg',
    ptt: true,
    body: '',
    mediaState: 'stored',
    fromMe: false,
    ...extra,
  })

function show(m: MessageDto, readOnly = false) {
  const view = render(<MessageBubble m={m} actions={actions()} canSend readOnly={readOnly} />)
  return { ...view, bubble: screen.getByTestId('bubble') }
}

describe('voice note transcription', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser())
  })

  test('a transcribed voice note shows its text under the audio, without the button', () => {
    const { bubble } = show(voice({ transcription: 'Quero saber o preço da entrega.' }))
    expect(within(bubble).getByTestId('transcription')).toHaveTextContent('Quero saber o preço da entrega.')
    expect(within(bubble).getByText('Transcrição')).toBeInTheDocument()
    expect(within(bubble).queryByRole('button', { name: 'Transcrever' })).toBeNull()
  })

  test("'Transcrever' asks the server and shows the text", async () => {
    const calls = mockFetch({
      'POST /api/messages/41/transcribe': () => ({ body: { ...voice(), transcription: 'Bom dia!' } }),
    })
    const { bubble } = show(voice())
    await userEvent.click(within(bubble).getByRole('button', { name: 'Transcrever' }))
    await waitFor(() => expect(within(bubble).getByTestId('transcription')).toHaveTextContent('Bom dia!'))
    expect(calls.filter((c) => c.path === '/api/messages/41/transcribe')).toHaveLength(1)
  })

  test('no button on our own audio, a deleted one, the read-only view, or without the plan flag', () => {
    const cases: [MessageDto, boolean][] = [
      [voice({ fromMe: true }), false],
      [voice({ isDeleted: true }), false],
      [voice({ mediaUrl: null, mediaState: 'pending' }), false],
      [voice(), true],
    ]
    for (const [m, readOnly] of cases) {
      const { bubble, unmount } = show(m, readOnly)
      expect(within(bubble).queryByRole('button', { name: 'Transcrever' })).toBeNull()
      unmount()
    }
    resetState()
    signIn(makeUser({ company: { ...makeUser().company!, plan: { useOpenAi: false } as never } }))
    const { bubble } = show(voice())
    expect(within(bubble).queryByRole('button', { name: 'Transcrever' })).toBeNull()
  })
})
