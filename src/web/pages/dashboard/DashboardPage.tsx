import { SlidersHorizontal } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card, Page } from '../../components/layout/Page'
import { EmptyState, LoadError } from '../../components/ui/EmptyState'
import { Tabs } from '../../components/ui/Tabs'
import { cn } from '../../lib/cn'
import { AttendantsTable } from './AttendantsTable'
import { FilterBar } from './FilterBar'
import type { DashboardFilter } from './format'
import { Indicators, LoadingCards } from './Indicators'
import { NpsPanel } from './NpsPanel'
import { useDashboard } from './useDashboard'

/**
 * The dashboard (spec 3): a filter (the last N days or a date range), tabs Indicators (the cards and today's
 * tickets per hour), NPS and Attendants. Without a filter it says 'Parametrize o filtro'; the first load waits 1 s.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation()
  const [filter, setFilter] = useState<DashboardFilter>({ kind: 'days', days: 7 })
  const { state, data, hasFilter, retry } = useDashboard(filter)
  const [tab, setTab] = useState(0)
  const subtitle = data
    ? t('dashboard.range', {
        from: day(data.range.dateFrom, i18n.language),
        to: day(data.range.dateTo, i18n.language),
      })
    : null

  let body: ReactNode
  if (!hasFilter) {
    body = (
      <Card>
        <EmptyState icon={<SlidersHorizontal />} title={t('dashboard.needsFilter')}>
          {t('dashboard.needsFilterHint')}
        </EmptyState>
      </Card>
    )
  } else if (state.kind === 'error') {
    body = (
      <Card>
        <LoadError error={`${t('dashboard.loadFailed')}: ${state.message}`} onRetry={retry} />
      </Card>
    )
  } else if (!data) {
    body = <LoadingCards />
  } else {
    body = (
      <div aria-busy={state.kind === 'loading'} className={cn(state.kind === 'loading' && 'opacity-70')}>
        <Tabs
          selectedIndex={tab}
          onChange={setTab}
          panelClassName="pt-4"
          tabs={[
            { key: 'indicators', label: t('dashboard.tabs.indicators'), content: <Indicators data={data} /> },
            { key: 'nps', label: t('dashboard.tabs.nps'), content: <NpsPanel nps={data.nps} /> },
            {
              key: 'attendants',
              label: t('dashboard.tabs.attendants'),
              content: <AttendantsTable attendants={data.attendants} />,
            },
          ]}
        />
      </div>
    )
  }

  return (
    <Page title={t('dashboard.title')} subtitle={subtitle}>
      <FilterBar filter={filter} onChange={setFilter} />
      {body}
    </Page>
  )
}

/** YYYY-MM-DD as the reader's short date. */
function day(iso: string, locale: string) {
  const [y, m, d] = iso.split('-').map(Number)
  return new Date(y!, m! - 1, d!).toLocaleDateString(locale)
}
