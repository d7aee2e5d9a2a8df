import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, render, screen, within } from '@testing-library/react'
import { NO_DUE_DATE } from '../../../shared/plans'
import { defaultSettings } from '../../../shared/settings'
import { stopLive } from '../../api/live'
import { makeConnection } from '../../pages/connections/fixtures'
import { resetLiveLists } from '../../state/liveList'
import { toast } from '../../state/toast'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { resetMenuBadges } from './menuBadges'
import { Card, Page } from './Page'

type HappyWindow = { happyDOM: { setViewport(size: { width: number; height: number }): void } }
const setViewport = (width: number, height: number) =>
  (window as unknown as HappyWindow).happyDOM.setViewport({ width, height })

function reset() {
  resetState()
  resetLiveLists()
  resetMenuBadges()
}

describe('pages scroll', () => {
  beforeEach(reset)
  afterEach(() => {
    stopLive()
    reset()
  })

  test('a page of plain content grows with it (the shell scrolls it); a page with a filling card is held to the screen', () => {
    render(
      <>
        <Page title="Doc">
          <Card>
            <p>long content</p>
          </Card>
        </Page>
        <Page title="List">
          <Card fill>
            <p>table</p>
          </Card>
        </Page>
      </>,
    )
    const [doc, list] = [...document.querySelectorAll('[data-page]')] as HTMLElement[]
    // The document page is never capped at the screen's height, and its card keeps its natural height...
    expect(doc!.classList.contains('min-h-0')).toBe(false)
    expect(doc!.matches(':has(> .flex-1)')).toBe(false)
    expect(within(doc!).getByText('long content').closest('section')!.classList.contains('shrink-0')).toBe(
      true,
    )
    // ...while the list page holds its card to the screen, so the card's own scroller loads more.
    expect(list!.matches(':has(> .flex-1)')).toBe(true)
    expect(list!.className).toContain('has-[>.flex-1]:min-h-0')
  })

  test('Settings is a page that scrolls as a whole inside the shell', async () => {
    mockFetch({ 'GET /api/settings': () => ({ body: defaultSettings() }) })
    signIn(makeUser())
    renderAt('/settings')
    await screen.findByRole('button', { name: 'Avaliações' })
    const page = document.querySelector('[data-page]') as HTMLElement
    expect(page.closest('main')).toBe(screen.getByTestId('page-scroller'))
    expect(screen.getByTestId('page-scroller').className).toContain('overflow-y-auto')
    // Nothing between the shell's scroller and the last option is held to the screen's height.
    expect(page.matches(':has(> .flex-1)')).toBe(false)
    expect(page.classList.contains('min-h-0')).toBe(false)
    const card = page.querySelector('section')!
    expect(card.classList.contains('shrink-0')).toBe(true)
  })
})

describe('top bar', () => {
  beforeEach(reset)
  afterEach(() => {
    stopLive()
    reset()
  })

  test('the greeting reads "Bem-vindo(a) à" in pt, and naturally in en and es', async () => {
    mockFetch({})
    signIn(makeUser())
    renderAt('/tickets')
    expect(screen.getByTestId('greeting')).toHaveTextContent('Olá Ana Admin! Bem-vindo(a) à Loja Azul')
    const i18n = (await import('../../i18n')).default
    await act(() => i18n.changeLanguage('en'))
    expect(screen.getByTestId('greeting')).toHaveTextContent('Hello Ana Admin! Welcome to Loja Azul')
    await act(() => i18n.changeLanguage('es'))
    expect(screen.getByTestId('greeting')).toHaveTextContent(
      '¡Hola, Ana Admin! Te damos la bienvenida a Loja Azul',
    )
  })

  test("'Ativo até' shows a company's due date, and nothing for one that never expires (answered 2999-12-31)", () => {
    mockFetch({})
    signIn(makeUser({ company: { ...makeUser().company, dueDate: '2027-03-10' } }))
    const { unmount } = renderAt('/tickets')
    expect(screen.getAllByText('Ativo até 10/03/2027').length).toBeGreaterThan(0)
    unmount()
    signIn(makeUser({ company: { ...makeUser().company, dueDate: NO_DUE_DATE } }))
    renderAt('/tickets')
    expect(screen.queryByText(/Ativo até/)).toBeNull()
  })

  test('toasts start below the top bar, never over it', () => {
    mockFetch({})
    signIn(makeUser())
    renderAt('/tickets')
    act(() => {
      toast.success('Configurações salvas')
    })
    const region = screen.getByTestId('toasts')
    expect(within(region).getByText('Configurações salvas')).toBeInTheDocument()
    // Both read the same height: the top bar is that tall, the toasts start under it.
    expect(screen.getByRole('banner').className).toContain('h-(--topbar-height)')
    expect(region.className).toMatch(/(^|\s)top-\[calc\(var\(--topbar-height\)/)
  })
})

describe("the phone's menu button carries the '!' badge", () => {
  beforeEach(() => {
    reset()
    setViewport(375, 812)
  })
  afterEach(() => {
    stopLive()
    reset()
    setViewport(1024, 768)
  })

  test('it appears after the 2 s delay, and the drawer shows it at once instead of waiting again', async () => {
    mockFetch({
      'GET /api/whatsapp': () => ({ body: [makeConnection({ id: 1, status: 'DISCONNECTED' })] }),
    })
    signIn(makeUser({ profile: 'admin', companyId: 7 }))
    renderAt('/tickets')
    // Phones have no side menu: the button opens the drawer.
    expect(screen.queryByRole('navigation', { name: 'Navegação principal' })).toBeNull()
    expect(screen.queryByTestId('menu-button-badge')).toBeNull()
    await screen.findByTestId('menu-button-badge', {}, { timeout: 3500 })
    const button = screen.getByRole('button', {
      name: 'Abrir menu (Há conexões que não estão conectadas)',
    })

    act(() => button.click())
    const nav = await screen.findByRole('navigation', { name: 'Navegação principal' })
    // No new 2 s wait: the badge is there as soon as the drawer is.
    expect(within(nav).getByTestId('menu-badge')).toBeInTheDocument()
    expect(within(nav).getByRole('link', { name: /Conexões \(Há conexões/ })).toBeInTheDocument()
  }, 10_000)

  test('attendants get no badge and no request', async () => {
    const calls = mockFetch({})
    signIn(makeUser({ profile: 'user' }))
    renderAt('/tickets')
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.getByRole('button', { name: 'Abrir menu' })).toBeInTheDocument()
    expect(screen.queryByTestId('menu-button-badge')).toBeNull()
    expect(calls.filter((c) => c.path === '/api/whatsapp')).toHaveLength(0)
  })
})
