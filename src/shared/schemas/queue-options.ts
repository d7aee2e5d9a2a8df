import { type } from 'arktype'
import { nullableId, text } from './common'

/**
 * The position the customer types: a positive whole number, kept as text ('1' … '999'). Clients send it as text
 * or as a number (the spec's client does both), on create and on update alike.
 */
export const optionPosition = type('string.trim')
  .or(type('1 <= number.integer <= 999').pipe((n) => String(n)))
  .to(/^[1-9]\d{0,2}$/)
  .describe('a position such as 1')

const id = '1 <= number.integer <= 9007199254740991'

/** GET /queue-options?queueId=&parentId= (parentId -1, or absent, for the top level). */
export const queueOptionsQuery = type({
  '+': 'delete',
  queueId: type('string.integer.parse').to(id),
  'parentId?': type('string.integer.parse').to('-1 | 1 <= number.integer <= 9007199254740991'),
})

/** POST /queue-options. */
export const createQueueOptionBody = type({
  '+': 'delete',
  queueId: id,
  /** -1 or null for the top level. */
  'parentId?': type('-1').or(nullableId),
  title: text(1, 100),
  'message?': 'string <= 4000 | null',
  /** Absent: the next free position among the siblings. */
  'option?': optionPosition.or('null'),
})

/** PUT /queue-options/{id}: the node's own fields (it stays where it is; reorder with POST /queue-options/reorder). */
export const updateQueueOptionBody = type({
  '+': 'delete',
  'title?': text(1, 100),
  'message?': 'string <= 4000 | null',
  'option?': optionPosition,
})

/** POST /queue-options/reorder: the siblings under one parent, in their new order (positions become 1…n). */
export const reorderQueueOptionsBody = type({
  '+': 'delete',
  queueId: id,
  parentId: `-1 | null | ${id}`,
  ids: type(id).array().atMostLength(500),
})

export type CreateQueueOptionInput = typeof createQueueOptionBody.infer
export type UpdateQueueOptionInput = typeof updateQueueOptionBody.infer
export type ReorderQueueOptionsInput = typeof reorderQueueOptionsBody.infer
