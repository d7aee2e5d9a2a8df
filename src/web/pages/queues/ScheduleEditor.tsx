import { useTranslation } from 'react-i18next'
import { isValidTime, type ScheduleEntry, timeToMinutes, WEEKDAY_ORDER } from '../../../shared/schedules'
import { Input } from '../../components/ui/Field'
import { cn } from '../../lib/cn'

/**
 * The HH:MM mask: keeps digits only, at most four, with the colon after the hours ('0830' → '08:30',
 * '8' → '8', '08:3' → '08:3'). A pasted '8:30' becomes '83:0'… so a single-digit hour followed by a colon
 * is padded first ('8:30' → '08:30').
 */
export function maskTime(raw: string): string {
  const padded = /^\d:/.test(raw) ? `0${raw}` : raw
  const digits = padded.replace(/\D/g, '').slice(0, 4)
  return digits.length <= 2 ? digits : `${digits.slice(0, 2)}:${digits.slice(2)}`
}

/** Rows in display order (Monday first), whatever order the list came in; missing days are not shown. */
export function orderedSchedules(list: ScheduleEntry[]): ScheduleEntry[] {
  return [...list].sort((a, b) => WEEKDAY_ORDER.indexOf(a.weekdayEn) - WEEKDAY_ORDER.indexOf(b.weekdayEn))
}

/** True when every row has two valid HH:MM times. */
export function schedulesValid(list: ScheduleEntry[]): boolean {
  return list.every((s) => isValidTime(s.startTime) && isValidTime(s.endTime))
}

const closed = (s: ScheduleEntry) =>
  isValidTime(s.startTime) &&
  isValidTime(s.endTime) &&
  timeToMinutes(s.startTime) === timeToMinutes(s.endTime)

/**
 * One row per weekday with start and end times (HH:MM, masked as typed). `showErrors` marks invalid times
 * (after the first save). A day whose start equals its end is shown as closed.
 */
export function ScheduleEditor({
  value,
  onChange,
  showErrors,
  disabled,
}: {
  value: ScheduleEntry[]
  onChange: (next: ScheduleEntry[]) => void
  showErrors: boolean
  disabled?: boolean
}) {
  const { t } = useTranslation()
  const rows = orderedSchedules(value)
  const update = (day: string, field: 'startTime' | 'endTime', raw: string) =>
    onChange(rows.map((s) => (s.weekdayEn === day ? { ...s, [field]: maskTime(raw) } : s)))

  return (
    <div>
      <div className="hidden grid-cols-[minmax(0,1fr)_112px_112px] gap-3 px-1 pb-2 font-medium text-muted text-xs sm:grid">
        <span>{t('chatbot.hours.weekday')}</span>
        <span>{t('chatbot.hours.start')}</span>
        <span>{t('chatbot.hours.end')}</span>
      </div>
      <ul className="divide-y divide-border rounded-lg border border-border">
        {rows.map((s) => {
          const day = t(`chatbot.hours.days.${s.weekdayEn}`)
          const badStart = showErrors && !isValidTime(s.startTime)
          const badEnd = showErrors && !isValidTime(s.endTime)
          return (
            <li
              key={s.weekdayEn}
              data-testid={`hours-${s.weekdayEn}`}
              className="grid grid-cols-2 items-center gap-x-3 gap-y-2 px-3 py-2.5 sm:grid-cols-[minmax(0,1fr)_112px_112px]"
            >
              <div className="col-span-2 flex min-w-0 items-center gap-2 sm:col-span-1">
                <span className="truncate font-medium text-fg text-sm">{day}</span>
                {closed(s) && (
                  <span className="rounded-full bg-surface-2 px-2 py-0.5 text-muted text-xs">
                    {t('chatbot.hours.closed')}
                  </span>
                )}
              </div>
              <Input
                value={s.startTime}
                onChange={(e) => update(s.weekdayEn, 'startTime', e.target.value)}
                aria-label={t('chatbot.hours.startOf', { day })}
                inputMode="numeric"
                placeholder="08:00"
                maxLength={5}
                autoComplete="off"
                invalid={badStart}
                disabled={disabled}
                className={cn('tnum text-center')}
              />
              <Input
                value={s.endTime}
                onChange={(e) => update(s.weekdayEn, 'endTime', e.target.value)}
                aria-label={t('chatbot.hours.endOf', { day })}
                inputMode="numeric"
                placeholder="18:00"
                maxLength={5}
                autoComplete="off"
                invalid={badEnd}
                disabled={disabled}
                className="tnum text-center"
              />
              {(badStart || badEnd) && (
                <p role="alert" className="col-span-2 text-danger text-xs sm:col-span-3">
                  {t('chatbot.hours.invalidTime')}
                </p>
              )}
            </li>
          )
        })}
      </ul>
    </div>
  )
}
