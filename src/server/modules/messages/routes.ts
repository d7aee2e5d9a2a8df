import { Hono } from 'hono'
import {
  editMessageBody,
  forwardMessageBody,
  messagesQuery,
  reactionBody,
  sendMediaFields,
  sendMessageBody,
} from '../../../shared/schemas/messages'
import { ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { formFields, readForm, readMedias } from '../../media/upload'
import {
  deleteMessage,
  editMessage,
  forwardMessages,
  listMessages,
  reactToMessage,
  retryMessage,
  type SendInput,
  sendMessage,
} from './service'

const isMultipart = (type: string | undefined) => !!type?.toLowerCase().startsWith('multipart/form-data')

/** `/messages`: a ticket's conversation. (`POST /messages/send`, the token API, is mounted before this.) */
export const messagesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/:ticketId', (c) => {
    const q = parse(messagesQuery, c.req.query())
    const query: { pageNumber?: number; spy?: boolean } = { spy: q.spy === 'true' || q.spy === '1' }
    if (q.pageNumber !== undefined) query.pageNumber = q.pageNumber
    const answer = listMessages(ctxOf(c), pathId(c, 'ERR_NO_TICKET_FOUND', 'ticketId'), query)
    return c.json(answer)
  })
  .post('/edit/:messageId', async (c) => {
    const id = pathId(c, 'ERR_NO_MESSAGE_FOUND', 'messageId')
    const { body } = await parseBody(c, editMessageBody)
    return c.json(await editMessage(ctxOf(c), id, body))
  })
  .post('/:id/retry', async (c) => c.json(await retryMessage(ctxOf(c), pathId(c, 'ERR_NO_MESSAGE_FOUND'))))
  .post('/:id/reaction', async (c) => {
    const id = pathId(c, 'ERR_NO_MESSAGE_FOUND')
    const { emoji } = await parseBody(c, reactionBody)
    return c.json(await reactToMessage(ctxOf(c), id, emoji.trim()))
  })
  .post('/:ticketId', async (c) => {
    const ticketId = pathId(c, 'ERR_NO_TICKET_FOUND', 'ticketId')
    let input: SendInput
    if (isMultipart(c.req.header('content-type'))) {
      const form = await readForm(c)
      const fields = parse(sendMediaFields, formFields(form))
      input = { body: fields.body ?? '', uploads: await readMedias(form) }
      if (fields.quotedMsg !== undefined) input.quotedMsgId = fields.quotedMsg
      if (fields.isPrivate === 'true') input.isPrivate = true
    } else {
      const json = await parseBody(c, sendMessageBody)
      input = { body: json.body }
      const quoted = json.quotedMsg
      if (quoted != null) input.quotedMsgId = typeof quoted === 'number' ? quoted : quoted.id
      if (json.isPrivate) input.isPrivate = true
    }
    const messages = sendMessage(ctxOf(c), ticketId, input)
    return c.json({ messages, message: messages[0] }, 201)
  })
  .delete('/:id', async (c) => {
    const message = await deleteMessage(ctxOf(c), pathId(c, 'ERR_NO_MESSAGE_FOUND'))
    return c.json({ message })
  })

/** `/message/forward`: one message per call (or up to 4) to a contact. */
export const messageForwardRoutes = new Hono<AppEnv>().use(requireAuth).post('/forward', async (c) => {
  const input = await parseBody(c, forwardMessageBody)
  const messages = forwardMessages(ctxOf(c), input)
  return c.json({ messages, message: messages[0] }, 201)
})
