import type { Database } from 'bun:sqlite'
import type { ConnectionHealth, SessionUpdate } from '../../shared/api'
import type { ConnectionStatus, ConnectionStatusReason } from '../../shared/connection-status'
import { AppError } from '../../shared/errors'
import type { CompanyEvents } from '../../shared/live'
import type { Clock } from '../clock'
import type { WhatsappRow } from '../db/schema'
import { stmt } from '../db/statements'
import type { Logger } from '../logger'
import type { Hub } from '../realtime/hub'
import { channel, rooms } from '../realtime/rooms'
import {
  CONNECTION_COLUMNS,
  connectionRowById,
  type RawConnectionRow,
  toConnectionRow,
  updateConnectionRow,
} from './connection-row'
import { healthOf, recordHealth } from './health'
import type { ChannelEvent, ChannelEventOf, ChannelProvider, ChannelSession } from './types'

type HealthFacts = Parameters<typeof recordHealth>[2]

/** What the manager needs of the server (declared here, not taken from Deps, which holds the manager). */
export type ChannelManagerDeps = { sqlite: Database; hub: Hub; clock: Clock; log: Logger }

/** Where the domain events of every session go: the inbox consumes messages, acks, edits, deletes, reactions. */
export type ChannelSink = (
  connection: { id: number; companyId: number },
  event: ChannelEvent,
) => void | Promise<void>

type ProviderMap = Partial<Record<WhatsappRow['provider'], ChannelProvider>>

/** Statuses after which a restarted server brings the session back by itself. */
const RESUMABLE: ConnectionStatus[] = ['CONNECTED', 'importing', 'OPENING', 'PAIRING']
/** Causes a session gives up on that may have passed by the next boot: it tries again then. */
const PASSING: ConnectionStatusReason[] = ['no_network', 'unavailable']

function resumable(row: WhatsappRow) {
  if (RESUMABLE.includes(row.status)) return true
  return row.status === 'DISCONNECTED' && !!row.statusReason && PASSING.includes(row.statusReason)
}

/** Session states in which a start request begins again (a fresh socket, a fresh QR code) instead of waiting. */
const STARTING_OVER: ConnectionStatus[] = ['OPENING', 'qrcode', 'PAIRING']

/**
 * Holds one session per started connection: starts them at boot, stops them at shutdown, keeps the
 * connection rows in step with their sessions, publishes session changes live and hands every other
 * event to the sink.
 */
type SessionEntry = { session: ChannelSession; unsubscribe: () => void; stopping?: boolean }

/** A session's own state (not the inbox's business): ignored once the session is stopping. */
const SESSION_STATE_EVENTS = new Set<ChannelEvent['t']>(['qr', 'pairingCode', 'status'])

export class ChannelManager {
  private readonly sessions = new Map<number, SessionEntry>()
  private readonly sinks = new Set<ChannelSink>()

  private providers: Promise<ProviderMap> | undefined

  /**
   * `providers` may be a loader: the server loads Baileys (a few hundred ms and tens of MB) only once it is
   * listening, when the first session starts.
   */
  constructor(
    private readonly deps: ChannelManagerDeps,
    private readonly loadProviders: ProviderMap | (() => Promise<ProviderMap>),
  ) {}

  private async provider(name: WhatsappRow['provider']) {
    this.providers ??=
      typeof this.loadProviders === 'function' ? this.loadProviders() : Promise.resolve(this.loadProviders)
    return (await this.providers)[name]
  }

  /** Subscribe to every session's domain events. Returns the function that stops it. */
  onEvent(sink: ChannelSink) {
    this.sinks.add(sink)
    return () => this.sinks.delete(sink)
  }

  session(connectionId: number) {
    return this.sessions.get(connectionId)?.session
  }

  /** Boot: sessions that were working come back; QR codes of the previous run are void. */
  async startAll(staggerMs = 200) {
    const sqlite = this.deps.sqlite
    const rows = stmt<RawConnectionRow, []>(sqlite, `SELECT ${CONNECTION_COLUMNS} FROM whatsapps`)
      .all()
      .map(toConnectionRow)
    const stale = rows.filter((r) => !resumable(r) && (r.qrcode || r.status === 'qrcode'))
    if (stale.length) {
      stmt<unknown, [string]>(
        sqlite,
        `UPDATE whatsapps SET status = 'DISCONNECTED', qrcode = '', pairing_code = NULL, expiration_time = NULL
          WHERE id IN (SELECT value FROM json_each(?))`,
      ).run(JSON.stringify(stale.map((r) => r.id)))
    }
    for (const row of rows.filter(resumable)) {
      await this.start(row).catch((err: Error) =>
        this.deps.log.error('session failed to start', { connectionId: row.id, error: err.message }),
      )
      if (staggerMs) await Bun.sleep(staggerMs)
    }
  }

  /**
   * Starts the connection's session. A connected session is left alone; one still opening, retrying or waiting
   * for a scan starts over, so the person who asked sees a fresh QR code as after a restart; a stopped one
   * (DISCONNECTED, TIMEOUT, whatever the reason) tries again.
   */
  async start(row: WhatsappRow, options: { pairingPhone?: string } = {}) {
    const provider = await this.provider(row.provider)
    if (!provider)
      throw new AppError(
        'ERR_WAPP_NOT_INITIALIZED',
        `The ${row.provider} provider is not enabled on this server`,
      )
    const current = this.sessions.get(row.id)?.session.status
    if (current === 'CONNECTED' && !options.pairingPhone) return
    if (current && STARTING_OVER.includes(current)) await this.stop(row.id)
    let entry = this.sessions.get(row.id)
    if (!entry) {
      const session = provider({ id: row.id, companyId: row.companyId, name: row.name })
      const created: SessionEntry = { session, unsubscribe: () => {} }
      created.unsubscribe = session.on((event) =>
        created.stopping && SESSION_STATE_EVENTS.has(event.t)
          ? undefined
          : this.handle(row.id, row.companyId, event),
      )
      entry = created
      this.sessions.set(row.id, entry)
    }
    this.update(row.id, {
      status: 'OPENING',
      statusReason: null,
      retries: 0,
      qrcode: '',
      pairingCode: null,
      expirationTime: null,
    })
    await entry.session.start(options.pairingPhone ? { pairingPhone: options.pairingPhone } : undefined)
  }

  /** Closes a session without unlinking it (shutdown, restart). */
  async stop(connectionId: number) {
    const entry = this.sessions.get(connectionId)
    if (!entry) return
    this.sessions.delete(connectionId)
    // A stopping session may report DISCONNECTED, and the row must keep the status it had, so that the next
    // boot resumes it: its state reports are ignored from now on. What it still delivers while it stops (the
    // messages WhatsApp handed over and Baileys acknowledged, which WhatsApp will not send again) still goes
    // to the inbox: unsubscribed only once the session stopped.
    entry.stopping = true
    await entry.session.stop().catch(() => {})
    entry.unsubscribe()
  }

  /** Unlinks from the phone and forgets the credentials; the connection becomes DISCONNECTED. */
  async logout(connectionId: number) {
    const entry = this.sessions.get(connectionId)
    this.sessions.delete(connectionId)
    if (entry) {
      entry.unsubscribe()
      await entry.session
        .logout()
        .catch((err: Error) => this.deps.log.warn('logout failed', { connectionId, error: err.message }))
    }
    this.update(connectionId, {
      status: 'DISCONNECTED',
      statusReason: null,
      qrcode: '',
      pairingCode: null,
      expirationTime: null,
      retries: 0,
    })
  }

  async restart(row: WhatsappRow) {
    await this.stop(row.id)
    await this.start(row)
  }

  async stopAll() {
    await Promise.all([...this.sessions.keys()].map((id) => this.stop(id)))
  }

  /**
   * History import (the inbox's): the connection shows 'importing' with its progress (0-100) while WhatsApp's
   * history sync arrives; `null` ends it (back to CONNECTED, unless the session changed status meanwhile).
   */
  reportImport(connectionId: number, progress: number | null) {
    const row = this.row(connectionId)
    if (!row) return
    if (progress === null) {
      if (row.status === 'importing') this.update(connectionId, { status: 'CONNECTED' })
      return
    }
    if (row.status !== 'CONNECTED' && row.status !== 'importing') return
    this.update(connectionId, { status: 'importing' }, Math.max(0, Math.min(100, Math.round(progress))))
  }

  private async handle(connectionId: number, companyId: number, event: ChannelEvent) {
    switch (event.t) {
      case 'qr':
        this.update(connectionId, {
          status: 'qrcode',
          statusReason: null,
          qrcode: event.qr,
          expirationTime: event.expiresAt,
        })
        return
      case 'pairingCode':
        this.update(connectionId, {
          status: 'PAIRING',
          statusReason: null,
          pairingCode: event.code,
          expirationTime: event.expiresAt,
        })
        return
      case 'status': {
        // Every status report says why (or nothing, which clears an old reason).
        const patch: Partial<WhatsappRow> = { status: event.status, statusReason: event.statusReason ?? null }
        if (event.status !== 'qrcode') Object.assign(patch, { qrcode: '' })
        if (event.status === 'CONNECTED')
          Object.assign(patch, { retries: 0, pairingCode: null, expirationTime: null })
        if (event.me?.pn) patch.number = event.me.pn
        if (event.retryInMs !== undefined) patch.retries = (this.row(connectionId)?.retries ?? 0) + 1
        this.update(connectionId, patch, undefined, this.healthFacts(connectionId, event))
        if (event.status === 'DISCONNECTED' || event.status === 'TIMEOUT') {
          this.deps.log.info('session ended', {
            connectionId,
            status: event.status,
            statusReason: event.statusReason,
            reason: event.reason,
            detail: event.detail,
          })
        }
        return
      }
      default:
        for (const sink of this.sinks) {
          try {
            await sink({ id: connectionId, companyId }, event)
          } catch (err) {
            this.deps.log.error('channel event failed', {
              connectionId,
              event: event.t,
              error: (err as Error).message,
            })
          }
        }
    }
  }

  /**
   * What a status report tells of the connection's health: a reason is the last disconnect's (with its close
   * code and time); connecting records the versions the session speaks.
   */
  private healthFacts(connectionId: number, event: ChannelEventOf<'status'>): HealthFacts {
    const facts: HealthFacts = {}
    if (event.statusReason)
      Object.assign(facts, {
        lastDisconnectReason: event.statusReason,
        lastDisconnectCode: event.reason ?? null,
        lastDisconnectAt: this.deps.clock.now(),
      })
    const versions = event.status === 'CONNECTED' ? this.session(connectionId)?.versions : undefined
    if (versions) Object.assign(facts, { baileysVersion: versions.library, waWebVersion: versions.web })
    return facts
  }

  private row(connectionId: number) {
    return connectionRowById(this.deps.sqlite, connectionId)
  }

  /**
   * Writes the session's state on its connection row (and what it tells of its health, in the same
   * transaction) and tells the company's admins and the operator.
   */
  private update(connectionId: number, patch: Partial<WhatsappRow>, progress?: number, facts?: HealthFacts) {
    const sqlite = this.deps.sqlite
    const written = sqlite.transaction(() => {
      const row = updateConnectionRow(sqlite, connectionId, { ...patch, updatedAt: this.deps.clock.now() })
      if (row && facts) recordHealth(sqlite, connectionId, facts)
      return row && { row, health: healthOf(sqlite, [connectionId]).get(connectionId)! }
    })()
    if (!written) return
    const { row, health } = written
    // The same typed publish as services: the payload is checked against the event's entry in CompanyEvents.
    const event = channel(row.companyId, 'whatsappSession')
    const session = snapshot(row, health)
    if (progress !== undefined) session.progress = progress
    const data: CompanyEvents['whatsappSession'] = { action: 'update', session }
    this.deps.hub.publish(rooms.admins(row.companyId), event, data)
    this.deps.hub.publish(rooms.operator, event, data)
  }
}

/** What the live `whatsappSession` event carries about a session (its health when given). */
export function snapshot(row: WhatsappRow, health?: ConnectionHealth): SessionUpdate {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    statusReason: row.statusReason,
    qrcode: row.qrcode,
    pairingCode: row.pairingCode,
    expirationTime: row.expirationTime,
    retries: row.retries,
    number: row.number,
    updatedAt: new Date(row.updatedAt).toISOString(),
    ...(health ? { health } : {}),
  }
}
