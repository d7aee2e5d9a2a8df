import {
  CheckCircle2,
  Clock,
  Hourglass,
  Inbox,
  MessageSquareReply,
  MessageSquareShare,
  Timer,
  UserPlus,
  Users,
} from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Skeleton } from '../../components/ui/Skeleton'
import { cn } from '../../lib/cn'
import { Duration } from './Duration'
import { HourChart } from './HourChart'
import type { DashboardView } from './useDashboard'

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

/** The Indicators tab: the nine cards and today's tickets per hour. */
export function Indicators({ data }: { data: DashboardView }) {
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

/** The cards' placeholders while the first answer is on its way. */
export function LoadingCards() {
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
