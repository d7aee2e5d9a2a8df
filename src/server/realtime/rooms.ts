/** Rooms a live socket can be in. A listener is only ever subscribed to rooms it may see. */
export const rooms = {
  company: (companyId: number) => `company:${companyId}`,
  admins: (companyId: number) => `company:${companyId}:admins`,
  queue: (companyId: number, queueId: number) => `company:${companyId}:queue:${queueId}`,
  user: (companyId: number, userId: number) => `company:${companyId}:user:${userId}`,
  ticket: (companyId: number, ticketId: number) => `company:${companyId}:ticket:${ticketId}`,
  /** The terminal operator (`balcao connection pair`): sessions of every company. */
  operator: 'operator',
}

/**
 * Event names as the spec's channels: `company-{id}-user`, `company-{id}-queue`, ... The name must be a key
 * of `CompanyEvents` (`src/shared/live.ts`), which fixes the payload `publish` accepts.
 */
export { liveChannel as channel } from '../../shared/live'
