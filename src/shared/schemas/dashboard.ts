import { type } from 'arktype'

/** The longest range the dashboard and its counting calls answer, in days. */
export const DASHBOARD_MAX_DAYS = 366

/** The day choices of the dashboard's filter. */
export const DASHBOARD_DAY_CHOICES = [7, 15, 30, 60, 90] as const

/** A calendar date as YYYY-MM-DD (its existence, e.g. no 2026-02-30, is checked where it is read). */
export const isoDay = type(/^\d{4}-\d{2}-\d{2}$/).describe('a date as YYYY-MM-DD')

/**
 * `GET /dashboard`: the last `days` days (today included) or the days `date_from` to `date_to` (both included), in
 * the company's time zone. `days` wins when both are given; with neither the answer is 400 'Parametrize o filtro'.
 */
export const dashboardQuery = type({
  '+': 'delete',
  'days?': type('string.integer.parse').to(`1 <= number.integer <= ${DASHBOARD_MAX_DAYS}`),
  'date_from?': isoDay,
  'date_to?': isoDay,
})
export type DashboardQuery = typeof dashboardQuery.infer

/** `GET /messages-allMe`: messages sent (fromMe true) or received (false) in the days dateStart to dateEnd. */
export const messagesAllMeQuery = type({
  '+': 'delete',
  fromMe: type("'true' | 'false' | '1' | '0'").pipe((s) => s === 'true' || s === '1'),
  dateStart: isoDay,
  dateEnd: isoDay,
})
export type MessagesAllMeQuery = typeof messagesAllMeQuery.infer
