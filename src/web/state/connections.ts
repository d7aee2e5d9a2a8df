/**
 * The company's connections, live: the connections page, the QR dialog, the default-connection picker of the
 * user dialog and the shell (the '!' badge of the Conexões menu item) share this one list.
 * `company-{id}-whatsapp` adds, changes and removes rows; `company-{id}-whatsappSession` changes a row's session.
 */
import type { SessionUpdate, WhatsappDto } from '../../shared/api'
import { api } from '../api/client'
import { defineLiveList, type LiveList, liveEvent, liveList, retainLiveList } from './liveList'

/** The server's order: name, then id. */
export function compareConnections(a: WhatsappDto, b: WhatsappDto): number {
  return a.name.localeCompare(b.name) || a.id - b.id
}

/** A session frame applied to its row (status and reason, QR code, pairing code, number, retries, health). */
export function withSession(row: WhatsappDto, session: SessionUpdate): WhatsappDto {
  return {
    ...row,
    status: session.status,
    statusReason: session.statusReason ?? null,
    qrcode: session.qrcode ?? '',
    pairingCode: session.pairingCode ?? null,
    expirationTime: session.expirationTime ?? null,
    retries: session.retries ?? row.retries,
    number: session.number ?? null,
    updatedAt: session.updatedAt || row.updatedAt,
    ...(session.health ? { health: session.health } : {}),
  }
}

/** GET /api/whatsapp (every connection at once). */
export const connectionsList = defineLiveList<WhatsappDto>({
  name: 'connections',
  id: (c) => c.id,
  fetchPage: async (_params, _page, signal) => {
    const items = await api.get<WhatsappDto[]>('/whatsapp', { signal })
    return { items: [...items].sort(compareConnections), hasMore: false }
  },
  sort: compareConnections,
  // Session frames carry the row's updatedAt: the POST or GET answer that left the server before a QR frame
  // must not put the row back to OPENING (the QR dialog would wait for the next QR, a minute later).
  isStale: (incoming, current) =>
    !!incoming.updatedAt && !!current.updatedAt && incoming.updatedAt < current.updatedAt,
  events: [
    liveEvent('whatsapp', (data, list) => {
      if (data.action === 'delete') list.remove(data.whatsappId)
      else if (data.whatsapp) list.upsert(data.whatsapp)
    }),
    liveEvent('whatsappSession', (data, list) => {
      const session = data.session
      if (session?.id != null) list.patch(session.id, (row) => withSession(row, session))
    }),
  ],
})

/** The connections store of a company (for code outside React; components use `useLiveList`). */
export function connectionsOf(companyId: number): LiveList<WhatsappDto, undefined> {
  return liveList(connectionsList, companyId, undefined)
}

/** Keeps the company's connections loaded and live until the returned function is called. */
export function retainConnections(companyId: number): () => void {
  return retainLiveList(connectionsList, companyId)
}

/** Whether any connection needs someone (the '!' badge): anything but CONNECTED (importing is connected). */
export function needsAttention(list: WhatsappDto[] | null | undefined): boolean {
  return !!list && list.some((c) => c.status !== 'CONNECTED' && c.status !== 'importing')
}
