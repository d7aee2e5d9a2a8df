import { useSignals } from '@preact/signals-react/runtime'
import { Bell, BellOff, BellRing } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { useLiveList } from '../../../state/liveList'
import { unreadTicketsList } from '../../../state/notifications'
import { desktopPermission, requestDesktopPermission } from './desktop'
import { UnreadEntry, UnreadPopover } from './UnreadPopover'

/** The top bar's bell: the unread tickets (spec: notification popover for unread tickets). */
export function NotificationsPopover() {
  useSignals()
  const { t } = useTranslation()
  const list = useLiveList(unreadTicketsList)
  const count = list.items.length
  const permission = desktopPermission.value
  const label = count > 0 ? t('notifications.titleCount', { count }) : t('notifications.title')
  return (
    <UnreadPopover
      label={label}
      testId="notifications-button"
      icon={Bell}
      count={count}
      loading={list.loading}
      skeletonRows={3}
      title={t('notifications.title')}
      headerExtra={
        count > 0 && (
          <span className="text-muted text-xs tnum">{t('notifications.unreadCount', { count })}</span>
        )
      }
      empty={{ title: t('notifications.emptyTitle'), text: t('notifications.emptyText') }}
      footer={
        <>
          {permission === 'default' && (
            <button
              type="button"
              onClick={() => void requestDesktopPermission()}
              className="flex items-center gap-2 border-border border-t px-3.5 py-2.5 text-left text-link text-xs hover:bg-surface-2"
            >
              <BellRing className="size-3.5 shrink-0" aria-hidden />
              {t('notifications.enableDesktop')}
            </button>
          )}
          {permission === 'denied' && (
            <p className="flex items-center gap-2 border-border border-t px-3.5 py-2.5 text-muted text-xs">
              <BellOff className="size-3.5 shrink-0" aria-hidden />
              {t('notifications.desktopDenied')}
            </p>
          )}
        </>
      }
    >
      {list.items.map((ticket) => {
        const name = ticket.contact?.name || ticket.contact?.number || t('ticketList.unknownContact')
        return (
          <UnreadEntry
            key={ticket.id}
            to={`/tickets/${ticket.uuid}`}
            name={name}
            avatar={ticket.contact?.profilePicUrl || null}
            updatedAt={ticket.updatedAt}
            lastMessage={ticket.lastMessage}
            unread={ticket.unreadMessages}
            unreadTitle={t('ticketList.unread', { count: ticket.unreadMessages })}
          />
        )
      })}
    </UnreadPopover>
  )
}
