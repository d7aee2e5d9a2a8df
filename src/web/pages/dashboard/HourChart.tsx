import { useTranslation } from 'react-i18next'
import { Card } from '../../components/layout/Page'
import { cn } from '../../lib/cn'

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
