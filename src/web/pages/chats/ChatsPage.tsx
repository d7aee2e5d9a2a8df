import { useSignals } from '@preact/signals-react/runtime'
import { ArrowLeft, MessageCirclePlus, MessagesSquare, Pencil, Plus, Trash2, Users } from 'lucide-react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router-dom'
import { type ChatDto, type ChatMessageDto, unreadsOf } from '../../../shared/chats'
import { api } from '../../api/client'
import { SplitView } from '../../components/layout/SplitView'
import { Avatar } from '../../components/ui/Avatar'
import { Button, IconButton } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { EmptyState, LoadError } from '../../components/ui/EmptyState'
import { SearchInput } from '../../components/ui/Field'
import { Skeleton } from '../../components/ui/Skeleton'
import { useListSearch } from '../../components/useListScreen'
import { cn } from '../../lib/cn'
import { useIsPhone } from '../../lib/useMediaQuery'
import { useLiveList } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { ticketTime } from '../tickets/list/time'
import { ChatComposer } from './ChatComposer'
import { ChatDialog } from './ChatDialog'
import { ChatMessages } from './ChatMessages'
import { chatsList, useChatMessages } from './chatsState'

/** The conversation's colours (the same calm wallpaper and bubbles as the tickets' conversation). */
const PALETTE =
  '[--chat-bg:#eceff3] [--bubble-in:#ffffff] [--bubble-out:#dbe9ff] ' +
  'dark:[--chat-bg:#0d1013] dark:[--bubble-in:#22262b] dark:[--bubble-out:#1c3454]'

/** Infinite scroll of the chat list: the next page within 100 px of the bottom. */
const LIST_MORE_THRESHOLD = 100

function ChatTime({ iso }: { iso: string }) {
  const { t } = useTranslation()
  const time = ticketTime(iso)
  if (!time) return null
  return (
    <span className="shrink-0 text-muted text-xs tnum">
      {time.kind === 'yesterday' ? t('ticketList.yesterday') : time.text}
    </span>
  )
}

function ChatRow({
  chat,
  me,
  selected,
  onOpen,
}: {
  chat: ChatDto
  me: number
  selected: boolean
  onOpen: (chat: ChatDto) => void
}) {
  const { t } = useTranslation()
  const unreads = unreadsOf(chat, me)
  const others = chat.users.filter((u) => u.userId !== me).map((u) => u.user.name)
  return (
    <li>
      <button
        type="button"
        onClick={() => onOpen(chat)}
        aria-current={selected || undefined}
        data-testid="chat-row"
        className={cn(
          'flex w-full items-center gap-3 px-3 py-2.5 text-left transition-colors duration-150 max-sm:min-h-16',
          selected ? 'bg-selected' : 'hover:bg-surface-2',
        )}
      >
        <Avatar name={chat.title} size={40} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span
              className={cn(
                'min-w-0 flex-1 truncate text-fg text-sm',
                unreads > 0 ? 'font-semibold' : 'font-medium',
              )}
            >
              {chat.title}
            </span>
            <ChatTime iso={chat.updatedAt} />
          </span>
          <span className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate text-[13px] text-muted">
              {chat.lastMessage || t('chats.withUsers', { names: others.join(', ') })}
            </span>
            {unreads > 0 && (
              <span
                className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 font-semibold text-[11px] text-on-primary tnum"
                title={t('chats.unread', { count: unreads })}
                data-testid="chat-unreads"
              >
                {unreads > 99 ? '99+' : unreads}
              </span>
            )}
          </span>
        </span>
      </button>
    </li>
  )
}

function ListSkeleton() {
  return (
    <ul aria-hidden className="py-1">
      {[0, 1, 2, 3].map((i) => (
        <li key={i} className="flex items-center gap-3 px-3 py-2.5">
          <Skeleton className="size-10 shrink-0 rounded-full" />
          <span className="flex-1 space-y-1.5">
            <Skeleton className="h-3.5 w-1/2" />
            <Skeleton className="h-3 w-3/4" />
          </span>
        </li>
      ))}
    </ul>
  )
}

function ChatListPane({
  me,
  selectedUuid,
  onOpen,
  onNew,
}: {
  me: number
  selectedUuid: string | null
  onOpen: (chat: ChatDto) => void
  onNew: () => void
}) {
  const { t } = useTranslation()
  const { search, setSearch, term } = useListSearch()
  const list = useLiveList(chatsList, { search: term })
  const { loadMore } = list
  const onScroll = (e: React.UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget
    if (el.scrollHeight - el.scrollTop - el.clientHeight < LIST_MORE_THRESHOLD) loadMore()
  }
  let body: React.ReactNode
  if (list.loading && list.items.length === 0) body = <ListSkeleton />
  else if (list.error && list.items.length === 0)
    body = <LoadError error={t('chats.loadFailed')} onRetry={list.reload} />
  else if (list.items.length === 0)
    body = term ? (
      <EmptyState icon={<MessagesSquare />} title={t('chats.noMatchesTitle')}>
        {t('chats.noMatches', { term })}
      </EmptyState>
    ) : (
      <EmptyState
        icon={<MessagesSquare />}
        title={t('chats.emptyTitle')}
        action={
          <Button icon={<MessageCirclePlus className="size-4" />} onClick={onNew}>
            {t('chats.new')}
          </Button>
        }
      >
        {t('chats.emptyText')}
      </EmptyState>
    )
  else
    body = (
      <ul aria-label={t('chats.list')} className="divide-y divide-border/60">
        {list.items.map((chat) => (
          <ChatRow key={chat.id} chat={chat} me={me} selected={chat.uuid === selectedUuid} onOpen={onOpen} />
        ))}
      </ul>
    )
  return (
    <div className="flex min-h-0 flex-1 flex-col bg-surface">
      <div className="flex shrink-0 items-center gap-2 border-border border-b px-3 py-2.5">
        <SearchInput
          wrapperClassName="flex-1"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('chats.search')}
          aria-label={t('chats.search')}
          busy={list.refreshing && !!term}
        />
        <button
          type="button"
          onClick={onNew}
          aria-label={t('chats.new')}
          title={t('chats.new')}
          className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-primary text-on-primary shadow-sm transition-colors duration-150 hover:bg-primary-hover max-sm:size-11"
        >
          <Plus className="size-5" aria-hidden />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto" onScroll={onScroll} data-testid="chat-list">
        {body}
        {list.loadingMore && (
          <div className="flex justify-center py-3">
            <Skeleton className="h-3 w-24" />
          </div>
        )}
      </div>
    </div>
  )
}

function NoChat() {
  const { t } = useTranslation()
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 bg-bg p-8 text-center">
      <div className="flex size-16 items-center justify-center rounded-2xl border border-border bg-surface text-muted">
        <MessagesSquare className="size-8" aria-hidden />
      </div>
      <h2 className="font-semibold text-[17px] text-fg">{t('chats.selectTitle')}</h2>
      <p className="max-w-sm text-muted text-sm leading-relaxed">{t('chats.selectText')}</p>
    </div>
  )
}

/** The open chat: header (title, members; edit and delete for its owner), messages and the composer. */
function ChatPane({
  chat,
  me,
  phone,
  onBack,
  onEdit,
  onDelete,
}: {
  chat: ChatDto
  me: number
  phone: boolean
  onBack: () => void
  onEdit: () => void
  onDelete: () => void
}) {
  const { t } = useTranslation()
  const view = useChatMessages(chat.id)
  const { add } = view
  const unreads = unreadsOf(chat, me)
  const reading = useRef(false)

  // Opening a chat with unread messages (or one arriving while it is open and visible) marks it read.
  useEffect(() => {
    if (unreads <= 0 || reading.current) return
    if (typeof document !== 'undefined' && document.visibilityState === 'hidden') return
    reading.current = true
    api
      .post(`/chats/${chat.id}/read`, { userId: me })
      .catch(() => {})
      .finally(() => {
        reading.current = false
      })
  }, [chat.id, unreads, me])

  const send = useCallback(
    async (text: string) => {
      try {
        add(await api.post<ChatMessageDto>(`/chats/${chat.id}/messages`, { message: text }))
        return true
      } catch {
        toast.error(t('chats.sendFailed'))
        return false
      }
    },
    [chat.id, add, t],
  )

  const owner = chat.ownerId === me
  const names = chat.users.map((u) => (u.userId === me ? t('chats.you') : u.user.name)).join(', ')
  return (
    <div
      className={cn('relative flex h-full min-h-0 min-w-0 flex-1 flex-col bg-[var(--chat-bg)]', PALETTE)}
      data-testid="chat-pane"
    >
      <div className="flex h-16 shrink-0 items-center gap-3 border-border border-b bg-surface px-3 sm:px-4">
        {phone && (
          <IconButton label={t('chats.back')} icon={<ArrowLeft className="size-5" />} onClick={onBack} />
        )}
        <Avatar name={chat.title} size={40} />
        <div className="min-w-0 flex-1">
          <h2 className="truncate font-semibold text-[15px] text-fg">{chat.title}</h2>
          <p className="flex items-center gap-1.5 truncate text-muted text-xs" title={names}>
            <Users className="size-3.5 shrink-0" aria-hidden />
            <span className="truncate">{names}</span>
          </p>
        </div>
        {owner && (
          <div className="flex shrink-0 items-center gap-0.5">
            <IconButton label={t('chats.edit')} icon={<Pencil className="size-[18px]" />} onClick={onEdit} />
            <IconButton
              label={t('chats.delete')}
              variant="danger-ghost"
              icon={<Trash2 className="size-[18px]" />}
              onClick={onDelete}
            />
          </div>
        )}
      </div>
      <ChatMessages view={view} me={me} />
      <ChatComposer onSend={send} />
    </div>
  )
}

type PhoneTab = 'chats' | 'messages'

/**
 * The internal chat screen (spec 2), routes /chats and /chats/:id (the chat's uuid): the chat list beside the
 * open chat; below 600 px two tabs, Chats and Messages. Every member sees it live.
 */
export function ChatsPage() {
  useSignals()
  const { t } = useTranslation()
  const { id: uuid } = useParams()
  const navigate = useNavigate()
  const phone = useIsPhone()
  const me = currentUser.value?.id ?? 0
  const [tab, setTab] = useState<PhoneTab>(uuid ? 'messages' : 'chats')
  const [dialog, setDialog] = useState<{ chat: ChatDto | null } | null>(null)
  const [deleting, setDeleting] = useState<ChatDto | null>(null)
  // The open chat: from the (unfiltered) list when it is there, else fetched by its uuid; kept live by the list.
  const all = useLiveList(chatsList, { search: '' })
  const [fetched, setFetched] = useState<ChatDto | null>(null)
  const [missing, setMissing] = useState(false)
  const listed = uuid ? all.items.find((c) => c.uuid === uuid) : undefined
  const chat = listed ?? (fetched?.uuid === uuid ? fetched : null)

  useEffect(() => {
    if (uuid) setTab('messages')
  }, [uuid])

  useEffect(() => {
    setMissing(false)
    if (!uuid || listed) return
    const ctrl = new AbortController()
    api
      .get<ChatDto>(`/chats/u/${encodeURIComponent(uuid)}`, { signal: ctrl.signal })
      .then(setFetched)
      .catch((err) => {
        if ((err as Error)?.name !== 'AbortError') setMissing(true)
      })
    return () => ctrl.abort()
  }, [uuid, listed])

  // The open chat was deleted, or I was taken out of it: back to the list.
  const seen = useRef<string | null>(null)
  useEffect(() => {
    if (listed) seen.current = listed.uuid
    else if (uuid && seen.current === uuid && !all.loading && !all.refreshing) {
      seen.current = null
      setFetched(null)
      navigate('/chats', { replace: true })
    }
  }, [listed, all.loading, all.refreshing, uuid, navigate])

  const open = useCallback(
    (c: ChatDto) => {
      setTab('messages')
      navigate(`/chats/${c.uuid}`)
    },
    [navigate],
  )

  const remove = async () => {
    if (!deleting) return
    try {
      await api.delete(`/chats/${deleting.id}`)
      all.remove(deleting.id)
      toast.success(t('chats.deleted'))
      navigate('/chats', { replace: true })
    } catch (err) {
      toast.error(t('chats.deleteFailed'))
      throw err
    }
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="chats-page">
      <h1 className="sr-only">{t('chats.title')}</h1>
      <SplitView
        phone={phone}
        label={t('chats.title')}
        tabs={[
          { key: 'chats', label: t('chats.tabChats') },
          { key: 'messages', label: t('chats.tabMessages') },
        ]}
        tab={tab}
        onTab={setTab}
        listTab="chats"
        className="sm:grid-cols-[minmax(280px,4fr)_8fr] lg:grid-cols-[minmax(340px,4fr)_8fr]"
        list={
          <ChatListPane
            me={me}
            selectedUuid={uuid ?? null}
            onOpen={open}
            onNew={() => setDialog({ chat: null })}
          />
        }
        detail={
          chat ? (
            <ChatPane
              key={chat.id}
              chat={chat}
              me={me}
              phone={phone}
              onBack={() => setTab('chats')}
              onEdit={() => setDialog({ chat })}
              onDelete={() => setDeleting(chat)}
            />
          ) : uuid && !missing ? (
            <div className="flex flex-1 items-center justify-center bg-bg" aria-busy>
              <Skeleton className="h-4 w-40" />
            </div>
          ) : (
            <NoChat />
          )
        }
      />
      {dialog && (
        <ChatDialog
          open
          chat={dialog.chat}
          me={me}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            all.upsert(saved)
            if (!dialog.chat) open(saved)
          }}
        />
      )}
      <ConfirmDialog open={!!deleting} onClose={() => setDeleting(null)} onConfirm={remove} />
    </div>
  )
}
