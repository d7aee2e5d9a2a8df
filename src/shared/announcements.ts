/**
 * Announcements (spec 2): notices from the platform operator (super users) to every company, shown in every
 * user's bell popover. The answers' shapes, shared by the server and the web.
 */

/** 1 high (red), 2 medium (orange), 3 low (grey); new ones are 3. */
export type AnnouncementPriority = 1 | 2 | 3

export const ANNOUNCEMENT_PRIORITIES: readonly AnnouncementPriority[] = [1, 2, 3]
export const DEFAULT_ANNOUNCEMENT_PRIORITY: AnnouncementPriority = 3

export type AnnouncementDto = {
  id: number
  title: string
  /** Plain text; line breaks are kept when shown. */
  text: string
  priority: AnnouncementPriority
  /** Active: shown in the bell. */
  status: boolean
  mediaPath: string | null
  mediaName: string | null
  /** A signed, expiring link to the image (png or jpeg), or null without one. */
  mediaUrl: string | null
  createdAt: string
  updatedAt: string
}

/** `GET /announcements/` (management, super users): 20 a page, newest first. */
export type AnnouncementsPage = { records: AnnouncementDto[]; count: number; hasMore: boolean }

/** `GET /announcements/feed` (every signed-in user, our addition): the active ones, 10 a page, newest first. */
export type AnnouncementsFeedPage = { records: AnnouncementDto[]; hasMore: boolean }
