import { type } from 'arktype'
import { Hono } from 'hono'
import { AppError } from '../../../shared/errors'
import {
  chatBody,
  chatMessageBody,
  chatMessagesQuery,
  chatReadBody,
  listChatsQuery,
} from '../../../shared/schemas/chats'
import { ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import {
  createChat,
  deleteChat,
  getChat,
  getChatByUuid,
  listChatMessages,
  listChats,
  listUnreadChats,
  markChatRead,
  sendChatMessage,
  updateChat,
} from './service'

const NOT_FOUND = 'ERR_NO_CHAT_FOUND'

const uuidParam = type(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)

/**
 * `/chats` (plan flag useInternalChat, gated in app.ts by PLAN_GATED_PATHS). Every route is for a signed-in
 * user; membership and ownership are the service's.
 */
export const chatsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listChats(ctxOf(c), parse(listChatsQuery, c.req.query()))))
  .get('/unread', (c) => c.json(listUnreadChats(ctxOf(c))))
  .get('/u/:uuid', (c) => {
    const uuid = uuidParam(c.req.param('uuid').toLowerCase())
    if (uuid instanceof type.errors) throw new AppError(NOT_FOUND, 'Chat not found')
    return c.json(getChatByUuid(ctxOf(c), uuid))
  })
  .get('/:id', (c) => c.json(getChat(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/', async (c) => c.json(createChat(ctxOf(c), await parseBody(c, chatBody)), 201))
  .put('/:id', async (c) => {
    const id = pathId(c, NOT_FOUND)
    return c.json(updateChat(ctxOf(c), id, await parseBody(c, chatBody)))
  })
  .delete('/:id', (c) => {
    deleteChat(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'Chat deleted' })
  })
  .post('/:id/read', async (c) => {
    const id = pathId(c, NOT_FOUND)
    // The body is optional (the spec sends `userId`, which is ignored): an empty one is fine, junk is a 400.
    if ((await c.req.text()).trim()) await parseBody(c, chatReadBody)
    return c.json(markChatRead(ctxOf(c), id))
  })
  .get('/:id/messages', (c) => {
    const id = pathId(c, NOT_FOUND)
    return c.json(listChatMessages(ctxOf(c), id, parse(chatMessagesQuery, c.req.query())))
  })
  .post('/:id/messages', async (c) => {
    const id = pathId(c, NOT_FOUND)
    return c.json(sendChatMessage(ctxOf(c), id, await parseBody(c, chatMessageBody)), 201)
  })
