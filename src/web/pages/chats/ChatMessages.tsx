import { ArrowDown, MessagesSquare } from 'lucide-react'
import { Fragment, useCallback, useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChatMessageDto } from '../../../shared/chats'
import { Button } from '../../components/ui/Button'
import { Skeleton } from '../../components/ui/Skeleton'
import { Spinner } from '../../components/ui/Spinner'
import { cn } from '../../lib/cn'
import { dayKey, dayLabel, messageTime } from '../tickets/conversation/format'
import type { ChatMessagesView } from './chatsState'

/** Spec: chat history loads older messages when scrolled within 600 px of the top. */
export const CHAT_LOAD_OLDER_THRESHOLD = 600
/** Within this distance of the bottom the list follows new messages. */
const STICK_THRESHOLD = 80
/** Messages of one sender closer together than this share one header. */
const GROUP_GAP_MS = 5 * 60_000

/** Whether `m` starts a new group (another sender, another day, or a pause) after `prev`. */
export function startsGroup(prev: ChatMessageDto | undefined, m: ChatMessageDto): boolean {
  if (!prev) return true
  if (prev.senderId !== m.senderId) return true
  if (dayKey(prev.createdAt) !== dayKey(m.createdAt)) return true
  return Date.parse(m.createdAt) - Date.parse(prev.createdAt) > GROUP_GAP_MS
}

function DaySeparator({ iso }: { iso: string }) {
  const { t, i18n } = useTranslation()
  const label = dayLabel(iso, i18n.language)
  const text =
    label === 'today' ? t('conversation.today') : label === 'yesterday' ? t('conversation.yesterday') : label
  return (
    <div className="flex justify-center py-2">
      <span className="rounded-lg bg-surface/90 px-3 py-1 font-medium text-[12px] text-muted shadow-[0_1px_0.5px_rgb(0_0_0/0.08)] tnum dark:bg-surface-2/90">
        {text}
      </span>
    </div>
  )
}

function Bubble({ m, mine, first }: { m: ChatMessageDto; mine: boolean; first: boolean }) {
  const { t } = useTranslation()
  return (
    <div
      className={cn(
        'flex px-3 sm:px-[6%]',
        mine ? 'justify-end' : 'justify-start',
        first ? 'mt-2' : 'mt-0.5',
      )}
      data-chat-message-id={m.id}
    >
      <div
        className={cn(
          'max-w-[min(80%,560px)] px-3 pt-1.5 pb-1 text-[15px] text-fg shadow-[0_1px_0.5px_rgb(0_0_0/0.1)]',
          mine ? 'bg-[var(--bubble-out)]' : 'bg-[var(--bubble-in)]',
          first ? (mine ? 'rounded-[16px_6px_16px_16px]' : 'rounded-[6px_16px_16px_16px]') : 'rounded-2xl',
        )}
      >
        {first && !mine && (
          <div className="mb-0.5 truncate font-semibold text-[13px] text-link" data-testid="chat-sender">
            {m.sender?.name ?? t('chats.formerUser')}
          </div>
        )}
        <div className="whitespace-pre-wrap break-words leading-[1.4]">
          {m.message}
          <span className="float-right mt-1.5 ml-3 text-[11px] text-muted leading-none tnum">
            {messageTime(m.createdAt)}
          </span>
        </div>
      </div>
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
 * A chat's messages, oldest at the top: grouped by sender (name once, time on each), own messages on the
 * right, date separators. Older pages load within 600 px of the top and the view stays where it was; new
 * messages scroll into view when the reader was at the bottom (or sent it), otherwise a jump button counts them.
 */
export function ChatMessages({ view, me }: { view: ChatMessagesView; me: number }) {
  const { t } = useTranslation()
  const scroller = useRef<HTMLDivElement>(null)
  const { messages, loading, loadingOlder, hasMore, error, loadOlder } = view
  const atBottom = useRef(true)
  const before = useRef({ first: 0, last: 0, fromBottom: 0 })
  const [unseen, setUnseen] = useState(0)
  const [away, setAway] = useState(false)

  const toBottom = useCallback(() => {
    const el = scroller.current
    if (!el) return
    el.scrollTop = el.scrollHeight
    atBottom.current = true
    setUnseen(0)
    setAway(false)
  }, [])

  useLayoutEffect(() => {
    const el = scroller.current
    if (!el) return
    const first = messages[0]?.id ?? 0
    const last = messages[messages.length - 1]?.id ?? 0
    const prev = before.current
    if (prev.last === 0 && last !== 0) toBottom()
    else if (first !== prev.first && last === prev.last) {
      // An older page came in above: keep the same distance from the bottom, so nothing on screen moves.
      el.scrollTop = el.scrollHeight - el.clientHeight - prev.fromBottom
    } else if (last !== prev.last && last !== 0) {
      const newest = messages[messages.length - 1]
      if (atBottom.current || newest?.senderId === me) toBottom()
      else setUnseen((n) => n + 1)
    }
    before.current = { first, last, fromBottom: el.scrollHeight - el.clientHeight - el.scrollTop }
    // A first page shorter than the screen cannot be scrolled: bring the next one now.
    if (hasMore && !loadingOlder && !loading && el.scrollTop < CHAT_LOAD_OLDER_THRESHOLD) void loadOlder()
  }, [messages, hasMore, loadingOlder, loading, loadOlder, toBottom, me])

  const onScroll = () => {
    const el = scroller.current
    if (!el) return
    const fromBottom = el.scrollHeight - el.clientHeight - el.scrollTop
    before.current.fromBottom = fromBottom
    atBottom.current = fromBottom < STICK_THRESHOLD
    setAway(!atBottom.current)
    if (atBottom.current && unseen) setUnseen(0)
    if (el.scrollTop < CHAT_LOAD_OLDER_THRESHOLD && hasMore && !loadingOlder && !loading) void loadOlder()
  }

  let body: React.ReactNode
  if (loading && messages.length === 0) body = <ListSkeleton />
  else if (error && messages.length === 0)
    body = (
      <div className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center" role="alert">
        <p className="text-muted text-sm">{t('chats.loadFailed')}</p>
        <Button variant="secondary" size="sm" onClick={view.reload}>
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
        <p className="font-medium text-fg text-sm">{t('chats.noMessagesTitle')}</p>
        <p className="max-w-xs text-muted text-sm">{t('chats.noMessagesText')}</p>
      </div>
    )
  else {
    body = (
      <div className="flex flex-col pt-2 pb-3">
        {!hasMore && !loadingOlder && (
          <div className="flex justify-center py-2">
            <span className="text-[12px] text-subtle">{t('chats.start')}</span>
          </div>
        )}
        {messages.map((m, i) => {
          const prev = messages[i - 1]
          const newDay = !prev || dayKey(prev.createdAt) !== dayKey(m.createdAt)
          return (
            <Fragment key={m.id}>
              {newDay && <DaySeparator iso={m.createdAt} />}
              <Bubble m={m} mine={m.senderId === me} first={startsGroup(prev, m)} />
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
        data-testid="chat-messages"
        role="log"
        aria-label={t('chats.messages')}
        aria-busy={loading || loadingOlder || undefined}
      >
        <div className="mt-auto flex flex-col">{body}</div>
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
      {messages.length > 0 && (away || unseen > 0) && (
        <button
          type="button"
          onClick={toBottom}
          aria-label={t('conversation.jumpToLatest')}
          title={t('conversation.jumpToLatest')}
          className="absolute right-4 bottom-3 flex size-10 items-center justify-center rounded-full border border-border bg-surface text-muted shadow-pop hover:text-fg max-sm:size-11"
        >
          <ArrowDown className="size-5" aria-hidden />
          {unseen > 0 && (
            <span className="-top-1.5 -right-1.5 absolute min-w-5 rounded-full bg-primary px-1 font-semibold text-[11px] text-on-primary leading-5 tnum">
              {unseen}
            </span>
          )}
        </button>
      )}
    </div>
  )
}
