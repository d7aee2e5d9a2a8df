/**
 * The one door to a connection: every sender (attendant replies, bot and chatbot messages, schedules, the send
 * API, sign-up codes, campaigns, number checks) reaches a connection's session through its `ConnectionDoor`,
 * and no other module calls the session's `send`, `forward`, `checkNumbers` or `sendPresence` (door.test.ts
 * keeps it so).
 *
 * - One line: a sender takes a turn (`turn`), and turns of one connection run one at a time in the order they
 *   were asked for, so an attendant's reply never goes out in the middle of a campaign's "typing...", its
 *   message and its files.
 * - One claim rule: inside its turn a sender hands over only through the `Hand` that `turn.claim(claim)` gives
 *   back, and `claim` is its durable row's conditional UPDATE (queued -> sending, pending -> sending), made
 *   right before the hand-over. Whoever loses the claim sends nothing; a row left claimed by a kill is, at the
 *   next boot, marked failed by its owner (ERR_SEND_INTERRUPTED), never resent blindly. A sign-up code has no
 *   message row: its `signup_codes` row is the record, and a code that did not go is asked for again.
 * - One pace: the door knows when the number last handed a message over (`lastSentAt`), whichever sender it
 *   was, and counts every message of the day (`counters.ts`); both are kept in the database, so a door made
 *   after a restart keeps the pace (`state.ts`). Conversation sends (replies, bots, schedules,
 *   the send API, sign-up codes) go as soon as the line is free; outreach (campaigns) waits its interval from
 *   the number's last send and stops at the daily cap, both counting everything the number sent.
 * - One restriction state: a send WhatsApp refuses as restricted (463, the reach-out time lock), whoever made
 *   it, marks the door restricted, durably (`state.ts`: a restart keeps it, and admins and `balcao doctor` read it
 *   there as the connection's health); outreach then pauses (every running campaign of the connection, durably)
 *   until an admin resumes, which lifts it (`lift`). WhatsApp's reach-out time lock, which the session announces
 *   (`whatsappRestriction`), restricts the door the same way until the end WhatsApp gave, or until WhatsApp says
 *   it is over. Conversation sends go on: the lock still allows replies in
 *   existing chats, and one refused keeps its reason on its row. A banned or logged-out number has no
 *   connected session: every sender waits or fails with ERR_WAPP_NOT_INITIALIZED.
 * - Number checks are not messages: they take a turn (so they never fall between a campaign's typing and its
 *   message), have no row, do not count and are not held by a restriction.
 *
 * The door speaks only `ChannelSession` (channels/types.ts), so a provider plugs in without touching senders.
 * Edits, reactions, deletions and read receipts change or acknowledge what is already out and go to the
 * session directly (messages/service.ts).
 */
import { AppError } from '../../../shared/errors'
import type { ChannelSession, ContactRef, MsgRef, OutboundContent, SendOptions } from '../../channels/types'
import type { Deps } from '../../context'
import { stmt } from '../../db/statements'
import { companyTimeZone } from '../settings/service'
import { countSends, dayOf } from './counters'
import { type Restriction, readDoorState, saveLastSent, saveRestriction } from './state'

/**
 * `conversation`: someone's ticket (attendants, bots, chatbot, schedules, the send API) or a sign-up code;
 * counted by the door when it goes. `outreach`: campaigns, paced and capped; counted by their own claim, in the
 * claim's transaction, so the cap is checked and taken at once.
 */
export type Lane = 'conversation' | 'outreach'

/** How a claimed send reaches the session. */
export type Hand = {
  send(to: ContactRef, content: OutboundContent, options?: SendOptions): Promise<MsgRef>
  forward(to: ContactRef, source: MsgRef, raw: Uint8Array): Promise<MsgRef>
  /** Takes back a message deleted for everyone while WhatsApp had it. */
  deleteForEveryone(ref: MsgRef): Promise<void>
}

/** A sender's turn on the line. */
export type Turn = {
  /** The connected session's presence when the turn began (else the sender waits or fails). */
  readonly connected: boolean
  /** Whether the provider shows "typing...". */
  readonly showsTyping: boolean
  /** "typing..." (not a message: no claim, not counted). */
  presence(to: ContactRef, state: 'composing' | 'paused'): Promise<void>
  /** Asks WhatsApp which numbers exist (not a message: no claim, not counted, not held by a restriction). */
  check(phones: string[]): Promise<{ phone: string; exists: boolean; jid?: string }[]>
  /** Runs the sender's durable claim; the hand to send with when it won, null when someone else has the row. */
  claim(claim: () => boolean): Hand | null
}

const notConnected = () => new AppError('ERR_WAPP_NOT_INITIALIZED', 'the connection is not connected')

/** A send WhatsApp refused because the number is restricted (463, reach-out time lock). */
export function isRestriction(err: unknown): boolean {
  const e = err as {
    code?: unknown
    message?: unknown
    details?: { status?: unknown }
    output?: { statusCode?: unknown }
    data?: unknown
  }
  if (e?.code === 'ERR_WAPP_RESTRICTED' || e?.details?.status === 463 || e?.output?.statusCode === 463)
    return true
  return typeof e?.message === 'string' && /\b463\b|reach[- ]?out|time[- ]?lock/i.test(e.message)
}

export class ConnectionDoor {
  private line: Promise<unknown> = Promise.resolve()
  /** When the number last handed a message to WhatsApp, whichever sender (null: never). */
  lastSentAt: number | null
  /** Set when WhatsApp refused a send as restricted (until an admin lifts it) or announced its time lock. */
  private held: Restriction | null
  private companyId: number | undefined

  constructor(
    private readonly deps: Deps,
    readonly connectionId: number,
  ) {
    // What the door knew before a restart.
    const state = readDoorState(deps.sqlite, connectionId)
    this.lastSentAt = state.lastSentAt
    this.held = state.restriction
  }

  /** The connection's session when it is connected now. */
  private session(): ChannelSession | undefined {
    const session = this.deps.channels.session(this.connectionId)
    return session?.status === 'CONNECTED' ? session : undefined
  }

  get connected() {
    return !!this.session()
  }

  get showsTyping() {
    return !!this.session()?.sendPresence
  }

  /**
   * Runs `work` alone on the connection's line, after every turn asked for before it. Resolves (or rejects)
   * with what `work` does; a failing turn does not hold the line.
   */
  turn<T>(lane: Lane, work: (turn: Turn) => Promise<T>): Promise<T> {
    const run = this.line.then(() => work(this.open(lane)))
    this.line = run.catch(() => {})
    return run
  }

  /**
   * The restriction outreach waits for; null when there is none. A time lock WhatsApp gave an end is over at
   * that end (WhatsApp may never say so), and is forgotten then.
   */
  get restriction(): Restriction | null {
    const held = this.held
    if (held?.until != null && held.until <= this.deps.clock.now()) this.lift()
    return this.held
  }

  /** An admin resumed the connection's outreach after a restriction. */
  lift() {
    if (!this.held) return
    this.held = null
    saveRestriction(this.deps.sqlite, this.connectionId, null)
  }

  /**
   * WhatsApp told the session the number is under its reach-out time lock (until `until` when it said), or
   * that the lock is over. While it holds, outreach pauses as for a refused send; its end lifts a time lock (a
   * restriction a refused send caused waits for an admin, as always).
   */
  whatsappRestriction(event: { active: boolean; until?: number | undefined; detail?: string | undefined }) {
    if (!event.active) {
      if (this.held?.until != null) this.lift()
      return
    }
    this.held = {
      at: this.held?.at ?? this.deps.clock.now(),
      detail: event.detail ?? 'reach-out time lock',
      until: event.until ?? null,
    }
    saveRestriction(this.deps.sqlite, this.connectionId, this.held)
  }

  /** WhatsApp refused a send as restricted: the door holds outreach until an admin resumes. */
  private restrict(detail: string) {
    this.held = { at: this.deps.clock.now(), detail, until: null }
    saveRestriction(this.deps.sqlite, this.connectionId, this.held)
  }

  private open(lane: Lane): Turn {
    const session = this.session()
    return {
      connected: !!session,
      showsTyping: !!session?.sendPresence,
      presence: async (to, state) => {
        await session?.sendPresence?.(to, state)
      },
      check: (phones) => {
        if (!session) return Promise.reject(notConnected())
        return session.checkNumbers(phones)
      },
      claim: (claim) => (claim() ? this.hand(lane, session) : null),
    }
  }

  private hand(lane: Lane, session: ChannelSession | undefined): Hand {
    const handOver = async (send: (s: ChannelSession) => Promise<MsgRef>) => {
      if (!session) throw notConnected()
      let ref: MsgRef
      try {
        ref = await send(session)
      } catch (err) {
        if (isRestriction(err) && !this.restriction) this.restrict((err as Error)?.message ?? '463')
        throw err
      }
      this.sent(lane)
      return ref
    }
    return {
      send: (to, content, options) => handOver((s) => s.send(to, content, options)),
      forward: (to, source, raw) => handOver((s) => s.forward(to, source, raw)),
      deleteForEveryone: async (ref) => {
        if (!session) throw notConnected()
        await session.deleteForEveryone(ref)
      },
    }
  }

  /** The number sent a message: the pace counts from now, and the day's count grows (outreach counts itself). */
  private sent(lane: Lane) {
    const now = this.deps.clock.now()
    this.lastSentAt = now
    saveLastSent(this.deps.sqlite, this.connectionId, now)
    if (lane === 'outreach') return
    // A connection never changes company.
    this.companyId ??= stmt<{ companyId: number }, [number]>(
      this.deps.sqlite,
      'SELECT company_id AS companyId FROM whatsapps WHERE id = ?',
    ).get(this.connectionId)?.companyId
    const companyId = this.companyId
    if (companyId == null) return
    countSends(
      this.deps.sqlite,
      this.connectionId,
      dayOf(now, companyTimeZone(this.deps.sqlite, companyId)),
      1,
    )
  }
}

/** The connection's one door (per jobs registry, as the senders that use it). */
export function doorOf(deps: Deps, connectionId: number): ConnectionDoor {
  const byConnection = deps.jobs.use('doors', () => new Map<number, ConnectionDoor>())
  let door = byConnection.get(connectionId)
  if (!door) {
    // A Ctx is Deps plus an actor: keep the deps only.
    const { actor: _actor, ...plain } = deps as Deps & { actor?: unknown }
    door = new ConnectionDoor(plain as Deps, connectionId)
    byConnection.set(connectionId, door)
  }
  return door
}
