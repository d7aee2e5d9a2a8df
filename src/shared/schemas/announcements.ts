import { type } from 'arktype'
import { pageQuery } from './common'

export const ANNOUNCEMENT_TITLE_MAX = 200
export const ANNOUNCEMENT_TEXT_MAX = 5000

/**
 * An announcement: title and text required ('Obrigatório' in the web; blank after trimming counts as missing),
 * priority 1, 2 or 3 (default 3), status (active, default true). The spec's `mediaPath`/`mediaName` are dropped like
 * any other unknown key: the image only ever arrives through the media upload.
 */
export const announcementBody = type({
  '+': 'delete',
  title: type('string.trim').to(`1 <= string <= ${ANNOUNCEMENT_TITLE_MAX}`),
  text: type('string')
    .narrow((s, ctx) => s.trim().length > 0 || ctx.mustBe('non-empty'))
    .to(`string <= ${ANNOUNCEMENT_TEXT_MAX}`),
  'priority?': '1 | 2 | 3',
  'status?': 'boolean',
})

export type AnnouncementInput = typeof announcementBody.infer

/** `GET /announcements/`: search (title or text) and page. */
export const listAnnouncementsQuery = pageQuery

/** `GET /announcements/feed`: page only. */
export const announcementsFeedQuery = type({
  '+': 'delete',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
})

export type ListAnnouncementsQuery = typeof listAnnouncementsQuery.infer
export type AnnouncementsFeedQuery = typeof announcementsFeedQuery.infer
