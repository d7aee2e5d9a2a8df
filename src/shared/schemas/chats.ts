import { type } from 'arktype'
import { pageQuery, text } from './common'

export const CHAT_TITLE_MAX = 100
export const CHAT_MESSAGE_MAX = 4000
/** Members a chat may list at once (a company has far fewer users than this). */
export const CHAT_USERS_MAX = 500

const userRef = type('1 <= number.integer <= 9007199254740991').or(
  type({ '+': 'delete', id: '1 <= number.integer <= 9007199254740991' }).pipe((u) => u.id),
)

/**
 * `POST /chats` and `PUT /chats/{id}`: a title (trimmed, 1 to 100 characters) and the other members, as ids or
 * `{ id }` objects (the spec's dialog sends the users it lists). The owner is always a member, whether named or
 * not; at least one other user is required.
 */
export const chatBody = type({
  '+': 'delete',
  title: text(1, CHAT_TITLE_MAX),
  users: userRef.array().atMostLength(CHAT_USERS_MAX),
})

export type ChatInput = typeof chatBody.infer

/** `POST /chats/{id}/messages`: the text, not blank once trimmed (kept as typed otherwise), at most 4000. */
export const chatMessageBody = type({
  '+': 'delete',
  message: type(`string <= ${CHAT_MESSAGE_MAX}`).narrow(
    (s, ctx) => s.trim().length > 0 || ctx.mustBe('non-blank'),
  ),
})

export type ChatMessageInput = typeof chatMessageBody.infer

/** `POST /chats/{id}/read`: the spec sends `userId`; only the actor's own read state ever changes. */
export const chatReadBody = type({ '+': 'delete', 'userId?': 'unknown' })

export const listChatsQuery = pageQuery
export type ListChatsQuery = typeof listChatsQuery.infer

export const chatMessagesQuery = type({
  '+': 'delete',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
})
export type ChatMessagesQuery = typeof chatMessagesQuery.infer
