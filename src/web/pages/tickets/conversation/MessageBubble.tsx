import { Menu as HMenu, MenuItem } from '@headlessui/react'
import { Ban, ChevronDown, Forward, Lock, Pencil, Reply, RotateCw, Trash2 } from 'lucide-react'
import { memo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MessageDto, MessageReactionDto } from '../../../../shared/api'
import { MenuButton, MenuDivider, MenuEntry, MenuPanel } from '../../../components/ui/Menu'
import { Spinner } from '../../../components/ui/Spinner'
import { cn } from '../../../lib/cn'
import { AckIcon } from './AckIcon'
import { messageTime } from './format'
import { captionOf, type MessageKind, MessageMedia, messageKind } from './MessageMedia'
import { QuotedBar } from './QuotedBar'
import { RichText } from './RichText'
import { canEdit } from './rules'
import { Transcription } from './Transcription'

/** Reactions offered from a message's menu (WhatsApp's quick row). */
export const QUICK_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🙏']

export type MessageActions = {
  onReply: (m: MessageDto) => void
  onEdit: (m: MessageDto) => void
  onDelete: (m: MessageDto) => void
  onForward: (m: MessageDto) => void
  onReact: (m: MessageDto, emoji: string) => void
  onRetrySend: (m: MessageDto) => Promise<void>
  onRetryMedia: (m: MessageDto) => Promise<void>
  onQuoteClick: (quotedId: number) => void
  onToggleSelect: (m: MessageDto) => void
}

export type MessageBubbleProps = {
  m: MessageDto
  actions: MessageActions
  /** In a group: the author's name above inbound messages. */
  isGroup?: boolean
  customerName?: string
  readOnly?: boolean
  /** Forward selection mode: a checkbox per message instead of the menu. */
  selecting?: boolean
  selected?: boolean
  highlighted?: boolean
  /** Actions that send are offered only on an open ticket. */
  canSend?: boolean
}

/** Reactions grouped by emoji, with who reacted (the pill's tooltip). */
export function groupReactions(
  reactions: MessageReactionDto[],
): { emoji: string; count: number; who: string[] }[] {
  const groups = new Map<string, { emoji: string; count: number; who: string[] }>()
  for (const r of reactions) {
    if (!r.emoji) continue
    const g = groups.get(r.emoji) ?? { emoji: r.emoji, count: 0, who: [] }
    g.count++
    if (r.senderName) g.who.push(r.senderName)
    groups.set(r.emoji, g)
  }
  return [...groups.values()]
}

function Meta({ m, hidden }: { m: MessageDto; hidden?: boolean }) {
  const { t } = useTranslation()
  const history = m.oldMessages?.length
    ? m.oldMessages.map((o) => `${messageTime(o.createdAt)} ${o.body}`).join('\n')
    : undefined
  return (
    <span
      aria-hidden={hidden || undefined}
      className={cn(
        'inline-flex items-center gap-1 whitespace-nowrap text-[11px] text-muted leading-none tnum',
        hidden ? 'invisible' : 'absolute right-2 bottom-1.5',
      )}
    >
      {m.isEdited && !m.isDeleted && (
        <span
          className="italic"
          title={hidden ? undefined : history}
          data-testid={hidden ? undefined : 'edited'}
        >
          {t('conversation.edited')}
        </span>
      )}
      <time dateTime={m.createdAt}>{messageTime(m.createdAt)}</time>
      {m.fromMe && !m.isPrivate && <AckIcon ack={m.ack} failed={m.sendState === 'failed'} />}
    </span>
  )
}

function Reactions({ m }: { m: MessageDto }) {
  const groups = groupReactions(m.reactions ?? [])
  if (groups.length === 0) return null
  const total = groups.reduce((n, g) => n + g.count, 0)
  const who = groups.map((g) => `${g.emoji} ${g.who.join(', ')}`.trim()).join('\n')
  return (
    <div
      className={cn('-mt-2 relative z-[1] mb-1 flex px-2', m.fromMe ? 'justify-end' : 'justify-start')}
      data-testid="reactions"
    >
      <span
        title={who}
        className="inline-flex items-center gap-0.5 rounded-full border border-border bg-surface px-1.5 py-0.5 text-[13px] shadow-sm"
      >
        {groups.map((g) => (
          <span key={g.emoji}>{g.emoji}</span>
        ))}
        {total > 1 && <span className="ml-0.5 text-[11px] text-muted tnum">{total}</span>}
      </span>
    </div>
  )
}

/** Why a send failed, in words: a leading ERR_ code is translated when a translation exists. */
export function sendErrorText(
  error: string | null,
  t: (key: string) => string,
  exists: (key: string) => boolean,
): string {
  if (!error) return ''
  const m = /^(ERR_[A-Z0-9_]+)\b/.exec(error.trim())
  if (m && exists(`errors.${m[1]}`)) return t(`errors.${m[1]}`)
  return error
}

function FailedSend({
  m,
  onRetry,
  readOnly,
}: {
  m: MessageDto
  onRetry: () => Promise<void>
  readOnly?: boolean
}) {
  const { t, i18n } = useTranslation()
  const reason = sendErrorText(m.sendError, t, (key) => i18n.exists(key))
  const [busy, setBusy] = useState(false)
  const retry = async () => {
    setBusy(true)
    try {
      await onRetry()
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-[12.5px] text-danger" role="alert">
      <span>
        {t('conversation.sendFailed')}
        {reason ? `: ${reason}` : ''}
      </span>
      {!readOnly && (
        <button
          type="button"
          onClick={retry}
          disabled={busy}
          className="inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 font-medium hover:bg-danger-soft disabled:opacity-60 max-sm:min-h-11"
        >
          {busy ? <Spinner className="size-3.5" /> : <RotateCw className="size-3.5" aria-hidden />}
          {t('conversation.retrySend')}
        </button>
      )}
    </div>
  )
}

function BubbleMenu({
  m,
  actions,
  canSend,
  fromMe,
}: {
  m: MessageDto
  actions: MessageActions
  canSend: boolean
  fromMe: boolean
}) {
  const { t } = useTranslation()
  return (
    // On a phone there is no hover: the button sits beside the bubble (in the free side of the row), so it
    // never covers the text or the time.
    <HMenu
      as="div"
      className={cn(
        'absolute top-1 right-1 z-[2]',
        m.fromMe ? 'max-sm:right-auto max-sm:-left-7' : 'max-sm:-right-7',
      )}
    >
      <MenuButton
        aria-label={t('conversation.messageMenu')}
        title={t('conversation.messageMenu')}
        className={cn(
          'flex size-6 items-center justify-center rounded-full text-muted opacity-0 transition-opacity duration-150',
          'focus-visible:opacity-100 group-hover:opacity-100 data-open:opacity-100 max-sm:opacity-70',
          fromMe ? 'bg-[var(--bubble-out)]' : 'bg-[var(--bubble-in)]',
        )}
      >
        <ChevronDown className="size-4" aria-hidden />
      </MenuButton>
      <MenuPanel anchor={fromMe ? 'bottom end' : 'bottom start'} className="min-w-48">
        {canSend && !m.isDeleted && (
          <div className="flex justify-between gap-0.5 px-1 pb-1">
            {QUICK_REACTIONS.map((emoji) => (
              <MenuReaction key={emoji} emoji={emoji} onPick={() => actions.onReact(m, emoji)} />
            ))}
          </div>
        )}
        {canSend && !m.isDeleted && <MenuDivider />}
        {canSend && !m.isDeleted && (
          <MenuEntry icon={<Reply />} onClick={() => actions.onReply(m)}>
            {t('conversation.reply')}
          </MenuEntry>
        )}
        {canSend && canEdit(m) && (
          <MenuEntry icon={<Pencil />} onClick={() => actions.onEdit(m)}>
            {t('common.edit')}
          </MenuEntry>
        )}
        {!m.isDeleted && !m.isPrivate && (
          <MenuEntry icon={<Forward />} onClick={() => actions.onForward(m)}>
            {t('conversation.forwardAction')}
          </MenuEntry>
        )}
        {m.fromMe && !m.isDeleted && (
          <MenuEntry icon={<Trash2 />} danger onClick={() => actions.onDelete(m)}>
            {t('common.delete')}
          </MenuEntry>
        )}
      </MenuPanel>
    </HMenu>
  )
}

function MenuReaction({ emoji, onPick }: { emoji: string; onPick: () => void }) {
  const { t } = useTranslation()
  return (
    <MenuItem>
      <button
        type="button"
        onClick={onPick}
        className="flex size-8 items-center justify-center rounded-full text-lg hover:bg-surface-2 data-focus:bg-surface-2"
        aria-label={`${t('conversation.react')}: ${emoji}`}
        title={`${t('conversation.react')}: ${emoji}`}
      >
        {emoji}
      </button>
    </MenuItem>
  )
}

function Body({ m, kind }: { m: MessageDto; kind: MessageKind }) {
  const text = kind === 'text' ? m.body : FILE_CAPTION_KINDS.has(kind) ? captionOf(m) : ''
  if (!text) return null
  return (
    <RichText
      text={text}
      className={cn('whitespace-pre-wrap break-words', m.isDeleted && 'text-muted line-through decoration-1')}
    />
  )
}

const FILE_CAPTION_KINDS: ReadonlySet<MessageKind> = new Set(['image', 'video', 'document', 'audio'])

/** One message: a bubble on the customer's side (left) or ours (right), with its extras. */
export const MessageBubble = memo(function MessageBubble({
  m,
  actions,
  isGroup,
  customerName,
  readOnly,
  selecting,
  selected,
  highlighted,
  canSend = false,
}: MessageBubbleProps) {
  const { t } = useTranslation()
  const kind = messageKind(m)
  const failed = m.fromMe && m.sendState === 'failed'
  const hasText = kind === 'text' || (FILE_CAPTION_KINDS.has(kind) && !!captionOf(m))
  const media = kind !== 'text' && (
    <MessageMedia m={m} kind={kind} onRetryMedia={() => actions.onRetryMedia(m)} readOnly={readOnly} />
  )
  const bubble = (
    <div
      className={cn(
        'group relative max-w-full px-2.5 pt-1.5 pb-1.5 text-[15px] text-fg leading-snug shadow-[0_1px_0.5px_rgb(0_0_0/0.10)]',
        // 16 px corners, the one next to the sender smaller (WhatsApp's tail, drawn calmly).
        m.fromMe ? 'rounded-[16px_6px_16px_16px]' : 'rounded-[6px_16px_16px_16px]',
        m.isPrivate
          ? 'border border-[var(--note-border)] bg-[var(--note)]'
          : m.fromMe
            ? 'bg-[var(--bubble-out)]'
            : 'bg-[var(--bubble-in)]',
        m.isDeleted && 'opacity-75',
        failed && 'ring-1 ring-danger/40',
        highlighted && 'ring-2 ring-focus',
      )}
      data-testid="bubble"
      data-kind={kind}
      data-private={m.isPrivate || undefined}
      data-highlighted={highlighted || undefined}
      data-deleted={m.isDeleted || undefined}
    >
      {!readOnly && !selecting && (
        <BubbleMenu m={m} actions={actions} canSend={canSend} fromMe={m.fromMe && !m.isPrivate} />
      )}
      {m.isPrivate && (
        <div className="mb-0.5 flex items-center gap-1 font-semibold text-[12px] text-[var(--note-fg)]">
          <Lock className="size-3" aria-hidden />
          {t('conversation.privateNote')}
        </div>
      )}
      {isGroup && !m.fromMe && m.participantName && (
        <div className="mb-0.5 truncate font-semibold text-[13px] text-[#6d4fc2] dark:text-[#b3a1f5]">
          {m.participantName}
        </div>
      )}
      {m.isDeleted && (
        <div className="mb-0.5 flex items-center gap-1 text-[12px] text-muted italic">
          <Ban className="size-3" aria-hidden />
          {t('conversation.deleted')}
        </div>
      )}
      {m.quotedMsg && (
        <QuotedBar
          quoted={m.quotedMsg}
          customerName={customerName}
          onClick={() => m.quotedMsg && actions.onQuoteClick(m.quotedMsg.id)}
          className="mb-1"
        />
      )}
      {media && <div className={cn(hasText ? 'mb-1' : 'mb-4', kind === 'sticker' && 'mb-4')}>{media}</div>}
      {kind === 'audio' && !m.fromMe && !m.isDeleted && <Transcription m={m} readOnly={readOnly} />}
      {hasText ? (
        <div className="pr-1">
          <Body m={m} kind={kind} />
          {/* Room for the time at the end of the last line, as WhatsApp does. */}
          <span className="ml-2">
            <Meta m={m} hidden />
          </span>
        </div>
      ) : null}
      <Meta m={m} />
      {failed && <FailedSend m={m} onRetry={() => actions.onRetrySend(m)} readOnly={readOnly} />}
    </div>
  )
  return (
    <div
      className={cn('flex gap-2 px-3 sm:px-[6%]', m.fromMe ? 'justify-end' : 'justify-start')}
      data-message-id={m.id}
    >
      {selecting && !m.isPrivate && !m.isDeleted && (
        <input
          type="checkbox"
          checked={!!selected}
          onChange={() => actions.onToggleSelect(m)}
          aria-label={t('conversation.selectMessage')}
          className={cn(
            'mt-2 size-5 shrink-0 cursor-pointer self-start accent-[var(--color-primary)] max-sm:size-6',
            m.fromMe && 'mr-auto',
          )}
        />
      )}
      <div
        className={cn(
          'flex min-w-0 max-w-[85%] flex-col sm:max-w-[70%]',
          m.fromMe ? 'items-end' : 'items-start',
        )}
      >
        {bubble}
        <Reactions m={m} />
      </div>
    </div>
  )
})
