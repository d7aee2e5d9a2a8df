import { type } from 'arktype'
import { type ScheduleEntry, validateSchedules } from '../schedules'

/**
 * A list of service hours in a request body, checked by the shared validator (src/shared/schedules.ts): at
 * most one entry per day, HH:MM times. Null passes through as null (the caller decides what it means).
 */
export const schedulesField = type('unknown').pipe((value, ctx): ScheduleEntry[] | null => {
  if (value === null) return null
  const result = validateSchedules(value)
  if (result.ok) return result.schedules
  const message = result.problems
    .map((p) => (p.index < 0 ? p.message : `[${p.index}].${p.field === 'entry' ? '' : p.field} ${p.message}`))
    .join('; ')
  return ctx.error({ message: `schedules${message.startsWith('[') ? '' : ' '}${message}` }) as never
})

/** PUT /companies/{id}/schedules. */
export const companySchedulesBody = type({
  '+': 'delete',
  schedules: schedulesField,
})
