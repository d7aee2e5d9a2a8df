import { CloseButton } from '@headlessui/react'
import { useSignals } from '@preact/signals-react/runtime'
import { MessagesSquare } from 'lucide-react'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { unreadsOf } from '../../../../shared/chats'
import { planAllows } from '../../../../shared/plans'
import { liveList, useLiveList } from '../../../state/liveList'
import { currentUser } from '../../../state/session'
import { watchMenuBadge } from '../menuBadges'
import { UnreadEntry, UnreadPopover } from './UnreadPopover'
import { unreadChatsList } from './unreadChats'

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
    <UnreadPopover
      label={label}
      testId="chats-notifications-button"
      icon={MessagesSquare}
      count={count}
      loading={list.loading}
      skeletonRows={2}
      title={t('chats.popoverTitle')}
      headerExtra={
        <CloseButton as={Link} to="/chats" className="text-link text-xs hover:underline">
          {t('chats.openAll')}
        </CloseButton>
      }
      empty={{ title: t('chats.popoverEmptyTitle'), text: t('chats.popoverEmptyText') }}
    >
      {list.items.map((chat) => {
        const unreads = unreadsOf(chat, me)
        return (
          <UnreadEntry
            key={chat.id}
            to={`/chats/${chat.uuid}`}
            name={chat.title}
            updatedAt={chat.updatedAt}
            lastMessage={chat.lastMessage}
            unread={unreads}
            unreadTitle={t('chats.unread', { count: unreads })}
          />
        )
      })}
    </UnreadPopover>
  )
}

/** Only for companies whose plan has the internal chat. */
export function ChatsNotificationsPopover() {
  useSignals()
  const user = currentUser.value
  if (!user || !planAllows(user.company?.plan, 'useInternalChat')) return null
  return <ChatsPopover />
}
