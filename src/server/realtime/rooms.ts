/** Rooms a live socket can be in. A listener is only ever subscribed to rooms it may see. */
export const rooms = {
  company: (companyId: number) => `company:${companyId}`,
  admins: (companyId: number) => `company:${companyId}:admins`,
  queue: (companyId: number, queueId: number) => `company:${companyId}:queue:${queueId}`,
  user: (companyId: number, userId: number) => `company:${companyId}:user:${userId}`,
  /** Tickets without a queue: non-admins whose allTicket is 'enable' (admins have theirs already). */
  noQueue: (companyId: number) => `company:${companyId}:no-queue`,
  ticket: (companyId: number, ticketId: number) => `company:${companyId}:ticket:${ticketId}`,
  /** The terminal operator (`balcao connection pair`): sessions of every company. */
  operator: 'operator',
  /** Every signed-in user's socket, of every company: announcements from the platform operator. */
  everyone: 'everyone',
}

/**
 * The unmasked flavour of a room. Events that carry phone numbers are published twice: masked to the room and
 * in full to its `#full` flavour. A user whose isTricked is 'enabled' is subscribed to the `#full` flavour of
 * each of their rooms instead of the room itself (`roomsOfUser`), so each socket receives one of the two.
 */
export const FULL_SUFFIX = '#full'

export function fullRoom(room: string): string {
  return room.endsWith(FULL_SUFFIX) ? room : `${room}${FULL_SUFFIX}`
}

export function isFullRoom(room: string): boolean {
  return room.endsWith(FULL_SUFFIX)
}

/**
 * Event names as the spec's channels: `company-{id}-user`, `company-{id}-queue`, ... The name must be a key
 * of `CompanyEvents` (`src/shared/live.ts`), which fixes the payload `publish` accepts.
 */
export { liveChannel as channel } from '../../shared/live'
