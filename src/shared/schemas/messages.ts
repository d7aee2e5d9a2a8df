import { type } from 'arktype'

/** WhatsApp's own limit for one text message. */
export const MESSAGE_MAX_LENGTH = 65_536
/** The spec: at most 4 messages forwarded at once. */
export const FORWARD_MAX = 4

const positiveId = type('1 <= number.integer <= 9007199254740991')

/** A message text: trimmed, and empty or whitespace-only is refused (the spec ignores such a send). */
export const messageText = type('string.trim').to(`1 <= string <= ${MESSAGE_MAX_LENGTH}`)

/** `GET /messages/{ticketId}?pageNumber=&spy=`: `spy=true` is the admin's read-only view (nothing marked read). */
export const messagesQuery = type({
  '+': 'delete',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
  'spy?': "'true' | 'false' | '1' | '0'",
})

/** The quoted message: its id, or the message object the web holds (only `id` is read). */
const quotedRef = positiveId.or(type({ id: positiveId })).or('null')

/** `POST /messages/{ticketId}` as JSON. Other fields older clients send (read, fromMe, mediaUrl) are dropped. */
export const sendMessageBody = type({
  '+': 'delete',
  body: messageText,
  'quotedMsg?': quotedRef,
  'isPrivate?': 'boolean',
})
export type SendMessageInput = typeof sendMessageBody.infer

/** The text fields of the multipart form (`medias` are files): the body may be empty when files come. */
export const sendMediaFields = type({
  '+': 'delete',
  'body?': type('string.trim').to(`string <= ${MESSAGE_MAX_LENGTH}`),
  'quotedMsg?': type('string.integer.parse').to(positiveId),
  'isPrivate?': "'true' | 'false'",
})

/** `POST /messages/edit/{messageId}`. */
export const editMessageBody = type({ '+': 'delete', body: messageText })

/**
 * `POST /message/forward`: one message per call as the spec's client sends, or a list of at most 4.
 */
export const forwardMessageBody = type({
  '+': 'delete',
  messageId: positiveId.or(positiveId.array()),
  contactId: positiveId,
})
export type ForwardMessageInput = typeof forwardMessageBody.infer

/** `POST /messages/{id}/reaction`: an emoji, or '' to take ours away. */
export const reactionBody = type({ '+': 'delete', emoji: 'string <= 16' })

/** `POST /api/messages/send` (a connection's token) as JSON. */
export const externalSendBody = type({
  '+': 'delete',
  number: '1 <= string <= 50',
  body: messageText,
})

/** The same as a multipart form with `medias`: the body may be empty when files come. */
export const externalSendFields = type({
  '+': 'delete',
  number: '1 <= string <= 50',
  'body?': type('string.trim').to(`string <= ${MESSAGE_MAX_LENGTH}`),
})
