import { Tab as HTab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react'
import { ChevronLeft, ChevronRight } from 'lucide-react'
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn'

export type TabItem = {
  key: string
  label: ReactNode
  content: ReactNode
  /** Marks the tab (a red dot) when a field inside it has an error. */
  invalid?: boolean
}

/** Which ends of the strip hide tabs (the strip is wider than the screen). */
function useOverflow(list: React.RefObject<HTMLDivElement | null>) {
  const [ends, setEnds] = useState({ start: false, end: false })
  const measure = useCallback(() => {
    const el = list.current
    if (!el) return
    const start = el.scrollLeft > 1
    const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1
    setEnds((prev) => (prev.start === start && prev.end === end ? prev : { start, end }))
  }, [list])
  useEffect(() => {
    const el = list.current
    if (!el) return
    measure()
    el.addEventListener('scroll', measure, { passive: true })
    window.addEventListener('resize', measure)
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    observer?.observe(el)
    return () => {
      el.removeEventListener('scroll', measure)
      window.removeEventListener('resize', measure)
      observer?.disconnect()
    }
  }, [list, measure])
  return ends
}

function ScrollCue({ side, onClick, label }: { side: 'start' | 'end'; onClick: () => void; label: string }) {
  const Icon = side === 'start' ? ChevronLeft : ChevronRight
  return (
    <button
      type="button"
      tabIndex={-1}
      aria-label={label}
      title={label}
      onClick={onClick}
      data-testid={`tabs-more-${side}`}
      className={cn(
        'absolute inset-y-0 z-10 flex w-10 items-center text-muted hover:text-fg',
        side === 'start'
          ? 'left-0 justify-start bg-gradient-to-r from-40% from-surface to-transparent pl-1'
          : 'right-0 justify-end bg-gradient-to-l from-40% from-surface to-transparent pr-1',
      )}
    >
      <Icon className="size-4" aria-hidden />
    </button>
  )
}

/**
 * Underlined tabs. On a narrow screen the strip scrolls sideways; a fade with an arrow at either end says more
 * tabs are there (a tap on it scrolls), and the selected tab is scrolled into view.
 * Uncontrolled by default; pass `selectedIndex` + `onChange` to drive it (e.g. to show the tab of an error).
 */
export function Tabs({
  tabs,
  className,
  listClassName,
  panelClassName,
  selectedIndex,
  onChange,
}: {
  tabs: TabItem[]
  className?: string
  /** Classes of the strip's container (e.g. sticky placement). */
  listClassName?: string
  panelClassName?: string
  selectedIndex?: number
  onChange?: (index: number) => void
}) {
  const { t } = useTranslation()
  const list = useRef<HTMLDivElement>(null)
  const ends = useOverflow(list)
  const [current, setCurrent] = useState(selectedIndex ?? 0)
  const shown = selectedIndex ?? current

  // Keep the selected tab in view when the selection changes (a click, the keyboard, or an error elsewhere).
  useEffect(() => {
    const el = list.current?.querySelectorAll<HTMLElement>('[role=tab]')[shown]
    el?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
  }, [shown])

  const scrollBy = (direction: 1 | -1) => {
    const el = list.current
    el?.scrollBy?.({ left: direction * Math.max(120, el.clientWidth * 0.6), behavior: 'smooth' })
  }

  return (
    <TabGroup
      className={className}
      selectedIndex={selectedIndex}
      onChange={(i) => {
        setCurrent(i)
        onChange?.(i)
      }}
    >
      <div className={cn('relative border-border border-b', listClassName)}>
        <TabList
          ref={list}
          className="flex gap-1 overflow-x-auto [scrollbar-width:none] [&::-webkit-scrollbar]:hidden"
        >
          {tabs.map((tab) => (
            <HTab
              key={tab.key}
              className={cn(
                'inline-flex items-center gap-1.5 whitespace-nowrap border-b-2 border-transparent px-3 py-2.5 font-medium text-muted text-sm max-sm:min-h-11',
                'transition-colors duration-150 hover:text-fg focus:outline-none data-focus-visible:outline-2 data-focus-visible:outline-focus data-focus-visible:-outline-offset-2',
                'data-selected:border-brand data-selected:text-fg',
              )}
            >
              {tab.label}
              {tab.invalid && <span aria-hidden className="size-1.5 rounded-full bg-danger" />}
            </HTab>
          ))}
        </TabList>
        {ends.start && <ScrollCue side="start" label={t('tabs.previous')} onClick={() => scrollBy(-1)} />}
        {ends.end && <ScrollCue side="end" label={t('tabs.next')} onClick={() => scrollBy(1)} />}
      </div>
      <TabPanels className={panelClassName}>
        {tabs.map((tab) => (
          <TabPanel key={tab.key} className="focus:outline-none">
            {tab.content}
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  )
}
