import { Hono } from 'hono'
import {
  announcementBody,
  announcementsFeedQuery,
  listAnnouncementsQuery,
} from '../../../shared/schemas/announcements'
import { ctxOf, requireAuth, requireSuper } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { readForm, readOneMedia } from '../../media/upload'
import {
  announcementsFeed,
  assertMayAttach,
  attachAnnouncementMedia,
  createAnnouncement,
  deleteAnnouncement,
  getAnnouncement,
  listAnnouncements,
  removeAnnouncementMedia,
  updateAnnouncement,
} from './service'

const NOT_FOUND = 'ERR_NO_ANNOUNCEMENT_FOUND'

/**
 * `/announcements`. `GET /` answers `{ records, count, hasMore }` (20 a page, newest first, `searchParam`) to
 * every signed-in user, as the spec's bell reads it: the active ones, and every one to a super user. The
 * management calls are for super users only (anyone else gets 403): `GET`, `POST`, `PUT`, `DELETE /{id}` and
 * the image's `POST`/`DELETE /{id}/media-upload` (png, jpg or jpeg, form field `file`).
 *
 * Our addition, for every signed-in user (the web's bell popover): `GET /announcements/feed?pageNumber=` answers
 * `{ records, hasMore }`, the active announcements only, newest first, 10 a page.
 */
export const announcementsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/feed', (c) => c.json(announcementsFeed(ctxOf(c), parse(announcementsFeedQuery, c.req.query()))))
  .get('/', (c) => c.json(listAnnouncements(ctxOf(c), parse(listAnnouncementsQuery, c.req.query()))))
  .use(requireSuper)
  .get('/:id', (c) => c.json(getAnnouncement(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/', async (c) => c.json(createAnnouncement(ctxOf(c), await parseBody(c, announcementBody)), 201))
  .put('/:id', async (c) =>
    c.json(updateAnnouncement(ctxOf(c), pathId(c, NOT_FOUND), await parseBody(c, announcementBody))),
  )
  .delete('/:id', (c) => {
    deleteAnnouncement(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'Announcement deleted' })
  })
  .post('/:id/media-upload', async (c) => {
    const id = pathId(c, NOT_FOUND)
    const ctx = ctxOf(c)
    // An unknown id is refused before the file is read.
    assertMayAttach(ctx, id)
    const image = await readOneMedia(await readForm(c), 'image (png, jpg or jpeg)')
    return c.json(attachAnnouncementMedia(ctx, id, image))
  })
  .delete('/:id/media-upload', (c) => c.json(removeAnnouncementMedia(ctxOf(c), pathId(c, NOT_FOUND))))
