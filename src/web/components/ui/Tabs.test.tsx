import { beforeEach, describe, expect, mock, test } from 'bun:test'
import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import i18n from '../../i18n'
import { Tabs } from './Tabs'

const tabs = ['Geral', 'Filas e bot', 'Avaliação', 'Férias', 'Importar', 'Integração'].map((label) => ({
  key: label,
  label,
  content: <p>{label} content</p>,
}))

/** happy-dom lays nothing out: give the strip the sizes of a phone (200 px showing 600 px of tabs). */
function phoneStrip() {
  const list = screen.getByRole('tablist')
  let left = 0
  Object.defineProperties(list, {
    clientWidth: { configurable: true, get: () => 200 },
    scrollWidth: { configurable: true, get: () => 600 },
    scrollLeft: {
      configurable: true,
      get: () => left,
      set: (v: number) => {
        left = v
      },
    },
  })
  const scrollBy = mock((opts: ScrollToOptions) => {
    left = Math.min(400, Math.max(0, left + (opts.left ?? 0)))
    list.dispatchEvent(new Event('scroll'))
  })
  list.scrollBy = scrollBy as unknown as typeof list.scrollBy
  act(() => void window.dispatchEvent(new Event('resize')))
  return {
    list,
    scrollBy,
    scrollTo: (x: number) =>
      act(() => {
        left = x
        list.dispatchEvent(new Event('scroll'))
      }),
  }
}

describe('Tabs', () => {
  beforeEach(() => i18n.changeLanguage('pt'))

  test('a strip wider than the screen shows a cue at the side that hides tabs; the cue scrolls', async () => {
    render(<Tabs tabs={tabs} />)
    expect(screen.queryByTestId('tabs-more-end')).toBeNull() // nothing measured yet: everything fits
    const strip = phoneStrip()
    expect(screen.getByTestId('tabs-more-end')).toHaveAttribute('aria-label', 'Mais abas')
    expect(screen.queryByTestId('tabs-more-start')).toBeNull()
    await userEvent.click(screen.getByTestId('tabs-more-end'))
    expect(strip.scrollBy).toHaveBeenCalledTimes(1)
    expect(screen.getByTestId('tabs-more-start')).toHaveAttribute('aria-label', 'Abas anteriores')
    strip.scrollTo(400)
    expect(screen.queryByTestId('tabs-more-end')).toBeNull()
  })

  test('the cues are not in the tab order; arrow keys move between tabs', async () => {
    render(<Tabs tabs={tabs} />)
    phoneStrip()
    expect(screen.getByTestId('tabs-more-end')).toHaveAttribute('tabindex', '-1')
    await userEvent.tab()
    expect(screen.getByRole('tab', { name: 'Geral' })).toHaveFocus()
    await userEvent.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Filas e bot' })).toHaveFocus()
    expect(screen.getByText('Filas e bot content')).toBeInTheDocument()
  })
})
