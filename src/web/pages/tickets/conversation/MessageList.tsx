import { AlertCircle } from 'lucide-react'
import { Fragment, useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MessageDto } from '../../../../shared/api'
import { errorMessage } from '../../../api/errors'
import { HistoryError, HistoryPane } from '../../../components/history/HistoryPane'
import {
  DaySeparator,
  HISTORY_SKELETON_ROWS,
  HistoryEmpty,
  HistorySkeleton,
  HistoryStart,
} from '../../../components/history/HistoryParts'
import { useHistoryScroll } from '../../../components/history/useHistoryScroll'
import type { ConversationView } from '../../../state/messages'
import { dayKey } from './format'
import { type MessageActions, MessageBubble } from './MessageBubble'

/** Spec: the next older page loads when the list is scrolled within 50 px of its top. */
export const LOAD_OLDER_THRESHOLD = 50
/** Within this distance of the bottom the list follows new messages. */
const STICK_THRESHOLD = 120
/** Bubble placeholders while the first page loads: the usual ones and one more. */
const SKELETON_ROWS = [...HISTORY_SKELETON_ROWS, ['right', 'w-32'] as const]
/** Older pages fetched at most while looking for a quoted message. */
const MAX_JUMP_PAGES = 25
/** Spec: a reply flag clears after 10 s (the mark on the message being answered; the reply mode stays). */
export const REPLY_FLAG_MS = 10_000

export type MessageListProps = {
  conv: ConversationView
  actions: Omit<MessageActions, 'onQuoteClick'>
  readOnly?: boolean
  canSend?: boolean
  selecting?: boolean
  selectedIds?: number[]
  isGroup?: boolean
  customerName?: string
  /** The message being answered, flagged in the list for REPLY_FLAG_MS; `replyKey` restarts the flag. */
  replyingId?: number | null
  replyKey?: unknown
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
  replyingId = null,
  replyKey,
}: MessageListProps) {
  const { t } = useTranslation()
  const { messages, loading, loadingOlder, hasMore, error, loadOlder, store } = conv
  const scroll = useHistoryScroll({
    messages,
    hasMore,
    loading,
    loadingOlder,
    loadOlder,
    loadThreshold: LOAD_OLDER_THRESHOLD,
    stickThreshold: STICK_THRESHOLD,
    isOwn: (m) => m.fromMe,
    anchorAttr: 'data-message-id',
    fill: 'short',
  })
  const [highlight, setHighlight] = useState<number | null>(null)

  const jumpTo = useCallback(
    async (id: number) => {
      const find = () => scroll.scroller.current?.querySelector<HTMLElement>(`[data-message-id="${id}"]`)
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
    [store, scroll.scroller],
  )

  // Choosing 'Responder' flags the message for a moment, so the eye finds what is being answered; the input's
  // reply bar keeps saying it after the flag clears (a quote dropped silently would change what is sent).
  // biome-ignore lint/correctness/useExhaustiveDependencies: replyKey restarts the flag for the same message
  useEffect(() => {
    if (replyingId == null) return
    const id = replyingId
    setHighlight(id)
    const timer = setTimeout(() => setHighlight((h) => (h === id ? null : h)), REPLY_FLAG_MS)
    return () => {
      clearTimeout(timer)
      setHighlight((h) => (h === id ? null : h))
    }
  }, [replyingId, replyKey])

  const allActions: MessageActions = { ...actions, onQuoteClick: (id) => void jumpTo(id) }

  let body: React.ReactNode
  if (loading && messages.length === 0) body = <HistorySkeleton rows={SKELETON_ROWS} />
  else if (error && messages.length === 0)
    body = (
      <HistoryError
        icon={<AlertCircle className="size-6 text-danger" aria-hidden />}
        message={errorMessage(error)}
        onRetry={conv.reload}
      />
    )
  else if (messages.length === 0)
    body = (
      <HistoryEmpty
        title={t('conversation.emptyTitle')}
        text={readOnly ? t('conversation.emptyReadOnly') : t('conversation.emptyText')}
      />
    )
  else {
    let day = ''
    body = (
      <div className="flex flex-col gap-1.5 pt-2 pb-3">
        {!hasMore && !loadingOlder && <HistoryStart text={t('conversation.start')} />}
        {messages.map((m: MessageDto) => {
          const key = dayKey(m.createdAt)
          const sep = key !== day
          day = key
          return (
            <Fragment key={m.id}>
              {sep && <DaySeparator iso={m.createdAt} testId="date-separator" />}
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
    <HistoryPane
      scroll={scroll}
      label={t('conversation.messages')}
      testId="message-list"
      busy={{ loading, loadingOlder }}
      hasMessages={messages.length > 0}
      jumpBadgeClassName="bg-[#25a35a] text-white"
    >
      {body}
    </HistoryPane>
  )
}
