import { Star } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { DashboardNps } from '../../../shared/api'
import { Card } from '../../components/layout/Page'
import { EmptyState } from '../../components/ui/EmptyState'
import { cn } from '../../lib/cn'
import { npsZone } from './format'

const GROUPS = [
  { key: 'detractors', bar: 'bg-danger', text: 'text-danger' },
  { key: 'passives', bar: 'bg-warning', text: 'text-warning' },
  { key: 'promoters', bar: 'bg-success', text: 'text-success' },
] as const

const zoneTone = {
  excellent: 'text-success',
  good: 'text-success',
  fair: 'text-warning',
  poor: 'text-danger',
} as const

const pct = (n: number, total: number) => (total ? Math.round((n * 100) / total) : 0)

/** The NPS tab: the score on a −100..100 scale, the three groups, the 0-10 distribution and each attendant's. */
export function NpsPanel({ nps }: { nps: DashboardNps }) {
  const { t } = useTranslation()
  if (!nps.total || nps.score == null)
    return (
      <Card>
        <EmptyState icon={<Star />} title={t('dashboard.nps.empty')}>
          {t('dashboard.nps.emptyHint')}
        </EmptyState>
      </Card>
    )
  const zone = npsZone(nps.score)
  const maxBar = Math.max(1, ...nps.distribution)
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 md:grid-cols-[minmax(0,1fr)_minmax(0,2fr)]">
        <Card className="items-center justify-center gap-2 p-4 text-center">
          <div className="text-muted text-sm">{t('dashboard.nps.score')}</div>
          <div
            data-testid="nps-score"
            className={cn('font-semibold text-5xl tabular-nums tracking-tight', zoneTone[zone])}
          >
            {nps.score}
          </div>
          <div className={cn('font-medium text-sm', zoneTone[zone])}>{t(`dashboard.nps.zone.${zone}`)}</div>
          {/* The score's place between −100 and 100. */}
          <div className="relative mt-2 h-2 w-full max-w-60 rounded-full bg-gradient-to-r from-danger via-warning to-success">
            <span
              aria-hidden
              className="-translate-x-1/2 -top-1 absolute size-4 rounded-full border-2 border-surface bg-fg shadow"
              style={{ left: `${(nps.score + 100) / 2}%` }}
            />
          </div>
          <div className="flex w-full max-w-60 justify-between text-[10px] text-subtle tnum">
            <span>−100</span>
            <span>0</span>
            <span>100</span>
          </div>
          <p className="mt-1 text-muted text-xs">{t('dashboard.nps.scoreHint')}</p>
          <p className="text-muted text-xs tnum">{t('dashboard.nps.total', { count: nps.total })}</p>
        </Card>
        <Card className="gap-4 p-4">
          <div
            className="flex h-3 w-full overflow-hidden rounded-full bg-surface-3"
            role="img"
            aria-label={GROUPS.map((g) => `${t(`dashboard.nps.${g.key}`)}: ${nps[g.key]}`).join(', ')}
          >
            {GROUPS.map((g) =>
              nps[g.key] ? (
                <span key={g.key} className={g.bar} style={{ width: `${pct(nps[g.key], nps.total)}%` }} />
              ) : null,
            )}
          </div>
          <ul className="grid grid-cols-3 gap-2">
            {GROUPS.map((g) => (
              <li key={g.key} data-testid={`nps-${g.key}`} className="min-w-0">
                <div className="flex items-center gap-1.5 text-muted text-xs">
                  <span aria-hidden className={cn('size-2 rounded-full', g.bar)} />
                  <span className="truncate">{t(`dashboard.nps.${g.key}`)}</span>
                </div>
                <div className="font-semibold text-fg text-lg tnum">
                  {nps[g.key]}{' '}
                  <span className="font-normal text-muted text-xs">{pct(nps[g.key], nps.total)}%</span>
                </div>
              </li>
            ))}
          </ul>
          <div>
            <h3 className="mb-2 font-medium text-fg text-sm">{t('dashboard.nps.distribution')}</h3>
            <ul aria-label={t('dashboard.nps.distribution')} className="flex h-24 items-end gap-1">
              {nps.distribution.map((count, score) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: the score is the bar's identity
                  key={score}
                  aria-label={`${score}: ${count}`}
                  title={`${score}: ${count}`}
                  className="flex h-full flex-1 items-end"
                >
                  <span
                    className={cn(
                      'block w-full rounded-t-[3px]',
                      count
                        ? score >= 9
                          ? 'bg-success'
                          : score >= 7
                            ? 'bg-warning'
                            : 'bg-danger'
                        : 'bg-surface-3',
                    )}
                    style={{ height: count ? `${Math.max(4, (count / maxBar) * 100)}%` : '2px' }}
                  />
                </li>
              ))}
            </ul>
            <div aria-hidden className="mt-1 flex gap-1 text-[10px] text-subtle tnum">
              {nps.distribution.map((_, score) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the score is the label's identity
                <span key={score} className="flex-1 text-center">
                  {score}
                </span>
              ))}
            </div>
          </div>
        </Card>
      </div>
      {nps.byAttendant.length > 0 && (
        <Card>
          <h3 className="border-border border-b px-4 py-3 font-medium text-fg text-sm">
            {t('dashboard.nps.byAttendant')}
          </h3>
          <ul aria-label={t('dashboard.nps.byAttendant')}>
            {nps.byAttendant.map((a) => {
              const z = a.score == null ? null : npsZone(a.score)
              return (
                <li
                  key={a.id}
                  className="flex flex-wrap items-center gap-x-4 gap-y-2 border-border border-b px-4 py-3 last:border-b-0"
                >
                  <div className="min-w-0 flex-1">
                    <div className="truncate font-medium text-fg text-sm" title={a.name}>
                      {a.name}
                    </div>
                    <div className="text-muted text-xs tnum">
                      {t('dashboard.nps.total', { count: a.total })} · {t('dashboard.nps.average')}{' '}
                      {a.average?.toFixed(1) ?? '—'}
                    </div>
                  </div>
                  <div
                    className="flex h-2 w-32 overflow-hidden rounded-full bg-surface-3 sm:w-48"
                    aria-hidden
                  >
                    {GROUPS.map((g) =>
                      a[g.key] ? (
                        <span key={g.key} className={g.bar} style={{ width: `${pct(a[g.key], a.total)}%` }} />
                      ) : null,
                    )}
                  </div>
                  <div
                    className={cn(
                      'w-12 text-right font-semibold text-lg tnum',
                      z ? zoneTone[z] : 'text-muted',
                    )}
                    title={t('dashboard.nps.score')}
                  >
                    <span className="sr-only">{t('dashboard.nps.score')} </span>
                    {a.score ?? '—'}
                  </div>
                </li>
              )
            })}
          </ul>
        </Card>
      )}
    </div>
  )
}
