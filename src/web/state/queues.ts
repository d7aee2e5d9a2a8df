/** The company's queues, live: the queues page and the queue pickers of the user and connection dialogs. */
import type { QueueDto } from '../../shared/api'
import { api } from '../api/client'
import { defineLiveList, liveEvent } from './liveList'

/** The server's order: orderQueue, then name. */
export function compareQueues(a: QueueDto, b: QueueDto): number {
  return (
    (a.orderQueue ?? Number.MAX_SAFE_INTEGER) - (b.orderQueue ?? Number.MAX_SAFE_INTEGER) ||
    a.name.localeCompare(b.name) ||
    a.id - b.id
  )
}

/** GET /api/queue (every queue at once), kept live by `company-{id}-queue`. */
export const queuesList = defineLiveList<QueueDto>({
  name: 'queues',
  id: (q) => q.id,
  fetchPage: async (_params, _page, signal) => {
    const items = await api.get<QueueDto[]>('/queue', { signal })
    return { items: [...items].sort(compareQueues), hasMore: false }
  },
  sort: compareQueues,
  events: [
    liveEvent('queue', (data, list) => {
      if (data.action === 'delete') list.remove(data.queueId)
      else if (data.queue) list.upsert(data.queue)
    }),
  ],
})
