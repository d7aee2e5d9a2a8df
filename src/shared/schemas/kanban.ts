import { type } from 'arktype'

const id = '1 <= number.integer <= 9007199254740991'

/** Queue ids as JSON text in a query string (`queueIds=[1,2]`): bad JSON is a 400, never a 500. */
const idList = type('string.json.parse').to(type(`(${id})[] <= 200`))

const flag = type("'true' | 'false'").pipe((s) => s === 'true')

/**
 * `GET /ticket/kanban`: the spec sends `queueIds` (the user's queues, JSON). `showAll` and `pageNumber` are ours,
 * with the ticket lists' meaning: show-all lets a user who may (admin, allUserChat) see other users' open tickets.
 */
export const kanbanTicketsQuery = type({
  '+': 'delete',
  'queueIds?': idList,
  'showAll?': flag,
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
})

export type KanbanTicketsQuery = typeof kanbanTicketsQuery.infer

/** `PUT /ticket/kanban/{ticketId}` (ours): the lane to move the card to; null is 'Em aberto' (no lane tag). */
export const kanbanMoveBody = type({
  '+': 'delete',
  tagId: `${id} | null`,
})

export type KanbanMoveInput = typeof kanbanMoveBody.infer
