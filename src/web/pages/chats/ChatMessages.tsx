import { Fragment } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChatMessageDto } from '../../../shared/chats'
import { HistoryError, HistoryPane } from '../../components/history/HistoryPane'
import {
  DaySeparator,
  HistoryEmpty,
  HistorySkeleton,
  HistoryStart,
} from '../../components/history/HistoryParts'
import { useHistoryScroll } from '../../components/history/useHistoryScroll'
import { cn } from '../../lib/cn'
import { dayKey, messageTime } from '../tickets/conversation/format'
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

/**
 * A chat's messages, oldest at the top: grouped by sender (name once, time on each), own messages on the
 * right, date separators. Older pages load within 600 px of the top and the view stays where it was; new
 * messages scroll into view when the reader was at the bottom (or sent it), otherwise a jump button counts them.
 */
export function ChatMessages({ view, me }: { view: ChatMessagesView; me: number }) {
  const { t } = useTranslation()
  const { messages, loading, loadingOlder, hasMore, error, loadOlder } = view
  const scroll = useHistoryScroll({
    messages,
    hasMore,
    loading,
    loadingOlder,
    loadOlder,
    loadThreshold: CHAT_LOAD_OLDER_THRESHOLD,
    stickThreshold: STICK_THRESHOLD,
    isOwn: (m) => m.senderId === me,
    fill: 'nearTop',
  })

  let body: React.ReactNode
  if (loading && messages.length === 0) body = <HistorySkeleton />
  else if (error && messages.length === 0)
    body = <HistoryError message={t('chats.loadFailed')} onRetry={view.reload} />
  else if (messages.length === 0)
    body = <HistoryEmpty title={t('chats.noMessagesTitle')} text={t('chats.noMessagesText')} />
  else {
    body = (
      <div className="flex flex-col pt-2 pb-3">
        {!hasMore && !loadingOlder && <HistoryStart text={t('chats.start')} />}
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
    <HistoryPane
      scroll={scroll}
      label={t('chats.messages')}
      testId="chat-messages"
      busy={{ loading, loadingOlder }}
      hasMessages={messages.length > 0}
      jumpBadgeClassName="bg-primary text-on-primary"
    >
      {body}
    </HistoryPane>
  )
}
