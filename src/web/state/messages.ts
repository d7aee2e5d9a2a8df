/**
 * One ticket's conversation, live: the ticket, its messages (oldest first) and the calls that change them.
 *
 *   const conv = useConversation(ticketId, { spy: readOnly })   // loads page 1, joins the ticket's room
 *   conv.loadOlder()                                             // the next older page (upward scroll)
 *
 * The server answers `GET /api/messages/{ticketId}?pageNumber=n` with 20 messages, page 1 the newest, oldest first
 * within a page. Messages that arrive meanwhile shift the pages, so an older page may repeat a few messages already
 * shown: they are merged by id, never shown twice, and nothing is skipped. Live `appMessage` events add and update
 * messages (a reaction, an edit, a deletion or an ack arrives as an update of its own message); `ticket` events
 * keep the header current; `contact` events its contact. The room is joined with `joinChatBox` on start and after
 * every (re)connect of the socket (the server forgets rooms with the socket); after a reconnect page 1 is fetched
 * again too.
 */
import { type Signal, signal } from '@preact/signals-react'
import { useEffect, useMemo, useSyncExternalStore } from 'react'
import type { MessageDto, MessagesPage, TicketDto } from '../../shared/api'
import { liveChannel } from '../../shared/live'
import { FORWARD_MAX } from '../../shared/schemas/messages'
import { api } from '../api/client'
import { liveConnected, onReconnect, sendLive, subscribe } from '../api/live'
import { currentUser } from './session'

export { FORWARD_MAX }

/** The server's page size for messages. */
export const MESSAGES_PAGE_SIZE = 20
/** Spec: about 0.9 s between two forwards. */
export const FORWARD_INTERVAL_MS = 900
/** A customer's message shown in the open conversation is marked read after this (one request per burst). */
export const READ_DELAY_MS = 800

/** Calls `handler` when the page becomes visible again. */
function onVisible(handler: () => void): () => void {
  if (typeof document === 'undefined') return () => {}
  const listener = () => {
    if (document.visibilityState === 'visible') handler()
  }
  document.addEventListener('visibilitychange', listener)
  return () => document.removeEventListener('visibilitychange', listener)
}

export type ConversationState = {
  /** The ticket's numeric id, once known (a uuid is resolved first). */
  ticketId: number | null
  ticket: TicketDto | null
  /** Oldest first. */
  messages: MessageDto[]
  hasMore: boolean
  loading: boolean
  loadingOlder: boolean
  error: unknown
  /** The ticket was deleted while shown. */
  deleted: boolean
}

const INITIAL: ConversationState = {
  ticketId: null,
  ticket: null,
  messages: [],
  hasMore: false,
  loading: true,
  loadingOlder: false,
  error: null,
  deleted: false,
}

const time = (m: MessageDto) => Date.parse(m.createdAt) || 0

/** The conversation's order: time, then id (two messages of one second keep the order they were written in). */
export function compareMessages(a: MessageDto, b: MessageDto): number {
  return time(a) - time(b) || a.id - b.id
}

/** Messages merged by id (the later copy wins), in the conversation's order. Reactions are not messages. */
export function mergeMessages(current: MessageDto[], incoming: MessageDto[]): MessageDto[] {
  const shown = incoming.filter((m) => m.mediaType !== 'reactionMessage')
  if (shown.length === 0) return current
  const last = current[current.length - 1]
  // The usual live case: one new message after everything shown.
  if (
    shown.length === 1 &&
    last &&
    compareMessages(last, shown[0] as MessageDto) < 0 &&
    !current.some((m) => m.id === shown[0]?.id)
  )
    return [...current, shown[0] as MessageDto]
  const byId = new Map<number, MessageDto>()
  for (const m of current) byId.set(m.id, m)
  for (const m of shown) byId.set(m.id, m)
  return [...byId.values()].sort(compareMessages)
}

const isNumericId = (ref: number | string) => typeof ref === 'number' || /^[1-9]\d{0,15}$/.test(ref)

/** The store of one open conversation. Use it through `useConversation`. */
export class ConversationStore {
  readonly state: Signal<ConversationState> = signal(INITIAL)
  private pages = 0
  private generation = 0
  private controller: AbortController | null = null
  private offs: (() => void)[] = []
  private joined: number | null = null
  private readTimer: ReturnType<typeof setTimeout> | null = null

  constructor(
    readonly ref: number | string,
    readonly companyId: number,
    /** The admin's read-only view: nothing is marked read. */
    readonly spy: boolean,
  ) {}

  private set(patch: Partial<ConversationState>) {
    this.state.value = { ...this.state.peek(), ...patch }
  }

  start(): () => void {
    const company = this.companyId
    this.offs = [
      subscribe(liveChannel(company, 'appMessage'), (data) => {
        const id = this.state.peek().ticketId
        if (id == null || !data?.message || data.message.ticketId !== id) return
        if (data.action === 'create' && data.ticket?.id === id) this.setTicket(data.ticket)
        this.upsertMessage(data.message)
        if (data.action === 'create' && !data.message.fromMe) this.scheduleRead()
      }),
      subscribe(liveChannel(company, 'ticket'), (data) => {
        const id = this.state.peek().ticketId
        if (id == null || !data) return
        if (data.action === 'update' && data.ticket?.id === id) this.setTicket(data.ticket)
        else if (data.action === 'delete' && data.ticketId === id) this.set({ deleted: true })
        else if (data.action === 'updateUnread' && data.ticketId === id) {
          const ticket = this.state.peek().ticket
          if (ticket) this.set({ ticket: { ...ticket, unreadMessages: 0 } })
        }
      }),
      subscribe(liveChannel(company, 'contact'), (data) => {
        const ticket = this.state.peek().ticket
        if (!ticket || data?.action !== 'update' || data.contact?.id !== ticket.contactId) return
        const c = data.contact
        this.setTicket({
          ...ticket,
          contact: {
            ...ticket.contact,
            name: c.name,
            number: c.number,
            email: c.email,
            profilePicUrl: c.profilePicUrl,
          },
        })
      }),
      // Join when the socket opens (now, or later) and again after each reconnect.
      liveConnected.subscribe((open) => {
        if (open) this.join()
      }),
      onReconnect(() => void this.refresh()),
      onVisible(() => {
        if ((this.state.peek().ticket?.unreadMessages ?? 0) > 0) this.scheduleRead()
      }),
    ]
    void this.load()
    return () => this.stop()
  }

  /**
   * A customer's message arrived while the conversation is on screen: it is read. Fetching page 1 again is how
   * the server learns it (GET /messages marks the ticket read, publishes `updateUnread` and sends the receipts);
   * a burst makes one request. The spy view and a hidden page read nothing.
   */
  private scheduleRead() {
    if (
      this.spy ||
      this.readTimer ||
      (typeof document !== 'undefined' && document.visibilityState === 'hidden')
    )
      return
    this.readTimer = setTimeout(() => {
      this.readTimer = null
      void this.refresh()
    }, READ_DELAY_MS)
  }

  private stop() {
    if (this.readTimer) clearTimeout(this.readTimer)
    this.readTimer = null
    for (const off of this.offs) off()
    this.offs = []
    this.generation++
    this.controller?.abort()
    this.controller = null
    if (this.joined != null) sendLive('leaveChatBox', this.joined)
    this.joined = null
  }

  private join() {
    const id = this.state.peek().ticketId
    if (id == null) return
    this.joined = id
    sendLive('joinChatBox', id)
  }

  private fetchPage(ticketId: number, pageNumber: number, signal: AbortSignal) {
    return api.get<MessagesPage>(`/messages/${ticketId}`, {
      query: { pageNumber, spy: this.spy ? 'true' : undefined },
      signal,
    })
  }

  /** First load: resolves a uuid, fetches page 1 and joins the room. */
  async load(): Promise<void> {
    const gen = ++this.generation
    this.controller?.abort()
    const controller = new AbortController()
    this.controller = controller
    this.set({ loading: true, error: null })
    try {
      let ticketId = this.state.peek().ticketId
      if (ticketId == null) {
        if (isNumericId(this.ref)) ticketId = Number(this.ref)
        else {
          const ticket = await api.get<TicketDto>(`/tickets/u/${encodeURIComponent(String(this.ref))}`, {
            signal: controller.signal,
          })
          if (gen !== this.generation) return
          ticketId = ticket.id
          this.set({ ticket })
        }
        this.set({ ticketId })
        this.join()
      }
      const page = await this.fetchPage(ticketId, 1, controller.signal)
      if (gen !== this.generation) return
      this.pages = 1
      this.set({
        ticket: page.ticket ?? this.state.peek().ticket,
        messages: mergeMessages([], page.messages ?? []),
        hasMore: !!page.hasMore,
        loading: false,
        error: null,
      })
    } catch (err) {
      if (gen !== this.generation || (err as Error)?.name === 'AbortError') return
      this.set({ loading: false, error: err })
    }
  }

  /** After a reconnect: page 1 again, merged into what is shown (older pages stay). */
  async refresh(): Promise<void> {
    const { ticketId, loading } = this.state.peek()
    if (ticketId == null || loading) {
      await this.load()
      return
    }
    const gen = this.generation
    try {
      const page = await this.fetchPage(ticketId, 1, this.controller?.signal ?? new AbortController().signal)
      if (gen !== this.generation) return
      const s = this.state.peek()
      this.set({ ticket: page.ticket ?? s.ticket, messages: mergeMessages(s.messages, page.messages ?? []) })
    } catch {
      // the messages on screen stay; the next reconnect tries again
    }
  }

  /** The next older page, kept above what is shown. */
  async loadOlder(): Promise<void> {
    const s = this.state.peek()
    if (s.ticketId == null || !s.hasMore || s.loading || s.loadingOlder) return
    const gen = this.generation
    this.set({ loadingOlder: true })
    try {
      const page = await this.fetchPage(
        s.ticketId,
        this.pages + 1,
        this.controller?.signal ?? new AbortController().signal,
      )
      if (gen !== this.generation) return
      this.pages++
      const now = this.state.peek()
      this.set({
        messages: mergeMessages(now.messages, page.messages ?? []),
        hasMore: !!page.hasMore,
        loadingOlder: false,
      })
    } catch (err) {
      if (gen !== this.generation || (err as Error)?.name === 'AbortError') return
      this.set({ loadingOlder: false, error: err })
    }
  }

  upsertMessage(message: MessageDto): void {
    const s = this.state.peek()
    this.set({ messages: mergeMessages(s.messages, [message]) })
  }

  setTicket(ticket: TicketDto): void {
    this.set({ ticket })
  }
}

export type ConversationView = ConversationState & {
  store: ConversationStore | null
  loadOlder: () => void
  reload: () => void
  upsertMessage: (m: MessageDto) => void
  setTicket: (t: TicketDto) => void
}

const EMPTY = signal<ConversationState>({ ...INITIAL, loading: false })
const noop = () => {}

/** The conversation of a ticket (id or uuid), loaded and live while the component is mounted. */
export function useConversation(ref: number | string, options: { spy?: boolean } = {}): ConversationView {
  const companyId = useSyncExternalStore(
    (notify) => currentUser.subscribe(notify),
    () => currentUser.peek()?.companyId ?? null,
  )
  const spy = !!options.spy
  const store = useMemo(
    () => (companyId == null ? null : new ConversationStore(ref, companyId, spy)),
    [ref, companyId, spy],
  )
  useEffect(() => store?.start(), [store])
  const sig = store?.state ?? EMPTY
  const state = useSyncExternalStore(
    (notify) => sig.subscribe(notify),
    () => sig.peek(),
  )
  return useMemo(
    () => ({
      ...state,
      store,
      loadOlder: store ? () => void store.loadOlder() : noop,
      reload: store ? () => void store.load() : noop,
      upsertMessage: store ? (m: MessageDto) => store.upsertMessage(m) : noop,
      setTicket: store ? (t: TicketDto) => store.setTicket(t) : noop,
    }),
    [state, store],
  )
}

/* ---------- Calls ---------- */

/** A message object the server answered, or nothing when it answered something else (an empty 201). */
function asMessage(value: unknown): MessageDto | null {
  const m = value as MessageDto | null
  return m && typeof m === 'object' && typeof m.id === 'number' && typeof m.ticketId === 'number' ? m : null
}

/** The messages in an answer: `{ messages, message }` (a send, a forward), a list, or one message. */
export function messagesOf(value: unknown): MessageDto[] {
  if (Array.isArray(value)) return value.map(asMessage).filter((m): m is MessageDto => !!m)
  const o = value as { messages?: unknown; message?: unknown } | null
  if (o && typeof o === 'object' && Array.isArray(o.messages)) return messagesOf(o.messages)
  const one = asMessage(o?.message) ?? asMessage(value)
  return one ? [one] : []
}

export type SendText = { body: string; quotedMsgId?: number | null; isPrivate?: boolean }

/** POST /api/messages/{ticketId} as JSON. */
export async function sendTextMessage(ticketId: number, input: SendText): Promise<MessageDto | null> {
  const res = await api.post<unknown>(`/messages/${ticketId}`, {
    body: input.body,
    quotedMsg: input.quotedMsgId ?? null,
    isPrivate: !!input.isPrivate,
  })
  return messagesOf(res)[0] ?? null
}

export type SendMedia = {
  files: File[]
  body?: string
  quotedMsgId?: number | null
  isPrivate?: boolean
}

/** POST /api/messages/{ticketId} as multipart: `medias` (one or more files), `body` the caption. */
export async function sendMediaMessage(ticketId: number, input: SendMedia): Promise<MessageDto[]> {
  const form = new FormData()
  for (const file of input.files) form.append('medias', file, file.name)
  form.append('body', input.body ?? '')
  if (input.quotedMsgId) form.append('quotedMsg', String(input.quotedMsgId))
  if (input.isPrivate) form.append('isPrivate', 'true')
  return messagesOf(await api.post<unknown>(`/messages/${ticketId}`, form))
}

/** POST /api/messages/edit/{messageId}. */
export async function editMessage(messageId: number, body: string): Promise<MessageDto | null> {
  return asMessage(await api.post<unknown>(`/messages/edit/${messageId}`, { body }))
}

/** DELETE /api/messages/{id}: deleted for everyone, shown as deleted. */
export async function deleteMessage(messageId: number): Promise<MessageDto | null> {
  return messagesOf(await api.delete<unknown>(`/messages/${messageId}`))[0] ?? null
}

/** POST /api/messages/{id}/retry: send a failed message again. */
export async function retrySend(messageId: number): Promise<MessageDto | null> {
  return asMessage(await api.post<unknown>(`/messages/${messageId}/retry`))
}

/** POST /api/messages/{id}/media/retry: fetch a failed inbound media again. */
export async function retryMedia(messageId: number): Promise<MessageDto | null> {
  return asMessage(await api.post<unknown>(`/messages/${messageId}/media/retry`))
}

/** POST /api/messages/{id}/reaction: our reaction ('' takes it away). */
export async function reactToMessage(messageId: number, emoji: string): Promise<void> {
  await api.post(`/messages/${messageId}/reaction`, { emoji })
}

const wait = (ms: number) => new Promise((ok) => setTimeout(ok, ms))

/**
 * POST /api/message/forward, one call per message about 0.9 s apart (the spec's pace, kind to WhatsApp).
 * `onProgress` is called after each one.
 */
export async function forwardMessages(
  messageIds: number[],
  contactId: number,
  onProgress?: (done: number) => void,
  interval = FORWARD_INTERVAL_MS,
): Promise<void> {
  for (let i = 0; i < messageIds.length; i++) {
    if (i > 0) await wait(interval)
    await api.post('/message/forward', { messageId: messageIds[i], contactId })
    onProgress?.(i + 1)
  }
}
