/**
 * The company's connections, shared by the shell (the '!' badge on the menu item), the connections page and
 * the QR dialog. One GET /api/whatsapp, then kept live by the `company-{id}-whatsapp` and
 * `company-{id}-whatsappSession` frames; fetched again after the socket reconnects.
 *   const stop = retainConnectionsFeed(companyId)   // reference counted: the first subscribes, the last leaves
 */
import { signal } from '@preact/signals-react'
import type { SessionUpdate, WhatsappDto } from '../../../shared/api'
import { api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { onReconnect, subscribe } from '../../api/live'

export type WhatsappEvent =
  | { action: 'create' | 'update'; whatsapp: WhatsappDto }
  | { action: 'delete'; whatsappId: number }
export type SessionEvent = { action: 'update'; session: SessionUpdate }

/** null until the first answer. */
export const connections = signal<WhatsappDto[] | null>(null)
export const connectionsLoading = signal(false)
export const connectionsError = signal<string | null>(null)

/** The server's order: name, then id. */
export function sortConnections(list: WhatsappDto[]): WhatsappDto[] {
  return [...list].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
}

export function upsertConnection(row: WhatsappDto): void {
  const list = connections.peek() ?? []
  connections.value = sortConnections([row, ...list.filter((c) => c.id !== row.id)])
}

export function removeConnection(id: number): void {
  const list = connections.peek()
  if (list) connections.value = list.filter((c) => c.id !== id)
}

/** Applies a session frame to its row (status, QR code, pairing code, number, retries, last update). */
export function applySession(session: SessionUpdate): void {
  const list = connections.peek()
  if (!list?.some((c) => c.id === session.id)) return
  connections.value = list.map((c) =>
    c.id === session.id
      ? {
          ...c,
          status: session.status,
          qrcode: session.qrcode ?? '',
          pairingCode: session.pairingCode ?? null,
          expirationTime: session.expirationTime ?? null,
          retries: session.retries ?? c.retries,
          number: session.number ?? null,
          updatedAt: session.updatedAt ?? c.updatedAt,
        }
      : c,
  )
}

let inflight: Promise<void> | null = null

/** GET /api/whatsapp; concurrent callers share one request. */
export function loadConnections(): Promise<void> {
  if (inflight) return inflight
  connectionsLoading.value = true
  connectionsError.value = null
  inflight = api
    .get<WhatsappDto[]>('/whatsapp')
    .then((list) => {
      connections.value = sortConnections(list)
    })
    .catch((err) => {
      connectionsError.value = errorMessage(err)
    })
    .finally(() => {
      connectionsLoading.value = false
      inflight = null
    })
  return inflight
}

let holders = 0
let feedCompany: number | null = null
let stopFeed: (() => void) | null = null

function startFeed(companyId: number) {
  const offs = [
    subscribe<WhatsappEvent>(`company-${companyId}-whatsapp`, (data) => {
      if ((data?.action === 'create' || data?.action === 'update') && data.whatsapp)
        upsertConnection(data.whatsapp)
      if (data?.action === 'delete' && data.whatsappId != null) removeConnection(data.whatsappId)
    }),
    subscribe<SessionEvent>(`company-${companyId}-whatsappSession`, (data) => {
      if (data?.session) applySession(data.session)
    }),
    onReconnect(() => void loadConnections()),
  ]
  return () => {
    for (const off of offs) off()
  }
}

/**
 * Keeps the list live while held. The first holder (per company) loads it and subscribes; the last one to
 * release unsubscribes. Returns the release function.
 */
export function retainConnectionsFeed(companyId: number): () => void {
  if (feedCompany !== companyId) {
    stopFeed?.()
    stopFeed = null
    holders = 0
    connections.value = null
    feedCompany = companyId
  }
  holders++
  if (!stopFeed) {
    // Nothing kept the list live until now: what we hold may be stale.
    stopFeed = startFeed(companyId)
    void loadConnections()
  }
  let released = false
  return () => {
    if (released) return
    released = true
    holders--
    if (holders <= 0 && feedCompany === companyId) {
      stopFeed?.()
      stopFeed = null
      holders = 0
    }
  }
}

/** Tests: forget everything. */
export function resetConnectionsStore(): void {
  stopFeed?.()
  stopFeed = null
  holders = 0
  feedCompany = null
  inflight = null
  connections.value = null
  connectionsLoading.value = false
  connectionsError.value = null
}
