import { SlidersHorizontal } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DASHBOARD_DAY_CHOICES } from '../../../shared/schemas/dashboard'
import { Card } from '../../components/layout/Page'
import { Button } from '../../components/ui/Button'
import { Field, Input } from '../../components/ui/Field'
import { Select } from '../../components/ui/Select'
import { cn } from '../../lib/cn'
import type { DashboardFilter } from './format'

/** The filter: the last N days or a range of dates, applied with its button. */
export function FilterBar({
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
