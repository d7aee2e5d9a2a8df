import { Hono } from 'hono'
import { attachmentFields } from '../../../shared/schemas/common'
import { listQuickMessagesQuery, quickMessageBody } from '../../../shared/schemas/quick-messages'
import { ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { formFields, readForm, readOneMedia } from '../../media/upload'
import {
  assertMayAttach,
  attachQuickMessageMedia,
  createQuickMessage,
  deleteQuickMessage,
  getQuickMessage,
  listQuickMessages,
  listUsableQuickMessages,
  removeQuickMessageMedia,
  updateQuickMessage,
} from './service'

const NOT_FOUND = 'ERR_NO_QUICK_MESSAGE_FOUND'

/**
 * `/quick-messages`. `GET /` answers the page `{ records, count, hasMore }`; `GET /list` the plain list the
 * message input offers ('/' suggestions). The company and the user come from the session only: the spec's
 * `companyId` and `userId` query parameters of `/list` are ignored.
 */
export const quickMessagesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listQuickMessages(ctxOf(c), parse(listQuickMessagesQuery, c.req.query()))))
  .get('/list', (c) => c.json(listUsableQuickMessages(ctxOf(c))))
  .get('/:id', (c) => c.json(getQuickMessage(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/', async (c) => c.json(createQuickMessage(ctxOf(c), await parseBody(c, quickMessageBody)), 201))
  .put('/:id', async (c) =>
    c.json(updateQuickMessage(ctxOf(c), pathId(c, NOT_FOUND), await parseBody(c, quickMessageBody))),
  )
  .delete('/:id', (c) => {
    deleteQuickMessage(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'Quick message deleted' })
  })
  .post('/:id/media-upload', async (c) => {
    const id = pathId(c, NOT_FOUND)
    const ctx = ctxOf(c)
    // Another company's id, or a quick message this user may not change, is refused before the file is read.
    assertMayAttach(ctx, id)
    const form = await readForm(c)
    parse(attachmentFields, formFields(form))
    return c.json(attachQuickMessageMedia(ctx, id, await readOneMedia(form)))
  })
  .delete('/:id/media-upload', (c) => c.json(removeQuickMessageMedia(ctxOf(c), pathId(c, NOT_FOUND))))
