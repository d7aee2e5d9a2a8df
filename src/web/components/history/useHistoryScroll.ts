import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'

export type HistoryScrollOptions<M extends { id: number }> = {
  /** Oldest first. */
  messages: M[]
  hasMore: boolean
  loading: boolean
  loadingOlder: boolean
  loadOlder: () => unknown
  /** Older pages load when scrolled within this many px of the top. */
  loadThreshold: number
  /** Within this many px of the bottom the list follows new messages. */
  stickThreshold: number
  /** A new message the reader wrote: always scrolled into view. */
  isOwn: (m: M) => boolean
  /**
   * The data attribute that names a rendered message (`data-message-id`): when older ones come in above, the
   * first message on screen stays where it was, and height changes (media, a growing input) keep the bottom
   * in view. Without it, the distance from the bottom is kept.
   */
  anchorAttr?: string
  /**
   * After a change, bring the next older page at once while the list is still within `loadThreshold` of its
   * top (`nearTop`), or only while it is too short to scroll that far (`short`).
   */
  fill: 'nearTop' | 'short'
}

/**
 * The scrolling of a message history, oldest at the top: it starts at the bottom, older pages load near the
 * top without moving what is on screen, new messages are followed while the reader is at the bottom (or wrote
 * them) and otherwise counted in `unseen`; `away` says the reader scrolled up.
 */
export function useHistoryScroll<M extends { id: number }>(options: HistoryScrollOptions<M>) {
  const {
    messages,
    hasMore,
    loading,
    loadingOlder,
    loadOlder,
    loadThreshold,
    stickThreshold,
    anchorAttr,
    fill,
  } = options
  const isOwn = useRef(options.isOwn)
  isOwn.current = options.isOwn
  const scroller = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const atBottom = useRef(true)
  const before = useRef({ first: 0, last: 0, fromBottom: 0 })
  /** The first message on screen and how far below the list's top edge it is: what must stay put. */
  const anchor = useRef<{ id: string; offset: number } | null>(null)
  const [unseen, setUnseen] = useState(0)
  const [away, setAway] = useState(false)

  /** Notes where the reader is: the distance from the bottom, and with `anchorAttr` the message on top. */
  const remember = useCallback(
    (el: HTMLElement) => {
      const fromBottom = el.scrollHeight - el.clientHeight - el.scrollTop
      before.current.fromBottom = fromBottom
      atBottom.current = fromBottom < stickThreshold
      if (!anchorAttr) return
      const top = el.getBoundingClientRect().top
      const first = [...el.querySelectorAll<HTMLElement>(`[${anchorAttr}]`)].find(
        (n) => n.getBoundingClientRect().bottom > top,
      )
      anchor.current = first
        ? { id: first.getAttribute(anchorAttr) ?? '', offset: first.getBoundingClientRect().top - top }
        : null
    },
    [anchorAttr, stickThreshold],
  )

  const toBottom = useCallback(() => {
    const el = scroller.current
    if (!el) return
    el.scrollTop = el.scrollHeight
    atBottom.current = true
    setUnseen(0)
    setAway(false)
  }, [])

  /** The first page still loading holds back the `nearTop` filling (and only that). */
  const waiting = fill === 'nearTop' && loading
  // After each change of the messages: keep the view where the reader left it.
  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    const first = messages[0]?.id ?? 0
    const last = messages[messages.length - 1]?.id ?? 0
    const prev = before.current
    if (prev.last === 0 && last !== 0) toBottom()
    else if (first !== prev.first && last === prev.last) {
      // An older page came in above: the message the reader was looking at stays where it was.
      const kept = anchorAttr ? anchor.current : null
      const node = kept && el.querySelector<HTMLElement>(`[${anchorAttr}="${kept.id}"]`)
      if (kept && node)
        el.scrollTop += node.getBoundingClientRect().top - el.getBoundingClientRect().top - kept.offset
      else el.scrollTop = el.scrollHeight - el.clientHeight - prev.fromBottom
    } else if (last !== prev.last && last !== 0) {
      const newest = messages[messages.length - 1]
      if (atBottom.current || (newest && isOwn.current(newest))) toBottom()
      else setUnseen((n) => n + 1)
    }
    before.current = { first, last, fromBottom: el.scrollHeight - el.clientHeight - el.scrollTop }
    if (anchorAttr) remember(el)
    // A first page shorter than the screen cannot be scrolled up: bring the next one now.
    if (!hasMore || loadingOlder) return
    const fillNow =
      fill === 'nearTop'
        ? !waiting && el.scrollTop < loadThreshold
        : el.scrollHeight <= el.clientHeight + loadThreshold
    if (fillNow) void loadOlder()
  }, [
    messages,
    hasMore,
    loadingOlder,
    waiting,
    loadOlder,
    toBottom,
    remember,
    anchorAttr,
    fill,
    loadThreshold,
  ])

  // Media that loads later, or an input that grows, changes the heights: stay at the bottom when the reader was.
  useEffect(() => {
    const el = scroller.current
    const inner = content.current
    if (!anchorAttr || !el || !inner || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      if (atBottom.current) el.scrollTop = el.scrollHeight
      before.current.fromBottom = el.scrollHeight - el.clientHeight - el.scrollTop
    })
    observer.observe(inner)
    observer.observe(el)
    return () => observer.disconnect()
  }, [anchorAttr])

  const onScroll = () => {
    const el = scroller.current
    if (!el) return
    remember(el)
    setAway(!atBottom.current)
    if (atBottom.current && unseen) setUnseen(0)
    if (el.scrollTop < loadThreshold && hasMore && !loadingOlder && !loading) void loadOlder()
  }

  return { scroller, content, onScroll, toBottom, unseen, away }
}
