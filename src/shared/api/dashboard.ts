/** The dashboard. */

/** One attendant's line of `GET /dashboard` (times in minutes; null when nothing was measured). */
export type DashboardAttendant = {
  id: number
  name: string
  /** The average 0-10 rating received in the range (null: no rating). */
  rating: number | null
  ratings: number
  /** openCount + closeCount: for a range that ended before today, only its closes. */
  tickets: number
  /** Tickets the attendant holds open now, when the range contains today; 0 for a range in the past. */
  openCount: number
  /** Tickets the attendant finished in the range. */
  closeCount: number
  avgWaitTime: number | null
  avgSupportTime: number | null
  online: boolean
}

/** The NPS of the ratings in the range: score = % promoters (9-10) − % detractors (0-6), rounded. */
export type DashboardNps = {
  score: number | null
  promoters: number
  passives: number
  detractors: number
  total: number
  /** How many ratings gave each score, 0 to 10. */
  distribution: number[]
  byAttendant: {
    id: number
    name: string
    score: number | null
    average: number | null
    promoters: number
    passives: number
    detractors: number
    total: number
  }[]
}

/** `GET /dashboard?days=` or `?date_from=&date_to=`. */
export type DashboardData = {
  /** The days counted, in the company's time zone (both included), and the zone. */
  range: { dateFrom: string; dateTo: string; timeZone: string }
  counters: {
    /** Tickets open (in service) now. */
    supportHappening: number
    /** Tickets pending (waiting) now. */
    supportPending: number
    /** Tickets closed in the range. */
    supportFinished: number
    /** Average minutes from being taken to being closed, of the tickets closed in the range. */
    avgSupportTime: number | null
    /** Average minutes in the queue, of the tickets taken in the range. */
    avgWaitTime: number | null
    /** Tickets created in the range. */
    ticketsCreated: number
    messagesSent: number
    messagesReceived: number
    /** Contacts created in the range. */
    leads: number
    /** Attendants signed in now (with Balcão open: a live connection), whatever the range. */
    onlineAttendants: number
    /** The attendants the viewer sees (the company's users, or those sharing a queue with the viewer). */
    totalAttendants: number
  }
  attendants: DashboardAttendant[]
  nps: DashboardNps
  /** Tickets created today (company time zone) per local hour, 0 to 23. */
  ticketsByHour: number[]
}
