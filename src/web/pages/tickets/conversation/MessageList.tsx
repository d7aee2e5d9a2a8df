import { AlertCircle, ArrowDown, MessagesSquare } from 'lucide-react'
import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MessageDto } from '../../../../shared/api'
import { errorMessage } from '../../../api/errors'
import { Button } from '../../../components/ui/Button'
import { Skeleton } from '../../../components/ui/Skeleton'
import { Spinner } from '../../../components/ui/Spinner'
import { cn } from '../../../lib/cn'
import type { ConversationView } from '../../../state/messages'
import { dayKey, dayLabel } from './format'
import { type MessageActions, MessageBubble } from './MessageBubble'

/** Spec: the next older page loads when the list is scrolled within 50 px of its top. */
export const LOAD_OLDER_THRESHOLD = 50
/** Within this distance of the bottom the list follows new messages. */
const STICK_THRESHOLD = 120
/** Older pages fetched at most while looking for a quoted message. */
const MAX_JUMP_PAGES = 25

export type MessageListProps = {
  conv: ConversationView
  actions: Omit<MessageActions, 'onQuoteClick'>
  readOnly?: boolean
  canSend?: boolean
  selecting?: boolean
  selectedIds?: number[]
  isGroup?: boolean
  customerName?: string
}

function DateSeparator({ iso }: { iso: string }) {
  const { t, i18n } = useTranslation()
  const label = dayLabel(iso, i18n.language)
  const text =
    label === 'today' ? t('conversation.today') : label === 'yesterday' ? t('conversation.yesterday') : label
  return (
    <div className="flex justify-center py-2" data-testid="date-separator">
      <span className="rounded-lg bg-surface/90 px-3 py-1 font-medium text-[12px] text-muted shadow-[0_1px_0.5px_rgb(0_0_0/0.08)] tnum dark:bg-surface-2/90">
        {text}
      </span>
    </div>
  )
}

function ListSkeleton() {
  const rows = [
    ['left', 'w-48'],
    ['left', 'w-64'],
    ['right', 'w-56'],
    ['left', 'w-40'],
    ['right', 'w-72'],
    ['right', 'w-32'],
  ] as const
  return (
    <div className="flex flex-col gap-3 px-3 py-4 sm:px-[6%]" aria-busy>
      {rows.map(([side, w], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={i} className={cn('flex', side === 'right' ? 'justify-end' : 'justify-start')}>
          <Skeleton className={cn('h-10 rounded-2xl', w)} />
        </div>
      ))}
    </div>
  )
}

/**
 * The messages of a ticket, oldest at the top: date separators between days, older pages on upward scroll
 * (the view stays where it was), following new messages while at the bottom and offering a jump otherwise.
 */
export function MessageList({
  conv,
  actions,
  readOnly,
  canSend,
  selecting,
  selectedIds = [],
  isGroup,
  customerName,
}: MessageListProps) {
  const { t } = useTranslation()
  const scroller = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const { messages, loading, loadingOlder, hasMore, error, loadOlder, store } = conv
  const atBottom = useRef(true)
  const before = useRef({ first: 0, last: 0, height: 0, top: 0 })
  const [unseen, setUnseen] = useState(0)
  /** The reader scrolled up away from the newest messages: the jump button shows. */
  const [away, setAway] = useState(false)
  const [highlight, setHighlight] = useState<number | null>(null)

  /** The first message on screen and how far below the list's top edge it is: what must stay put. */
  const anchor = useRef<{ id: string; offset: number } | null>(null)

  const remember = useCallback(() => {
    const el = scroller.current
    if (!el) return
    before.current.height = el.scrollHeight
    before.current.top = el.scrollTop
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_THRESHOLD
    const top = el.getBoundingClientRect().top
    const first = [...el.querySelectorAll<HTMLElement>('[data-message-id]')].find(
      (n) => n.getBoundingClientRect().bottom > top,
    )
    anchor.current = first
      ? { id: first.dataset.messageId ?? '', offset: first.getBoundingClientRect().top - top }
      : null
  }, [])

  const toBottom = useCallback(() => {
    const el = scroller.current
    if (!el) return
    el.scrollTop = el.scrollHeight
    atBottom.current = true
    setUnseen(0)
    setAway(false)
  }, [])

  // After each change of the messages: keep the view where the reader left it.
  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    const first = messages[0]?.id ?? 0
    const last = messages[messages.length - 1]?.id ?? 0
    const prev = before.current
    if (prev.last === 0 && last !== 0) {
      toBottom()
    } else if (first !== prev.first && last === prev.last) {
      // An older page came in above: the message the reader was looking at stays where it was.
      const kept = anchor.current
      const node = kept && el.querySelector<HTMLElement>(`[data-message-id="${kept.id}"]`)
      if (kept && node)
        el.scrollTop += node.getBoundingClientRect().top - el.getBoundingClientRect().top - kept.offset
      else el.scrollTop = el.scrollHeight - prev.height + prev.top
    } else if (last !== prev.last && last !== 0) {
      const newest = messages[messages.length - 1]
      if (atBottom.current || newest?.fromMe) toBottom()
      else setUnseen((n) => n + 1)
    }
    before.current = { first, last, height: el.scrollHeight, top: el.scrollTop }
    remember()
    // A first page shorter than the screen cannot be scrolled up: bring the next one now.
    if (hasMore && !loadingOlder && el.scrollHeight <= el.clientHeight + LOAD_OLDER_THRESHOLD) loadOlder()
  }, [messages, hasMore, loadingOlder, loadOlder, toBottom, remember])

  // Media that loads later, or an input that grows, changes the heights: stay at the bottom when the reader was.
  useEffect(() => {
    const el = scroller.current
    const inner = content.current
    if (!el || !inner || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => {
      if (atBottom.current) el.scrollTop = el.scrollHeight
      before.current.height = el.scrollHeight
      before.current.top = el.scrollTop
    })
    observer.observe(inner)
    observer.observe(el)
    return () => observer.disconnect()
  }, [])

  const onScroll = () => {
    const el = scroller.current
    if (!el) return
    remember()
    setAway(!atBottom.current)
    if (atBottom.current && unseen) setUnseen(0)
    if (el.scrollTop < LOAD_OLDER_THRESHOLD && hasMore && !loadingOlder && !loading) loadOlder()
  }

  const jumpTo = useCallback(
    async (id: number) => {
      const find = () => scroller.current?.querySelector<HTMLElement>(`[data-message-id="${id}"]`)
      let el = find()
      for (let i = 0; !el && store && i < MAX_JUMP_PAGES && store.state.peek().hasMore; i++) {
        await store.loadOlder()
        await new Promise((ok) => requestAnimationFrame(() => ok(null)))
        el = find()
      }
      if (!el) return
      el.scrollIntoView?.({ block: 'center', behavior: 'smooth' })
      setHighlight(id)
      setTimeout(() => setHighlight((h) => (h === id ? null : h)), 1600)
    },
    [store],
  )

  const allActions: MessageActions = { ...actions, onQuoteClick: (id) => void jumpTo(id) }

  let body: React.ReactNode
  if (loading && messages.length === 0) body = <ListSkeleton />
  else if (error && messages.length === 0)
    body = (
      <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center" role="alert">
        <AlertCircle className="size-6 text-danger" aria-hidden />
        <p className="text-muted text-sm">{errorMessage(error)}</p>
        <Button variant="secondary" size="sm" onClick={conv.reload}>
          {t('common.retry')}
        </Button>
      </div>
    )
  else if (messages.length === 0)
    body = (
      <div className="flex flex-1 flex-col items-center justify-center gap-2 p-6 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-surface/80 text-muted">
          <MessagesSquare className="size-6" aria-hidden />
        </span>
        <p className="font-medium text-fg text-sm">{t('conversation.emptyTitle')}</p>
        <p className="max-w-xs text-muted text-sm">
          {readOnly ? t('conversation.emptyReadOnly') : t('conversation.emptyText')}
        </p>
      </div>
    )
  else {
    let day = ''
    body = (
      <div className="flex flex-col gap-1.5 pt-2 pb-3">
        {!hasMore && !loadingOlder && (
          <div className="flex justify-center py-2">
            <span className="text-[12px] text-subtle">{t('conversation.start')}</span>
          </div>
        )}
        {messages.map((m: MessageDto) => {
          const key = dayKey(m.createdAt)
          const sep = key !== day
          day = key
          return (
            <Fragment key={m.id}>
              {sep && <DateSeparator iso={m.createdAt} />}
              <MessageBubble
                m={m}
                actions={allActions}
                isGroup={isGroup}
                customerName={customerName}
                readOnly={readOnly}
                selecting={selecting}
                selected={selectedIds.includes(m.id)}
                highlighted={highlight === m.id}
                canSend={canSend}
              />
            </Fragment>
          )
        })}
      </div>
    )
  }

  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      <div
        ref={scroller}
        onScroll={onScroll}
        className="flex min-h-0 flex-1 flex-col overflow-y-auto overscroll-contain [overflow-anchor:none]"
        data-testid="message-list"
        role="log"
        aria-label={t('conversation.messages')}
        aria-busy={loading || loadingOlder || undefined}
      >
        <div ref={content} className="mt-auto flex flex-col">
          {body}
        </div>
      </div>
      {loadingOlder && (
        <div
          className="pointer-events-none absolute inset-x-0 top-2 flex justify-center"
          role="status"
          aria-label={t('common.loading')}
        >
          <span className="flex size-8 items-center justify-center rounded-full bg-surface shadow-pop">
            <Spinner className="text-muted" />
          </span>
        </div>
      )}
      {messages.length > 0 && (away || unseen > 0) && <JumpButton unseen={unseen} onClick={toBottom} />}
    </div>
  )
}

function JumpButton({ unseen, onClick }: { unseen: number; onClick: () => void }) {
  const { t } = useTranslation()
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={t('conversation.jumpToLatest')}
      title={t('conversation.jumpToLatest')}
      className="absolute right-4 bottom-3 flex size-10 items-center justify-center rounded-full border border-border bg-surface text-muted shadow-pop hover:text-fg max-sm:size-11"
    >
      <ArrowDown className="size-5" aria-hidden />
      {unseen > 0 && (
        <span className="-top-1.5 -right-1.5 absolute min-w-5 rounded-full bg-[#25a35a] px-1 font-semibold text-[11px] text-white leading-5 tnum">
          {unseen}
        </span>
      )}
    </button>
  )
}
