import { afterEach, beforeEach, describe, expect, jest, test } from 'bun:test'
import { act, render, renderHook, screen, waitFor } from '@testing-library/react'
import { dispatch, startLive, stopLive } from '../api/live'
import { makeUser, mockFetch, resetState, signIn, sockets, TEST_TOKEN } from '../test/utils'
import { defineLiveList, liveEvent, liveList, resetLiveLists, retainLiveList, useLiveList } from './liveList'

type Row = { id: number; name: string }

/** Queue-shaped rows (the `queue` event carries `queue` / `queueId`), paged by the fake server below. */
const rowsList = defineLiveList<Row, { search: string }>({
  name: 'test-rows',
  id: (r) => r.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await fetch(`/api/rows?search=${search}&pageNumber=${pageNumber}`, { signal })
    return (await res.json()) as { items: Row[]; hasMore: boolean; count: number }
  },
  sort: (a, b) => a.name.localeCompare(b.name),
  matches: (r, { search }) => r.name.toLowerCase().includes(search),
  events: [
    liveEvent('queue', (data, list) => {
      if (data.action === 'delete') list.remove(data.queueId)
      else list.upsert(data.queue as unknown as Row)
    }),
  ],
})

const row = (id: number, name: string) => ({ id, name })
const ALL = [row(1, 'Ana'), row(2, 'Bia'), row(3, 'Caio'), row(4, 'Dora'), row(5, 'Edu')]

/** A server of five rows, two per page. */
function serveRows(source: () => Row[] = () => ALL) {
  return mockFetch({
    'GET /api/rows': (c) => {
      const term = c.query.get('search') ?? ''
      const all = source().filter((r) => r.name.toLowerCase().includes(term))
      const page = Number(c.query.get('pageNumber'))
      return {
        body: {
          items: all.slice((page - 1) * 2, page * 2),
          hasMore: page * 2 < all.length,
          count: all.length,
        },
      }
    },
  })
}

function View({ label }: { label: string }) {
  const list = useLiveList(rowsList, { search: '' })
  return <p data-testid={label}>{names(list.items).join(',')}</p>
}
function Other() {
  const list = useLiveList(rowsList, { search: 'i' })
  return <p data-testid="other">{names(list.items).join(',')}</p>
}

const frame = (data: unknown, companyId = 7) =>
  act(() => dispatch(JSON.stringify({ event: `company-${companyId}-queue`, data })))
const names = (items: Row[]) => items.map((r) => r.name)
const flush = () => act(async () => {})

describe('live lists', () => {
  beforeEach(() => {
    resetState()
    sockets().length = 0
    signIn(makeUser({ id: 1, companyId: 7 }))
  })
  afterEach(() => {
    jest.useRealTimers()
    stopLive()
    resetState()
    resetLiveLists()
  })

  test('loads page by page while hasMore, without duplicates', async () => {
    const calls = serveRows()
    const { result } = renderHook(() => useLiveList(rowsList, { search: '' }))
    expect(result.current.loading).toBe(true)
    await waitFor(() => expect(names(result.current.items)).toEqual(['Ana', 'Bia']))
    expect(result.current).toMatchObject({ loading: false, hasMore: true, count: 5 })
    act(() => result.current.loadMore())
    await waitFor(() => expect(names(result.current.items)).toEqual(['Ana', 'Bia', 'Caio', 'Dora']))
    act(() => result.current.loadMore())
    await waitFor(() => expect(result.current.hasMore).toBe(false))
    expect(names(result.current.items)).toEqual(['Ana', 'Bia', 'Caio', 'Dora', 'Edu'])
    expect(calls.map((c) => c.query.get('pageNumber'))).toEqual(['1', '2', '3'])
  })

  test('applies live create, update and delete in the list order, and keeps the count', async () => {
    serveRows()
    const { result } = renderHook(() => useLiveList(rowsList, { search: '' }))
    await waitFor(() => expect(result.current.items).toHaveLength(2))

    frame({ action: 'create', queue: row(9, 'Aline') })
    expect(names(result.current.items)).toEqual(['Ana', 'Aline', 'Bia'].sort((a, b) => a.localeCompare(b)))
    expect(result.current.count).toBe(6)
    // Sorts after the last loaded row while pages remain: it will come with its page, only the count moves.
    frame({ action: 'create', queue: row(10, 'Zeca') })
    expect(names(result.current.items)).not.toContain('Zeca')
    expect(result.current.count).toBe(7)
    frame({ action: 'update', queue: row(1, 'Ana Paula') })
    expect(names(result.current.items)).toEqual(['Aline', 'Ana Paula', 'Bia'])
    expect(result.current.count).toBe(7) // an update is not a new row
    frame({ action: 'delete', queueId: 2 })
    expect(names(result.current.items)).toEqual(['Aline', 'Ana Paula'])
    expect(result.current.count).toBe(6)
    // Another company's events are not ours.
    frame({ action: 'create', queue: row(11, 'Abel') }, 8)
    expect(names(result.current.items)).not.toContain('Abel')
  })

  test('a search list drops a row that no longer matches', async () => {
    serveRows()
    const { result } = renderHook(() => useLiveList(rowsList, { search: 'a' }))
    await waitFor(() => expect(names(result.current.items)).toEqual(['Ana', 'Bia']))
    frame({ action: 'update', queue: row(2, 'Beto') })
    expect(names(result.current.items)).toEqual(['Ana'])
    frame({ action: 'create', queue: row(12, 'Otto') })
    expect(names(result.current.items)).toEqual(['Ana'])
  })

  test('an event that arrives while the list loads is not lost when the older answer lands', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => {
      release = r
    })
    serveRows()
    const realFetch = globalThis.fetch
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      const res = await realFetch(...args) // the server's answer is taken before the event...
      await gate // ...and reaches the browser after it
      return res
    }) as typeof fetch
    const { result } = renderHook(() => useLiveList(rowsList, { search: '' }))
    await flush()
    frame({ action: 'create', queue: row(7, 'Aaron') })
    frame({ action: 'delete', queueId: 1 })
    await act(async () => {
      release()
    })
    await waitFor(() => expect(result.current.loading).toBe(false))
    expect(names(result.current.items)).toEqual(['Aaron', 'Bia'])
  })

  test('components showing the same list share one store and one request', async () => {
    const calls = serveRows()
    const view = render(
      <>
        <View label="a" />
        <View label="b" />
        <Other />
      </>,
    )
    await waitFor(() => expect(screen.getByTestId('a')).toHaveTextContent('Ana,Bia'))
    expect(screen.getByTestId('b')).toHaveTextContent('Ana,Bia')
    await waitFor(() => expect(screen.getByTestId('other')).toHaveTextContent('Bia,Caio'))
    expect(calls.filter((c) => c.query.get('search') === '')).toHaveLength(1)

    // A change made through the store (a dialog's save) shows in every view of that list.
    act(() => liveList(rowsList, 7, { search: '' }).upsert(row(2, 'Bianca')))
    expect(screen.getByTestId('a')).toHaveTextContent('Ana,Bianca')
    expect(screen.getByTestId('b')).toHaveTextContent('Ana,Bianca')

    // The last holder leaves: no more live updates; the next one sees the rows at once, then fresh ones.
    view.unmount()
    frame({ action: 'update', queue: row(1, 'Ana Maria') })
    expect(names(liveList(rowsList, 7, { search: '' }).state.peek().items)).toEqual(['Ana', 'Bianca'])
    const again = renderHook(() => useLiveList(rowsList, { search: '' }))
    expect(names(again.result.current.items)).toEqual(['Ana', 'Bianca'])
    expect(again.result.current.loading).toBe(false)
    await waitFor(() => expect(names(again.result.current.items)).toEqual(['Ana', 'Bia']))
    expect(calls.filter((c) => c.query.get('search') === '')).toHaveLength(2)
  })

  test('fetches every shown page again after the socket reconnects', async () => {
    let server = ALL
    const calls = serveRows(() => server)
    localStorage.setItem('token', TEST_TOKEN)
    jest.useFakeTimers()
    startLive()
    await Promise.resolve()
    act(() => sockets()[0]!.open())
    const release = retainLiveList(rowsList, 7, { search: '' })
    const list = liveList(rowsList, 7, { search: '' })
    await waitFor(() => expect(list.state.peek().items).toHaveLength(2))
    await act(() => list.loadMore())
    expect(names(list.state.peek().items)).toEqual(['Ana', 'Bia', 'Caio', 'Dora'])

    // Offline for a while: changes happen that no frame told us about.
    act(() => sockets()[0]!.close())
    server = [row(1, 'Ana'), row(3, 'Caio'), row(4, 'Dora'), row(5, 'Edu'), row(6, 'Fabi')]
    const before = calls.length
    act(() => jest.advanceTimersByTime(2000))
    await Promise.resolve()
    expect(sockets()).toHaveLength(2)
    act(() => sockets()[1]!.open())
    jest.useRealTimers()
    await waitFor(() => expect(names(list.state.peek().items)).toEqual(['Ana', 'Caio', 'Dora', 'Edu']))
    expect(calls.slice(before).map((c) => c.query.get('pageNumber'))).toEqual(['1', '2'])
    expect(list.state.peek()).toMatchObject({ count: 5, hasMore: true, refreshing: false })
    release()
  })

  test('a failed load shows the error; reload tries again', async () => {
    let fail = true
    mockFetch({
      'GET /api/rows': () =>
        fail
          ? { status: 500, body: { error: 'ERR_INTERNAL', message: 'x' } }
          : { body: { items: [row(1, 'Ana')], hasMore: false, count: 1 } },
    })
    const failing = defineLiveList<Row>({
      name: 'test-failing',
      id: (r) => r.id,
      fetchPage: async (_p, _n, signal) => {
        const res = await fetch('/api/rows', { signal })
        if (!res.ok) throw new Error('boom')
        return (await res.json()) as { items: Row[]; hasMore: boolean }
      },
      events: [],
    })
    const { result } = renderHook(() => useLiveList(failing))
    await waitFor(() => expect(result.current.error).toBeInstanceOf(Error))
    expect(result.current.loading).toBe(false)
    fail = false
    act(() => result.current.reload())
    expect(result.current).toMatchObject({ loading: true, error: null })
    await waitFor(() => expect(names(result.current.items)).toEqual(['Ana']))
  })

  test('signing out forgets every list', async () => {
    serveRows()
    const release = retainLiveList(rowsList, 7, { search: '' })
    const list = liveList(rowsList, 7, { search: '' })
    await waitFor(() => expect(list.state.peek().items).toHaveLength(2))
    signIn(null)
    expect(liveList(rowsList, 7, { search: '' })).not.toBe(list)
    frame({ action: 'create', queue: row(9, 'Aline') })
    expect(list.state.peek().items).toHaveLength(2) // unsubscribed
    release()
  })

  test('mergePage decides where a page goes; events get the list params; patchEach changes rows in place', async () => {
    serveRows()
    const seen: unknown[] = []
    const merged = defineLiveList<Row, { search: string }>({
      name: 'test-merge',
      id: (r) => r.id,
      fetchPage: rowsList.fetchPage,
      // Each page goes above the rows already shown.
      mergePage: (shown, page) => [...page, ...shown],
      events: [
        liveEvent('queue', (data, list, params) => {
          seen.push(params)
          if (data.action === 'update')
            list.patchEach((r) => (r.id === data.queue.id ? { ...r, name: data.queue.name } : r))
        }),
      ],
    })
    const { result } = renderHook(() => useLiveList(merged, { search: '' }))
    await waitFor(() => expect(names(result.current.items)).toEqual(['Ana', 'Bia']))
    act(() => result.current.loadMore())
    await waitFor(() => expect(names(result.current.items)).toEqual(['Caio', 'Dora', 'Ana', 'Bia']))
    const before = result.current.items
    frame({ action: 'update', queue: row(4, 'Dóra') })
    expect(seen).toEqual([{ search: '' }])
    expect(names(result.current.items)).toEqual(['Caio', 'Dóra', 'Ana', 'Bia'])
    expect(result.current.items[0]).toBe(before[0] as Row)
  })
})
