import { Forward, X } from 'lucide-react'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MessageDto, TicketDto } from '../../../../shared/api'
import { ApiError } from '../../../api/client'
import { toastError } from '../../../api/errors'
import { Button } from '../../../components/ui/Button'
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog'
import { Skeleton } from '../../../components/ui/Skeleton'
import {
  deleteMessage,
  reactToMessage,
  retryMedia,
  retrySend,
  useConversation,
} from '../../../state/messages'
import { toast } from '../../../state/toast'
import { ContactDrawer } from './ContactDrawer'
import { ConversationHeader } from './ConversationHeader'
import { ForwardDialog } from './ForwardDialog'
import type { MessageActions } from './MessageBubble'
import { MessageInput } from './MessageInput'
import { MessageList } from './MessageList'
import { toggleForward } from './rules'
import { TagSelector } from './TagSelector'

export type ConversationProps = {
  /** The ticket's id or uuid. */
  ticketId: number | string
  /** The admin's read-only view (the spy dialog): no actions, no input, nothing marked read. */
  readOnly?: boolean
  /** The ticket left this view: returned, resolved, transferred, deleted, or not allowed. */
  onClosed?: () => void
}

/**
 * The conversation's colours, set on its root so bubbles and notes read them: ours a light tint of the primary,
 * the customer's the surface, private notes amber. Dark ones designed for the dark theme.
 */
const PALETTE =
  '[--chat-bg:#eceff3] [--bubble-in:#ffffff] [--bubble-out:#dbe9ff] [--note:#fff3d1] [--note-border:#eccb75] [--note-fg:#875200] ' +
  'dark:[--chat-bg:#0d1013] dark:[--bubble-in:#22262b] dark:[--bubble-out:#1c3454] dark:[--note:#392c12] dark:[--note-border:#806022] dark:[--note-fg:#f4c76a]'

function HeaderSkeleton() {
  return (
    <div className="flex h-16 shrink-0 items-center gap-3 border-border border-b bg-surface px-4" aria-busy>
      <Skeleton className="size-10 rounded-full" />
      <div className="space-y-1.5">
        <Skeleton className="h-4 w-40" />
        <Skeleton className="h-3 w-28" />
      </div>
    </div>
  )
}

/** One ticket's conversation: header with actions, tags, messages, input, contact drawer and forward dialog. */
export function Conversation({ ticketId, readOnly = false, onClosed }: ConversationProps) {
  const { t } = useTranslation()
  const conv = useConversation(ticketId, { spy: readOnly })
  const { ticket, upsertMessage, setTicket } = conv
  const [replyTo, setReplyTo] = useState<MessageDto | null>(null)
  const [editing, setEditing] = useState<MessageDto | null>(null)
  const [focusKey, setFocusKey] = useState(0)
  const [drawer, setDrawer] = useState(false)
  const [selecting, setSelecting] = useState(false)
  const [selected, setSelected] = useState<number[]>([])
  const selectedRef = useRef(selected)
  selectedRef.current = selected
  const [forwarding, setForwarding] = useState(false)
  const [deleting, setDeleting] = useState<MessageDto | null>(null)

  // A new ticket: nothing of the previous one stays.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the ticket changes
  useEffect(() => {
    setReplyTo(null)
    setEditing(null)
    setDrawer(false)
    setSelecting(false)
    setSelected([])
  }, [ticketId])

  const leave = useCallback(() => onClosed?.(), [onClosed])

  // Deleted while shown (by someone else, or in another tab), or not this user's to see: back to the list.
  useEffect(() => {
    if (!conv.deleted) return
    toast.success(t('conversation.ticketDeleted'))
    leave()
  }, [conv.deleted, leave, t])
  useEffect(() => {
    const err = conv.error
    if (!(err instanceof ApiError) || conv.messages.length > 0) return
    if (err.status === 403 && err.code !== 'ERR_SESSION_EXPIRED') {
      toast.error(t('conversation.accessDenied'))
      leave()
    } else if (err.status === 404) {
      toastError(err)
      leave()
    }
  }, [conv.error, conv.messages.length, leave, t])

  const actions = useMemo<Omit<MessageActions, 'onQuoteClick'>>(
    () => ({
      onReply: (m) => {
        setEditing(null)
        setReplyTo(m)
        setFocusKey((k) => k + 1)
      },
      onEdit: (m) => {
        setReplyTo(null)
        setEditing(m)
        setFocusKey((k) => k + 1)
      },
      onDelete: (m) => setDeleting(m),
      onForward: (m) => {
        setSelecting(true)
        setSelected([m.id])
      },
      onReact: (m, emoji) => {
        const mine = m.reactions.filter((r) => !r.fromMe)
        upsertMessage({ ...m, reactions: [...mine, { emoji, fromMe: true, senderName: null }] })
        reactToMessage(m.id, emoji).catch((err) => {
          upsertMessage(m)
          toastError(err)
        })
      },
      onRetrySend: async (m) => {
        try {
          const res = await retrySend(m.id)
          upsertMessage(res ?? { ...m, sendState: 'queued', sendError: null })
        } catch (err) {
          toastError(err)
        }
      },
      onRetryMedia: async (m) => {
        try {
          const res = await retryMedia(m.id)
          upsertMessage(res ?? { ...m, mediaState: 'pending' })
        } catch (err) {
          toastError(err)
        }
      },
      onToggleSelect: (m) => {
        const next = toggleForward(selectedRef.current, m.id)
        if (next.error === 'tooMany') toast.error(t('conversation.forward.tooMany'))
        selectedRef.current = next.selected
        setSelected(next.selected)
      },
    }),
    [upsertMessage, t],
  )

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      const res = await deleteMessage(deleting.id)
      upsertMessage(res ?? { ...deleting, isDeleted: true })
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const stopSelecting = () => {
    setSelecting(false)
    setSelected([])
  }
  const openForward = () => {
    if (selected.length === 0) {
      toast.warning(t('conversation.forward.none'))
      return
    }
    setForwarding(true)
  }

  const onTicket = (next: TicketDto) => setTicket(next)
  const open = ticket?.status === 'open'

  return (
    <div
      className={`relative flex h-full min-h-0 min-w-0 flex-1 flex-col overflow-hidden bg-[var(--chat-bg)] ${PALETTE}`}
      data-testid="conversation"
    >
      {ticket ? (
        <ConversationHeader
          ticket={ticket}
          readOnly={readOnly}
          onTicket={onTicket}
          onLeave={leave}
          onOpenContact={() => setDrawer(true)}
        />
      ) : (
        <HeaderSkeleton />
      )}
      {ticket && (
        <TagSelector
          ticket={ticket}
          readOnly={readOnly}
          onChanged={(tags) => setTicket({ ...ticket, tags })}
        />
      )}
      <MessageList
        conv={conv}
        actions={actions}
        readOnly={readOnly}
        canSend={open && !readOnly}
        selecting={selecting}
        selectedIds={selected}
        isGroup={ticket?.isGroup}
        customerName={ticket?.contact.name}
        replyingId={replyTo?.id ?? null}
        replyKey={focusKey}
      />
      {selecting ? (
        <div
          className="flex shrink-0 items-center gap-2 border-border border-t bg-surface-2 px-3 py-2"
          data-testid="forward-bar"
        >
          <button
            type="button"
            onClick={stopSelecting}
            aria-label={t('common.cancel')}
            title={t('common.cancel')}
            className="flex size-10 items-center justify-center rounded-full text-muted hover:bg-surface-3 hover:text-fg max-sm:size-11"
          >
            <X className="size-5" aria-hidden />
          </button>
          <span className="flex-1 text-fg text-sm tnum">
            {t('conversation.forward.selected', { count: selected.length })}
          </span>
          <Button icon={<Forward className="size-4" />} onClick={openForward}>
            {t('conversation.forward.open')}
          </Button>
        </div>
      ) : (
        ticket &&
        !readOnly && (
          <MessageInput
            ticket={ticket}
            replyTo={replyTo}
            onCancelReply={() => setReplyTo(null)}
            editing={editing}
            onCancelEdit={() => setEditing(null)}
            onSent={(list) => {
              for (const m of list) upsertMessage(m)
            }}
            focusKey={focusKey || undefined}
          />
        )
      )}
      {ticket && (
        <ContactDrawer ticket={ticket} open={drawer} onClose={() => setDrawer(false)} readOnly={readOnly} />
      )}
      {forwarding && (
        <ForwardDialog
          open
          messageIds={selected}
          onClose={() => setForwarding(false)}
          onDone={stopSelecting}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
        title={t('conversation.deleteMessageTitle')}
        message={t('conversation.deleteMessageText')}
      />
    </div>
  )
}
