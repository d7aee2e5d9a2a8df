/**
 * One way to show a list that the server keeps live: load it (page by page when the server pages it), apply the
 * live events the server publishes for it, and fetch it again after the socket reconnects. Every component that
 * shows the same list (same definition, company and parameters) shares one store, so two views of the list never
 * disagree and the list is fetched once.
 *
 *   export const queuesList = defineLiveList<QueueDto>({
 *     name: 'queues',
 *     id: (q) => q.id,
 *     fetchPage: async (_params, _page, signal) => ({ items: await api.get('/queue', { signal }), hasMore: false }),
 *     sort: byOrderThenName,
 *     events: [crudEvent('queue', 'queue', 'queueId')],
 *   })
 *   const list = useLiveList(queuesList)            // in a component: state + actions, held while mounted
 *   const release = retainLiveList(queuesList, 7)   // elsewhere: hold it (load + subscribe) until released
 *
 * A store loads and subscribes when its first holder arrives and unsubscribes when the last one leaves; it keeps
 * its rows for a while, shown at once (and refreshed) when someone holds it again.
 */
import { type Signal, signal } from '@preact/signals-react'
import { useCallback, useEffect, useMemo, useSyncExternalStore } from 'react'

import { type CompanyEventName, type CompanyEvents, liveChannel } from '../../shared/live'

import { onReconnect, subscribe } from '../api/live'
import { currentUser } from './session'

/** One answer of the server: a page of rows, whether more follow and (when the server counts) the total. */
export type Page<T> = { items: T[]; hasMore: boolean; count?: number | null }

export type LiveListState<T> = {
  items: T[]
  /** The server's total, when it gives one; live creates and deletes keep it in step. */
  count: number | null
  hasMore: boolean
  /** True until the first answer (the view shows its skeleton). */
  loading: boolean
  /** Fetching again in the background (after a reconnect, or when held again): the rows stay on screen. */
  refreshing: boolean
  loadingMore: boolean
  /** The last failure, until the next load succeeds. */
  error: unknown
}

/** What a live event can do to the rows. */
export type LiveListOps<T> = {
  /** Replace the row with the same id, or add it where the list's order puts it. */
  upsert(item: T): void
  remove(id: number): void
  /** Change a row in place (no-op when it is not loaded). */
  patch(id: number, change: (item: T) => T): void
  /** Change every loaded row (return the row itself to leave it as it is): a contact renamed on its tickets. */
  patchEach(change: (item: T) => T): void
}

/**
 * A company event the list follows (its name in src/shared/live.ts) and what it does to the rows; `params` are
 * the list's own (a filter the event is checked against).
 */
export type LiveBinding<T, P = unknown> = {
  event: CompanyEventName
  apply: (data: unknown, ops: LiveListOps<T>, params: P) => void
}

/** Binds a company event to the rows; the payload's type follows from the name (src/shared/live.ts). */
export function liveEvent<T, K extends CompanyEventName, P = unknown>(
  event: K,
  apply: (data: CompanyEvents[K], ops: LiveListOps<T>, params: P) => void,
): LiveBinding<T, P> {
  return { event, apply: apply as LiveBinding<T, P>['apply'] }
}

export type LiveListDefinition<T, P> = {
  /** Names the list in the store's key: one store per (name, company, params). */
  name: string
  id: (item: T) => number
  /** Page numbers start at 1; a list the server does not page answers everything with hasMore false. */
  fetchPage: (params: P, pageNumber: number, signal: AbortSignal) => Promise<Page<T>>
  /** The server's order: a live row is inserted where it belongs. Without it new rows go first. */
  sort?: (a: T, b: T) => number
  /** Whether a row belongs to this list (a search): a live row that does not match is left out or removed. */
  matches?: (item: T, params: P) => boolean
  /**
   * How a fetched page joins the rows already fetched (default: after them). `shown` is empty for the first
   * page; a row of `page` that is already shown should replace it. Duplicates are dropped afterwards.
   */
  mergePage?: (shown: T[], page: T[]) => T[]
  events: LiveBinding<T, P>[]
  /**
   * Whether `incoming` is older than the row shown: such an upsert is ignored. An HTTP answer computed before a
   * live frame may arrive after it (a connection's POST answer saying OPENING after its QR frame).
   */
  isStale?: (incoming: T, current: T) => boolean
  /** A stable key for the params (defaults to JSON). */
  paramsKey?: (params: P) => string
}

export type LiveListDefinitionHandle<T, P> = LiveListDefinition<T, P> & { readonly __liveList: true }

export function defineLiveList<T, P = undefined>(
  definition: LiveListDefinition<T, P>,
): LiveListDefinitionHandle<T, P> {
  return { ...definition, __liveList: true }
}

const INITIAL = {
  items: [],
  count: null,
  hasMore: false,
  loading: true,
  refreshing: false,
  loadingMore: false,
  error: null,
} satisfies LiveListState<never>

const isAbort = (err: unknown) => (err as Error)?.name === 'AbortError'

/** Idle stores (no holder) kept for a quick return; older ones are dropped. */
export const MAX_IDLE_LISTS = 12

/** The shared store of one list. Use it through `useLiveList` / `retainLiveList`. */
export class LiveList<T, P> implements LiveListOps<T> {
  readonly state: Signal<LiveListState<T>> = signal<LiveListState<T>>(INITIAL)
  private holders = 0
  /** Pages currently shown. */
  private pages = 0
  /** Bumped by every full load; an answer of an older load is dropped. */
  private generation = 0
  private controller: AbortController | null = null
  /** Live operations seen while a full load is in flight, replayed on its answer (which may predate them). */
  private pending: ((ops: LiveListOps<T>) => void)[] | null = null
  private offs: (() => void)[] = []
  lastUsed = 0

  constructor(
    readonly key: string,
    private readonly definition: LiveListDefinition<T, P>,
    readonly companyId: number,
    readonly params: P,
  ) {}

  get held(): boolean {
    return this.holders > 0
  }

  /** Holds the list live; the first holder loads it and subscribes. Returns the release function. */
  retain(): () => void {
    this.holders++
    this.lastUsed = Date.now()
    if (this.holders === 1) this.start()
    let released = false
    return () => {
      if (released || this.holders === 0) return
      released = true
      this.holders--
      this.lastUsed = Date.now()
      if (this.holders === 0) {
        this.stop()
        evictIdle()
      }
    }
  }

  private start() {
    const live = (apply: (ops: LiveListOps<T>) => void) => {
      apply(this)
      this.pending?.push(apply)
    }
    this.offs = [
      ...this.definition.events.map((binding) =>
        subscribe(liveChannel(this.companyId, binding.event), (data: unknown) => {
          if (data && typeof data === 'object') live((ops) => binding.apply(data, ops, this.params))
        }),
      ),
      onReconnect(() => void this.refresh()),
    ]
    void this.refresh()
  }

  private stop() {
    for (const off of this.offs) off()
    this.offs = []
    this.generation++
    this.controller?.abort()
    this.controller = null
    this.pending = null
    const s = this.state.peek()
    if (s.loading || s.refreshing || s.loadingMore)
      this.set({ refreshing: false, loadingMore: false, loading: s.items.length === 0 && s.error == null })
  }

  private set(patch: Partial<LiveListState<T>>) {
    this.state.value = { ...this.state.peek(), ...patch }
  }

  /**
   * Fetches what is shown again: the pages already loaded (at least the first), replacing the rows when all
   * have answered. Live events that arrive meanwhile are applied again on top of the answer.
   */
  async refresh(): Promise<void> {
    const gen = ++this.generation
    this.controller?.abort()
    const controller = new AbortController()
    this.controller = controller
    this.pending = []
    const shown = this.state.peek()
    // Rows on screen (or a list known to be empty) stay while it refreshes; an error or nothing yet: skeleton.
    this.set(
      shown.items.length > 0 || (!shown.loading && shown.error == null)
        ? { refreshing: true, loadingMore: false }
        : { loading: true, error: null, loadingMore: false },
    )
    const want = Math.max(1, this.pages)
    const merge = this.definition.mergePage ?? appendPage
    let items: T[] = []
    let hasMore = false
    let count: number | null = null
    let got = 0
    try {
      for (let n = 1; n <= want; n++) {
        const page = await this.definition.fetchPage(this.params, n, controller.signal)
        if (gen !== this.generation) return
        items = merge(items, page.items)
        hasMore = page.hasMore
        count = page.count ?? null
        got = n
        if (!page.hasMore) break
      }
    } catch (err) {
      if (gen !== this.generation || isAbort(err)) return
      this.pending = null
      this.controller = null
      const s = this.state.peek()
      this.set({ loading: false, refreshing: false, error: err, items: s.loading ? [] : s.items })
      return
    }
    const replay = this.pending ?? []
    this.pending = null
    this.controller = null
    this.pages = got
    this.set({
      items: dedupe(items, this.definition.id),
      hasMore,
      count,
      loading: false,
      refreshing: false,
      error: null,
    })
    for (const apply of replay) apply(this)
  }

  /** The next page, when there is one (infinite scroll). */
  async loadMore(): Promise<void> {
    const s = this.state.peek()
    if (!s.hasMore || s.loading || s.refreshing || s.loadingMore) return
    const gen = this.generation
    this.set({ loadingMore: true, error: null })
    try {
      const page = await this.definition.fetchPage(
        this.params,
        this.pages + 1,
        this.controller?.signal ?? new AbortController().signal,
      )
      if (gen !== this.generation) return
      this.pages++
      const now = this.state.peek()
      const merge = this.definition.mergePage ?? appendPage
      this.set({
        items: dedupe(merge(now.items, page.items), this.definition.id),
        hasMore: page.hasMore,
        count: page.count ?? now.count,
        loadingMore: false,
      })
    } catch (err) {
      if (gen !== this.generation || isAbort(err)) return
      this.set({ loadingMore: false, error: err })
    }
  }

  upsert(item: T): void {
    const { id, sort, matches } = this.definition
    if (matches && !matches(item, this.params)) {
      this.remove(id(item))
      return
    }
    const s = this.state.peek()
    const at = s.items.findIndex((x) => id(x) === id(item))
    if (at !== -1) {
      const current = s.items[at] as T
      if (this.definition.isStale?.(item, current)) return
      const rest = s.items.filter((_, i) => i !== at)
      this.set({ items: sort ? insertSorted(rest, item, sort, false) : replaceAt(s.items, at, item) })
      return
    }
    const count = s.count == null ? null : s.count + 1
    if (!sort) {
      this.set({ items: [item, ...s.items], count })
      return
    }
    // A row that sorts after the last loaded one belongs to a page not loaded yet: it comes with that page.
    this.set({ items: insertSorted(s.items, item, sort, s.hasMore), count })
  }

  remove(itemId: number): void {
    const s = this.state.peek()
    if (!s.items.some((x) => this.definition.id(x) === itemId)) return
    this.set({
      items: s.items.filter((x) => this.definition.id(x) !== itemId),
      count: s.count == null ? null : Math.max(0, s.count - 1),
    })
  }

  patch(itemId: number, change: (item: T) => T): void {
    const s = this.state.peek()
    const at = s.items.findIndex((x) => this.definition.id(x) === itemId)
    if (at === -1) return
    this.set({ items: replaceAt(s.items, at, change(s.items[at] as T)) })
  }

  patchEach(change: (item: T) => T): void {
    const s = this.state.peek()
    let changed = false
    const items = s.items.map((item) => {
      const next = change(item)
      if (next !== item) changed = true
      return next
    })
    if (changed) this.set({ items })
  }

  /** Ends the store whoever holds it (sign-out, tests). */
  dispose(): void {
    if (this.holders > 0) this.stop()
    this.holders = 0
  }

  /** Tests: the number of holders. */
  get holderCount(): number {
    return this.holders
  }
}

function appendPage<T>(shown: T[], page: T[]): T[] {
  return [...shown, ...page]
}

function replaceAt<T>(items: T[], at: number, item: T): T[] {
  const copy = items.slice()
  copy[at] = item
  return copy
}

function dedupe<T>(items: T[], id: (item: T) => number): T[] {
  const seen = new Set<number>()
  return items.filter((x) => {
    const k = id(x)
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/** Inserts before the first row that sorts after it; at the end only when no page is left to bring it. */
function insertSorted<T>(items: T[], item: T, sort: (a: T, b: T) => number, morePages: boolean): T[] {
  const at = items.findIndex((x) => sort(item, x) < 0)
  if (at === -1) return morePages ? items : [...items, item]
  return [...items.slice(0, at), item, ...items.slice(at)]
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds lists of every row type
const registry = new Map<string, LiveList<any, any>>()

function evictIdle() {
  const idle = [...registry.values()].filter((l) => !l.held).sort((a, b) => a.lastUsed - b.lastUsed)
  for (const list of idle.slice(0, Math.max(0, idle.length - MAX_IDLE_LISTS))) registry.delete(list.key)
}

/** The shared store of a list for a company and params (created on first use). */
export function liveList<T, P>(
  definition: LiveListDefinitionHandle<T, P>,
  companyId: number,
  params: P,
): LiveList<T, P> {
  const paramsKey = definition.paramsKey
    ? definition.paramsKey(params)
    : params === undefined
      ? ''
      : JSON.stringify(params)
  const key = `${definition.name}|${companyId}|${paramsKey}`
  let list = registry.get(key) as LiveList<T, P> | undefined
  if (!list) {
    list = new LiveList(key, definition, companyId, params)
    registry.set(key, list)
  }
  return list
}

/** Holds a list live outside React (the shell keeps the connections live for the menu badge). */
export function retainLiveList<T, P>(
  definition: LiveListDefinitionHandle<T, P>,
  companyId: number,
  ...[params]: P extends undefined ? [params?: P] : [params: P]
): () => void {
  return liveList(definition, companyId, params as P).retain()
}

export type LiveListView<T> = LiveListState<T> & {
  loadMore: () => void
  /** Fetches again (the retry of an error state). */
  reload: () => void
  upsert: (item: T) => void
  remove: (id: number) => void
  patch: (id: number, change: (item: T) => T) => void
}

const EMPTY_STORE = signal<LiveListState<never>>({ ...INITIAL, loading: false })
const noop = () => {}

export type UseLiveListOptions = {
  /** false: hold nothing and show an empty list (a picker the user may not use). */
  enabled?: boolean
}

/**
 * The list for the signed-in user's company, held (loaded, live) while the component is mounted.
 *   const users = useLiveList(usersList, { search })
 *   const queues = useLiveList(queuesList)
 */
export function useLiveList<T, P = undefined>(
  definition: LiveListDefinitionHandle<T, P>,
  ...[params, options]: P extends undefined
    ? [params?: P, options?: UseLiveListOptions]
    : [params: P, options?: UseLiveListOptions]
): LiveListView<T> {
  const companyId = useSyncExternalStore(subscribeUser, () => currentUser.peek()?.companyId ?? null)
  const enabled = options?.enabled !== false && companyId != null
  const paramsKey = JSON.stringify(params ?? null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: paramsKey stands for params
  const list = useMemo(
    () => (enabled ? liveList(definition, companyId as number, params as P) : null),
    [enabled, definition, companyId, paramsKey],
  )
  useEffect(() => list?.retain(), [list])
  const store = (list?.state ?? EMPTY_STORE) as Signal<LiveListState<T>>
  const subscribeStore = useCallback((notify: () => void) => store.subscribe(notify), [store])
  const state = useSyncExternalStore(subscribeStore, () => store.peek())
  // The actions keep their identity while the list is the same (safe in effect dependencies).
  const actions = useMemo(
    () => ({
      loadMore: list ? () => void list.loadMore() : noop,
      reload: list ? () => void list.refresh() : noop,
      upsert: list ? (item: T) => list.upsert(item) : noop,
      remove: list ? (id: number) => list.remove(id) : noop,
      patch: list ? (id: number, change: (item: T) => T) => list.patch(id, change) : noop,
    }),
    [list],
  )
  return useMemo(() => ({ ...state, ...actions }), [state, actions])
}

function subscribeUser(notify: () => void) {
  return currentUser.subscribe(notify)
}

/** Tests and sign-out: forget every list (their subscriptions end with them). */
export function resetLiveLists(): void {
  for (const list of registry.values()) list.dispose()
  registry.clear()
}

// Another user (or nobody) signed in: no rows of the previous session stay in memory.
let sessionUserId: number | null = null
currentUser.subscribe((user) => {
  const id = user?.id ?? null
  if (id !== sessionUserId && sessionUserId != null) resetLiveLists()
  sessionUserId = id
})
