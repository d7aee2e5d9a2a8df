import { CloseButton, Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { useSignals } from '@preact/signals-react/runtime'
import { MessagesSquare } from 'lucide-react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { type ChatDto, unreadsOf } from '../../../../shared/chats'
import { planAllows } from '../../../../shared/plans'
import { liveList, useLiveList } from '../../../state/liveList'
import { currentUser } from '../../../state/session'
import { Avatar } from '../../ui/Avatar'
import { Skeleton } from '../../ui/Skeleton'
import { watchMenuBadge } from '../menuBadges'
import { unreadChatsList } from './unreadChats'

const pad = (n: number) => String(n).padStart(2, '0')

/** HH:mm today, else dd/MM. */
function shortTime(iso: string, now = new Date()): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const today =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate()
  return today
    ? `${pad(d.getHours())}:${pad(d.getMinutes())}`
    : `${pad(d.getDate())}/${pad(d.getMonth() + 1)}`
}

function Entry({ chat, me }: { chat: ChatDto; me: number }) {
  const { t } = useTranslation()
  const unreads = unreadsOf(chat, me)
  return (
    <li>
      <CloseButton
        as={Link}
        to={`/chats/${chat.uuid}`}
        className="flex items-center gap-3 rounded-md px-2.5 py-2 hover:bg-surface-2 focus-visible:-outline-offset-2 max-sm:min-h-14"
      >
        <Avatar name={chat.title} size={36} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline gap-2">
            <span className="min-w-0 flex-1 truncate font-medium text-fg text-sm">{chat.title}</span>
            <span className="shrink-0 text-muted text-xs tnum">{shortTime(chat.updatedAt)}</span>
          </span>
          <span className="flex items-center gap-2">
            <span className="min-w-0 flex-1 truncate text-[13px] text-muted">{chat.lastMessage}</span>
            <span
              className="inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-primary px-1.5 font-semibold text-[11px] text-on-primary tnum"
              title={t('chats.unread', { count: unreads })}
            >
              {unreads > 99 ? '99+' : unreads}
            </span>
          </span>
        </span>
      </CloseButton>
    </li>
  )
}

/**
 * The menu's dot for unread chats: shown at once while any chat of mine has unread messages (spec 1: a dot on
 * the chat menu entry). The popover below holds the list; this only follows it.
 */
function useChatsMenuBadge(companyId: number | undefined) {
  useEffect(() => {
    if (!companyId) return
    const list = liveList(unreadChatsList, companyId, undefined)
    return watchMenuBadge('chats', () => list.state.value.items.length > 0, 0)
  }, [companyId])
}

/** The top bar's unread internal chats (spec 1: a notification popover for unread internal chats). */
function ChatsPopover() {
  useSignals()
  const { t } = useTranslation()
  const user = currentUser.value
  const list = useLiveList(unreadChatsList)
  useChatsMenuBadge(user?.companyId)
  const me = user?.id ?? 0
  const count = list.items.length
  const label = count > 0 ? t('chats.popoverTitleCount', { count }) : t('chats.popoverTitle')
  return (
    <Popover className="relative">
      <PopoverButton
        aria-label={label}
        title={label}
        data-testid="chats-notifications-button"
        className="relative inline-flex size-9 items-center justify-center rounded-lg text-muted transition-colors duration-150 hover:bg-surface-2 hover:text-fg max-sm:size-11"
      >
        <MessagesSquare className="size-[18px]" aria-hidden />
        {count > 0 && (
          <span
            aria-hidden
            className="absolute top-1 right-0.5 inline-flex h-4 min-w-4 items-center justify-center rounded-full bg-danger-solid px-1 font-bold text-[10px] text-white leading-none ring-2 ring-surface tnum max-sm:top-2 max-sm:right-1.5"
          >
            {count > 99 ? '99+' : count}
          </span>
        )}
      </PopoverButton>
      <PopoverPanel
        anchor="bottom end"
        transition
        className="z-50 flex max-h-[min(480px,80dvh)] w-[min(360px,calc(100vw-16px))] flex-col rounded-lg border border-border bg-surface shadow-pop [--anchor-gap:6px] transition duration-150 data-closed:opacity-0"
      >
        <div className="flex items-center justify-between gap-2 border-border border-b px-3.5 py-2.5">
          <span className="font-semibold text-fg text-sm">{t('chats.popoverTitle')}</span>
          <CloseButton as={Link} to="/chats" className="text-link text-xs hover:underline">
            {t('chats.openAll')}
          </CloseButton>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto p-1">
          {list.loading && count === 0 ? (
            <ul aria-hidden>
              {[0, 1].map((i) => (
                <li key={i} className="flex items-center gap-3 px-2.5 py-2">
                  <Skeleton className="size-9 shrink-0 rounded-full" />
                  <span className="flex-1 space-y-1.5">
                    <Skeleton className="h-3.5 w-1/2" />
                    <Skeleton className="h-3 w-3/4" />
                  </span>
                </li>
              ))}
            </ul>
          ) : count === 0 ? (
            <div className="flex flex-col items-center gap-2 px-6 py-8 text-center">
              <MessagesSquare className="size-6 text-subtle" aria-hidden />
              <p className="font-medium text-fg text-sm">{t('chats.popoverEmptyTitle')}</p>
              <p className="text-muted text-xs">{t('chats.popoverEmptyText')}</p>
            </div>
          ) : (
            <ul aria-label={t('chats.popoverTitle')}>
              {list.items.map((chat) => (
                <Entry key={chat.id} chat={chat} me={me} />
              ))}
            </ul>
          )}
        </div>
      </PopoverPanel>
    </Popover>
  )
}

/** Only for companies whose plan has the internal chat. */
export function ChatsNotificationsPopover() {
  useSignals()
  const user = currentUser.value
  if (!user || !planAllows(user.company?.plan, 'useInternalChat')) return null
  return <ChatsPopover />
}
