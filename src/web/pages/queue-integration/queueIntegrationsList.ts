/** Queue integrations as the web keeps them, live (`company-{id}-queueIntegration`): paged, searched by name. */
import type { Paged } from '../../../shared/api'
import type { QueueIntegrationDto } from '../../../shared/queue-integrations'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

export type QueueIntegrationsParams = { search: string }

/** The server's order: name (case-insensitive), then id. */
export function compareIntegrations(a: QueueIntegrationDto, b: QueueIntegrationDto): number {
  const x = a.name.toLowerCase()
  const y = b.name.toLowerCase()
  return x < y ? -1 : x > y ? 1 : a.id - b.id
}

export function integrationMatches(record: QueueIntegrationDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || record.name.toLowerCase().includes(term)
}

const applyEvent = liveEvent<QueueIntegrationDto, 'queueIntegration'>('queueIntegration', (data, list) => {
  if (data.action === 'delete') list.remove(data.integrationId)
  else list.upsert(data.queueIntegration)
})

/** GET /api/queueIntegration/?searchParam=&pageNumber= → `{ queueIntegrations, count, hasMore }`. */
export const queueIntegrationsList = defineLiveList<QueueIntegrationDto, QueueIntegrationsParams>({
  name: 'queueIntegrations',
  id: (r) => r.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'queueIntegrations', QueueIntegrationDto>>('/queueIntegration', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.queueIntegrations ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareIntegrations,
  matches: (record, { search }) => integrationMatches(record, search),
  paramsKey: ({ search }) => search.trim(),
  events: [applyEvent],
})
