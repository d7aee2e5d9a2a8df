import { describe, expect, test } from 'bun:test'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { AnnouncementDto } from '../../../../shared/announcements'
import { dispatch } from '../../../api/live'
import { livePageSuite, mockFetch, renderAt } from '../../../test/utils'
import { seenKey } from './announcements'

const USER = 4

const announcement = (id: number, title: string, extra: Partial<AnnouncementDto> = {}): AnnouncementDto => ({
  id,
  title,
  text: `Texto de ${title}`,
  priority: 3,
  status: true,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  createdAt: new Date(Date.UTC(2026, 10, 1, 10, id)).toISOString(),
  updatedAt: new Date(Date.UTC(2026, 10, 1, 10, id)).toISOString(),
  ...extra,
})

/** 12 active announcements, newest (12) first, in pages of 10. */
const FEED = Array.from({ length: 12 }, (_, i) => announcement(12 - i, `Aviso ${12 - i}`))

function serve(feed: () => AnnouncementDto[] = () => FEED) {
  return mockFetch({
    'GET /api/announcements/feed': (c) => {
      const page = Number(c.query.get('pageNumber') ?? 1)
      const all = feed()
      return { body: { records: all.slice((page - 1) * 10, page * 10), hasMore: all.length > page * 10 } }
    },
  })
}

const bell = () => screen.getByTestId('announcements-button')
const frame = (data: unknown) => act(() => dispatch(JSON.stringify({ event: 'announcement', data })))

async function openBell() {
  await userEvent.click(bell())
  return await screen.findByRole('list', { name: 'Informativos' })
}

describe('the announcements bell', () => {
  livePageSuite({ id: USER, companyId: 7, profile: 'user', super: false })

  test('every user has it; it lists the active ones with priority colour, date and first lines; more on scroll', async () => {
    const calls = serve(() => [
      announcement(12, 'Manutenção', { priority: 1, text: 'Linha 1\nLinha 2\nLinha 3' }),
      announcement(11, 'Novidade', { priority: 2 }),
      ...FEED.slice(2),
    ])
    renderAt('/tickets')
    await waitFor(() => expect(bell()).toBeInTheDocument())
    const list = await openBell()
    const items = within(list).getAllByRole('button')
    expect(items).toHaveLength(10)
    expect(items[0]).toHaveAttribute('data-priority', '1')
    expect(items[0]!.className).toContain('before:bg-danger')
    expect(items[1]!.className).toContain('before:bg-warning')
    expect(items[2]!.className).toContain('before:bg-border-strong')
    expect(within(items[0]!).getByText('Manutenção')).toBeInTheDocument()
    expect(within(items[0]!).getByText(/Linha 1/)).toBeInTheDocument()
    expect(within(items[0]!).getByText('01/11/2026')).toBeInTheDocument()
    fireEvent.scroll(screen.getByTestId('announcements-scroller'))
    await waitFor(() => expect(within(list).getAllByRole('button')).toHaveLength(12))
    expect(
      calls.filter((c) => c.path === '/api/announcements/feed').map((c) => c.query.get('pageNumber')),
    ).toEqual(['1', '2'])
    expect(screen.queryByRole('button', { name: 'Ver mais' })).toBeNull()
  })

  test('a click opens the detail: title, whole text with its line breaks, image and date', async () => {
    serve(() => [
      announcement(3, 'Feriado', {
        priority: 2,
        text: 'Na segunda não haverá suporte.\nVoltamos na terça.',
        mediaName: 'feriado.png',
        mediaPath: 'f.png',
        mediaUrl: '/api/media/1/f.png?exp=1&sig=x',
      }),
    ])
    renderAt('/tickets')
    const list = await openBell()
    await userEvent.click(within(list).getByRole('button', { name: /Feriado/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Feriado' })
    const text = within(dialog).getByText(/Na segunda não haverá suporte/)
    expect(text.textContent).toBe('Na segunda não haverá suporte.\nVoltamos na terça.')
    expect(text.className).toContain('whitespace-pre-wrap')
    expect(within(dialog).getByRole('img', { name: 'feriado.png' })).toHaveAttribute(
      'src',
      '/api/media/1/f.png?exp=1&sig=x',
    )
    expect(within(dialog).getByText('Média')).toBeInTheDocument()
    expect(within(dialog).getByText(/^01\/11\/2026 \d\d:03$/)).toBeInTheDocument()
  })

  test('live: create adds at the front, an update that makes it inactive removes it, delete removes', async () => {
    serve(() => FEED.slice(0, 3))
    renderAt('/tickets')
    const list = await openBell()
    frame({ action: 'create', record: announcement(30, 'Urgente', { priority: 1 }) })
    await waitFor(() => expect(within(list).getAllByRole('button')[0]).toHaveTextContent('Urgente'))
    frame({ action: 'update', record: { ...FEED[0]!, title: 'Aviso 12 revisto' } })
    await waitFor(() => expect(within(list).getByText('Aviso 12 revisto')).toBeInTheDocument())
    frame({ action: 'update', record: { ...FEED[1]!, status: false } })
    await waitFor(() => expect(within(list).queryByText('Aviso 11')).toBeNull())
    frame({ action: 'delete', id: 30 })
    await waitFor(() => expect(within(list).queryByText('Urgente')).toBeNull())
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([expect.stringContaining('Aviso 12 revisto'), expect.stringContaining('Aviso 10')])
  })

  test('the unread dot: shown for announcements newer than the last opening, kept per user', async () => {
    localStorage.setItem(seenKey(USER), String(Date.parse(FEED[1]!.createdAt)))
    serve(() => FEED.slice(0, 3))
    renderAt('/tickets')
    // Aviso 12 is newer than what was seen.
    expect(await screen.findByTestId('announcements-unread')).toBeInTheDocument()
    expect(bell()).toHaveAttribute('aria-label', 'Informativos (1 novo)')
    const list = await openBell()
    // Marked new in the list this time; the dot goes, and the time is kept.
    expect(within(within(list).getAllByRole('button')[0]!).getByText('Novo')).toBeInTheDocument()
    expect(within(list).getAllByRole('button')[1]).not.toHaveTextContent('Novo')
    await waitFor(() => expect(screen.queryByTestId('announcements-unread')).toBeNull())
    expect(localStorage.getItem(seenKey(USER))).toBe(String(Date.parse(FEED[0]!.createdAt)))
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Informativos' })).toBeNull())
    frame({ action: 'create', record: announcement(40, 'Mais um') })
    expect(await screen.findByTestId('announcements-unread')).toBeInTheDocument()
    localStorage.removeItem(seenKey(USER))
  })

  test('empty and failed states', async () => {
    mockFetch({
      'GET /api/announcements/feed': () => ({ status: 500, body: { error: 'ERR_INTERNAL', message: 'x' } }),
    })
    renderAt('/tickets')
    await waitFor(() => expect(bell()).toBeInTheDocument())
    await userEvent.click(bell())
    const panel = await screen.findByTestId('announcements-scroller')
    expect(await within(panel).findByRole('alert')).toHaveTextContent('Erro interno do servidor')
    serve(() => [])
    await userEvent.click(within(panel).getByRole('button', { name: 'Tentar novamente' }))
    expect(await within(panel).findByText('Nenhum informativo')).toBeInTheDocument()
    expect(screen.queryByTestId('announcements-unread')).toBeNull()
  })
})
