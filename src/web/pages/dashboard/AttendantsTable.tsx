import { Star, Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { DashboardAttendant } from '../../../shared/api'
import { Card } from '../../components/layout/Page'
import { EmptyState } from '../../components/ui/EmptyState'
import { cn } from '../../lib/cn'
import { Duration } from './Duration'

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

/** The Attendants tab: each attendant's rating, tickets, times and presence. */
export function AttendantsTable({ attendants }: { attendants: DashboardAttendant[] }) {
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
