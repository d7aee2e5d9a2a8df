import {
  CheckCircle2,
  Clock,
  Hourglass,
  Inbox,
  MessageSquareReply,
  MessageSquareShare,
  SlidersHorizontal,
  Star,
  Timer,
  UserPlus,
  Users,
} from 'lucide-react'
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ContactsPage, DashboardAttendant, DashboardData, MessagesAllMe } from '../../../shared/api'
import { DASHBOARD_DAY_CHOICES } from '../../../shared/schemas/dashboard'
import { api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { Card, Page } from '../../components/layout/Page'
import { Button } from '../../components/ui/Button'
import { EmptyState, LoadError } from '../../components/ui/EmptyState'
import { Field, Input } from '../../components/ui/Field'
import { Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { Tabs } from '../../components/ui/Tabs'
import { cn } from '../../lib/cn'
import { type DashboardFilter, durationParts, filterQuery } from './format'
import { NpsPanel } from './NpsPanel'

/** The spec: the first load happens 1 s after the screen opens. */
export const FIRST_LOAD_DELAY_MS = 1000

/** What the page shows: the dashboard plus the spec's counting calls (messages sent, received, new leads). */
export type DashboardView = DashboardData & { sent: number; received: number; leads: number }

async function loadDashboard(query: Record<string, string>, signal: AbortSignal): Promise<DashboardView> {
  const data = await api.get<DashboardData>('/dashboard', { query, signal })
  const dates = { dateStart: data.range.dateFrom, dateEnd: data.range.dateTo }
  const [sent, received, contacts] = await Promise.all([
    api.get<MessagesAllMe>('/messages-allMe', { query: { fromMe: true, ...dates }, signal }),
    api.get<MessagesAllMe>('/messages-allMe', { query: { fromMe: false, ...dates }, signal }),
    api.get<ContactsPage>('/contacts', { query: { pageNumber: 1, ...dates }, signal }),
  ])
  return {
    ...data,
    sent: sent.count[0]?.count ?? 0,
    received: received.count[0]?.count ?? 0,
    leads: contacts.count,
  }
}

/** Minutes as HH h mm m, or a dash when nothing was measured. */
export function Duration({ minutes }: { minutes: number | null }) {
  const { t } = useTranslation()
  if (minutes == null) return <span className="text-subtle">{t('dashboard.noTime')}</span>
  return <>{t('dashboard.duration', durationParts(minutes))}</>
}

type StatTone = 'neutral' | 'brand' | 'success' | 'warning'

function StatCard({
  icon,
  label,
  value,
  detail,
  tone = 'neutral',
  testId,
}: {
  icon: ReactNode
  label: string
  value: ReactNode
  detail?: ReactNode
  tone?: StatTone
  testId: string
}) {
  const tones = {
    neutral: 'bg-surface-2 text-muted',
    brand: 'bg-info-soft text-on-info-soft',
    success: 'bg-success-soft text-on-success-soft',
    warning: 'bg-warning-soft text-on-warning-soft',
  }
  return (
    <li
      data-testid={testId}
      className="flex min-w-0 items-center gap-3 rounded-card border border-border bg-surface p-3 sm:p-4"
    >
      <span
        aria-hidden
        className={cn(
          'flex size-8 shrink-0 items-center justify-center rounded-lg sm:size-10 [&>svg]:size-4 sm:[&>svg]:size-5',
          tones[tone],
        )}
      >
        {icon}
      </span>
      <div className="min-w-0">
        <div className="line-clamp-2 text-muted text-xs leading-tight sm:text-[13px]" title={label}>
          {label}
        </div>
        <div className="flex items-baseline gap-1.5">
          <span className="font-semibold text-fg text-lg tnum sm:text-xl">{value}</span>
          {detail && <span className="text-muted text-xs tnum">{detail}</span>}
        </div>
      </div>
    </li>
  )
}

/** Each indicator card's test id and its label key under `dashboard.cards`. */
const CARD_LABELS = {
  'in-service': 'inService',
  waiting: 'waiting',
  online: 'online',
  finished: 'finished',
  sent: 'sent',
  received: 'received',
  leads: 'leads',
  'avg-service': 'avgService',
  'avg-wait': 'avgWait',
} as const

function Indicators({ data }: { data: DashboardView }) {
  const { t, i18n } = useTranslation()
  const n = (v: number) => v.toLocaleString(i18n.language)
  const c = data.counters
  const cards: [keyof typeof CARD_LABELS, ReactNode, ReactNode, StatTone?, string?][] = [
    ['in-service', <Inbox key="i" />, n(c.supportHappening), 'brand'],
    ['waiting', <Hourglass key="i" />, n(c.supportPending), 'warning'],
    [
      'online',
      <Users key="i" />,
      n(c.onlineAttendants),
      'success',
      t('dashboard.cards.onlineOf', { total: n(c.totalAttendants) }),
    ],
    ['finished', <CheckCircle2 key="i" />, n(c.supportFinished), 'success'],
    ['sent', <MessageSquareShare key="i" />, n(data.sent)],
    ['received', <MessageSquareReply key="i" />, n(data.received)],
    ['leads', <UserPlus key="i" />, n(data.leads), 'brand'],
    ['avg-service', <Timer key="i" />, <Duration key="v" minutes={c.avgSupportTime} />],
    ['avg-wait', <Clock key="i" />, <Duration key="v" minutes={c.avgWaitTime} />],
  ]
  return (
    <div className="flex flex-col gap-4">
      <ul
        aria-label={t('dashboard.tabs.indicators')}
        className="grid grid-cols-2 gap-2 sm:gap-3 lg:grid-cols-3"
      >
        {cards.map(([key, icon, value, tone, detail]) => (
          <StatCard
            key={key}
            testId={`card-${key}`}
            icon={icon}
            tone={tone}
            label={t(`dashboard.cards.${CARD_LABELS[key]}`)}
            value={value}
            detail={detail}
          />
        ))}
      </ul>
      <HourChart hours={data.ticketsByHour} />
    </div>
  )
}

/** Today's tickets per local hour: 24 bars drawn with plain elements, each labelled for screen readers. */
export function HourChart({ hours }: { hours: number[] }) {
  const { t } = useTranslation()
  const max = Math.max(1, ...hours)
  const total = hours.reduce((a, b) => a + b, 0)
  return (
    <Card className="p-3 sm:p-4">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold text-[15px] text-fg">{t('dashboard.chart.title')}</h2>
        <span className="text-muted text-xs tnum">{t('dashboard.chart.total', { count: total })}</span>
      </div>
      <div className="relative">
        {total === 0 && (
          <p className="absolute inset-x-0 top-10 text-center text-muted text-sm">
            {t('dashboard.chart.empty')}
          </p>
        )}
        <ul
          aria-label={t('dashboard.chart.title')}
          data-testid="hour-chart"
          className="flex h-40 items-end gap-[2px] border-border border-b sm:gap-1"
        >
          {hours.map((count, hour) => {
            const label = t('dashboard.chart.bar', { hour: String(hour).padStart(2, '0'), count })
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the hour is the bar's identity
              <li key={hour} aria-label={label} title={label} className="group flex h-full flex-1 items-end">
                <span
                  data-count={count}
                  className={cn(
                    'block w-full rounded-t-[3px] transition-[height] duration-200 motion-reduce:transition-none',
                    count ? 'bg-link group-hover:opacity-80' : 'bg-surface-3',
                  )}
                  style={{ height: count ? `${Math.max(4, (count / max) * 100)}%` : '2px' }}
                />
              </li>
            )
          })}
        </ul>
        <div aria-hidden className="mt-1 flex gap-[2px] text-[10px] text-subtle tnum sm:gap-1">
          {hours.map((_, hour) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the hour is the label's identity
            <span key={hour} className="flex-1 text-center">
              {hour % 3 === 0 ? String(hour).padStart(2, '0') : ''}
            </span>
          ))}
        </div>
      </div>
    </Card>
  )
}

/** A 0-10 average as five stars (half a star per point). */
export function Stars({ rating, count }: { rating: number | null; count: number }) {
  const { t } = useTranslation()
  const label =
    rating == null ? t('dashboard.table.noRating') : t('dashboard.table.ratingOf', { value: rating, count })
  const filled = rating == null ? 0 : Math.round(rating / 2)
  return (
    <span className="inline-flex items-center gap-1.5" role="img" aria-label={label} title={label}>
      <span className="inline-flex" aria-hidden>
        {[0, 1, 2, 3, 4].map((i) => (
          <Star
            key={i}
            className={cn('size-3.5', i < filled ? 'fill-amber-400 text-amber-400' : 'text-border-strong')}
          />
        ))}
      </span>
      {rating != null && <span className="text-muted text-xs tnum">{rating.toFixed(1)}</span>}
    </span>
  )
}

function OnlineDot({ online }: { online: boolean }) {
  const { t } = useTranslation()
  const label = online ? t('dashboard.table.online') : t('dashboard.table.offline')
  return (
    <span className="inline-flex items-center gap-1.5 text-xs">
      <span aria-hidden className={cn('size-2.5 rounded-full', online ? 'bg-success' : 'bg-border-strong')} />
      <span className={online ? 'text-fg' : 'text-muted'}>{label}</span>
    </span>
  )
}

function AttendantsTable({ attendants }: { attendants: DashboardAttendant[] }) {
  const { t } = useTranslation()
  if (!attendants.length) return <EmptyState icon={<Users />} title={t('dashboard.table.empty')} />
  const th = 'px-3 py-2.5 text-left font-medium text-muted text-xs whitespace-nowrap'
  const td = 'px-3 py-2.5 whitespace-nowrap tnum'
  return (
    <Card>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" aria-label={t('dashboard.tabs.attendants')}>
          <thead className="border-border border-b bg-surface-2">
            <tr>
              <th className={cn(th, 'sticky left-0 bg-surface-2')}>{t('dashboard.table.name')}</th>
              <th className={th}>{t('dashboard.table.rating')}</th>
              <th className={cn(th, 'text-right')}>{t('dashboard.table.total')}</th>
              <th className={cn(th, 'text-right')}>{t('dashboard.table.open')}</th>
              <th className={cn(th, 'text-right')}>{t('dashboard.table.closed')}</th>
              <th className={cn(th, 'text-right')}>{t('dashboard.table.avgWait')}</th>
              <th className={cn(th, 'text-right')}>{t('dashboard.table.avgService')}</th>
              <th className={th}>{t('dashboard.table.status')}</th>
            </tr>
          </thead>
          <tbody>
            {attendants.map((a) => (
              <tr key={a.id} className="border-border border-b last:border-b-0">
                <td
                  className={cn(
                    td,
                    'sticky left-0 max-w-40 truncate bg-surface font-medium text-fg sm:max-w-56',
                  )}
                  title={a.name}
                >
                  {a.name}
                </td>
                <td className={td}>
                  <Stars rating={a.rating} count={a.ratings} />
                </td>
                <td className={cn(td, 'text-right')}>{a.tickets}</td>
                <td className={cn(td, 'text-right')}>{a.openCount}</td>
                <td className={cn(td, 'text-right')}>{a.closeCount}</td>
                <td className={cn(td, 'text-right')}>
                  <Duration minutes={a.avgWaitTime} />
                </td>
                <td className={cn(td, 'text-right')}>
                  <Duration minutes={a.avgSupportTime} />
                </td>
                <td className={td}>
                  <OnlineDot online={a.online} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  )
}

function FilterBar({
  filter,
  onChange,
}: {
  filter: DashboardFilter
  onChange: (f: DashboardFilter) => void
}) {
  const { t } = useTranslation()
  const [from, setFrom] = useState(filter.kind === 'dates' ? filter.from : '')
  const [to, setTo] = useState(filter.kind === 'dates' ? filter.to : '')
  const modes = [
    { kind: 'days' as const, label: t('dashboard.byDays') },
    { kind: 'dates' as const, label: t('dashboard.byDates') },
  ]
  return (
    <Card className="p-3 sm:p-4">
      <div className="flex flex-wrap items-end gap-3">
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1.5 font-medium text-fg text-sm">{t('dashboard.filterBy')}</legend>
          <div className="inline-flex rounded-lg border border-border-strong p-0.5">
            {modes.map((m) => (
              <button
                key={m.kind}
                type="button"
                aria-pressed={filter.kind === m.kind}
                onClick={() =>
                  filter.kind !== m.kind &&
                  onChange(m.kind === 'days' ? { kind: 'days', days: null } : { kind: 'dates', from, to })
                }
                className={cn(
                  'h-8 rounded-md px-3 font-medium text-[13px] max-sm:h-10',
                  filter.kind === m.kind ? 'bg-selected text-on-selected' : 'text-muted hover:text-fg',
                )}
              >
                {m.label}
              </button>
            ))}
          </div>
        </fieldset>
        {filter.kind === 'days' ? (
          <Field label={t('dashboard.days')} className="w-full sm:w-56">
            <Select<number>
              value={filter.days ?? 0}
              onChange={(days) => onChange({ kind: 'days', days: days || null })}
              options={[
                { value: 0, label: t('common.none') },
                ...DASHBOARD_DAY_CHOICES.map((d) => ({
                  value: d,
                  label: t('dashboard.daysOption', { count: d }),
                })),
              ]}
            />
          </Field>
        ) : (
          <form
            className="flex w-full flex-wrap items-end gap-3 sm:w-auto"
            onSubmit={(e) => {
              e.preventDefault()
              onChange({ kind: 'dates', from, to })
            }}
          >
            <Field label={t('dashboard.dateFrom')} className="min-w-36 flex-1 sm:w-44 sm:flex-none">
              <Input
                type="date"
                value={from}
                max={to || undefined}
                onChange={(e) => setFrom(e.target.value)}
              />
            </Field>
            <Field label={t('dashboard.dateTo')} className="min-w-36 flex-1 sm:w-44 sm:flex-none">
              <Input type="date" value={to} min={from || undefined} onChange={(e) => setTo(e.target.value)} />
            </Field>
            <Button type="submit" variant="secondary" icon={<SlidersHorizontal className="size-4" />}>
              {t('dashboard.apply')}
            </Button>
          </form>
        )}
      </div>
    </Card>
  )
}

function LoadingCards() {
  return (
    <div data-testid="dashboard-loading" className="grid grid-cols-2 gap-2 sm:gap-3 lg:grid-cols-3">
      {Array.from({ length: 9 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders
        <div key={i} className="flex items-center gap-3 rounded-card border border-border bg-surface p-4">
          <Skeleton className="size-10 rounded-lg" />
          <div className="flex-1 space-y-2">
            <Skeleton className="w-3/4" />
            <Skeleton className="h-5 w-1/3" />
          </div>
        </div>
      ))}
    </div>
  )
}

type State =
  | { kind: 'idle' }
  | { kind: 'loading'; data: DashboardView | null }
  | { kind: 'ready'; data: DashboardView }
  | { kind: 'error'; message: string }

/**
 * The dashboard (spec 3): a filter (the last N days or a date range), tabs Indicators (the cards and today's
 * tickets per hour), NPS and Attendants. Without a filter it says 'Parametrize o filtro'; the first load waits 1 s.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation()
  const [filter, setFilter] = useState<DashboardFilter>({ kind: 'days', days: 7 })
  const [state, setState] = useState<State>({ kind: 'idle' })
  const [tab, setTab] = useState(0)
  const first = useRef(true)
  const query = filterQuery(filter)
  const queryKey = query ? JSON.stringify(query) : ''

  const load = useCallback((q: Record<string, string>, signal: AbortSignal) => {
    setState((s) => ({
      kind: 'loading',
      data: s.kind === 'ready' ? s.data : s.kind === 'loading' ? s.data : null,
    }))
    loadDashboard(q, signal).then(
      (data) => !signal.aborted && setState({ kind: 'ready', data }),
      (err) => !signal.aborted && setState({ kind: 'error', message: errorMessage(err) }),
    )
  }, [])

  const [attempt, setAttempt] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads when the filter's query or a retry changes
  useEffect(() => {
    if (!queryKey) {
      setState({ kind: 'idle' })
      return
    }
    const controller = new AbortController()
    const q = JSON.parse(queryKey) as Record<string, string>
    setState((s) => (s.kind === 'idle' ? { kind: 'loading', data: null } : s))
    const delay = first.current ? FIRST_LOAD_DELAY_MS : 0
    first.current = false
    const timer = setTimeout(() => load(q, controller.signal), delay)
    return () => {
      clearTimeout(timer)
      controller.abort()
    }
  }, [queryKey, attempt, load])

  const data = state.kind === 'ready' ? state.data : state.kind === 'loading' ? state.data : null
  const subtitle = data
    ? t('dashboard.range', {
        from: day(data.range.dateFrom, i18n.language),
        to: day(data.range.dateTo, i18n.language),
      })
    : null

  let body: ReactNode
  if (!query) {
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
        <LoadError
          error={`${t('dashboard.loadFailed')}: ${state.message}`}
          onRetry={() => setAttempt((n) => n + 1)}
        />
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
