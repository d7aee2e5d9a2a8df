import { Tab as HTab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react'
import type { ReactNode } from 'react'
import { cn } from '../../lib/cn'

export type TabItem = {
  key: string
  label: ReactNode
  content: ReactNode
  /** Marks the tab (a red dot) when a field inside it has an error. */
  invalid?: boolean
}

/**
 * Underlined tabs; the list scrolls sideways on narrow screens.
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
  listClassName?: string
  panelClassName?: string
  selectedIndex?: number
  onChange?: (index: number) => void
}) {
  return (
    <TabGroup className={className} selectedIndex={selectedIndex} onChange={onChange}>
      <TabList className={cn('flex gap-1 overflow-x-auto border-border border-b', listClassName)}>
        {tabs.map((tab) => (
          <HTab
            key={tab.key}
            className={cn(
              '-mb-px inline-flex items-center gap-1.5 whitespace-nowrap border-b-2 border-transparent px-3 py-2.5 font-medium text-muted text-sm max-sm:min-h-11',
              'transition-colors duration-150 hover:text-fg focus:outline-none data-focus-visible:outline-2 data-focus-visible:outline-focus',
              'data-selected:border-brand data-selected:text-fg',
            )}
          >
            {tab.label}
            {tab.invalid && <span aria-hidden className="size-1.5 rounded-full bg-danger" />}
          </HTab>
        ))}
      </TabList>
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
