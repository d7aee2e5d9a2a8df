import { useEffect } from 'react'
import { useNavigate } from 'react-router-dom'
import type { MessageDto } from '../../../../shared/api'
import { liveChannel, subscribe } from '../../../api/live'
import i18n from '../../../i18n'
import { retainLiveList } from '../../../state/liveList'
import {
  currentFocus,
  messageNotifies,
  notificationViewerOf,
  unreadTicketsList,
} from '../../../state/notifications'
import { currentUser } from '../../../state/session'
import { volume } from '../../../state/volume'
import { showDesktopNotification } from './desktop'
import { playNotificationSound, unlockAudioOnGesture } from './sound'

/** What a desktop notification says about a message without text (a photo, a voice note...). */
export function messagePreview(message: Pick<MessageDto, 'body' | 'mediaType' | 'isDeleted'>): string {
  if (message.body?.trim()) return message.body.trim()
  const key = `notifications.media.${message.mediaType}`
  return i18n.exists(key) ? i18n.t(key) : i18n.t('notifications.media.other')
}

/**
 * While signed in: keeps the bell's list of unread tickets live, and for each new customer message that the
 * spec's conditions select, shows a desktop notification (a click opens the ticket) and plays the chime at the
 * top bar's volume.
 */
export function useUnreadAlerts(companyId: number | undefined, userId: number | undefined) {
  const navigate = useNavigate()
  useEffect(() => {
    if (!companyId || !userId) return
    const release = retainLiveList(unreadTicketsList, companyId)
    const stopUnlock = unlockAudioOnGesture()
    const off = subscribe(liveChannel(companyId, 'appMessage'), (data) => {
      const viewer = notificationViewerOf(currentUser.peek())
      if (!data || !messageNotifies(data, viewer, currentFocus())) return
      const { ticket, message } = data
      showDesktopNotification({
        title: ticket.contact?.name || ticket.contact?.number || i18n.t('notifications.newMessage'),
        body: messagePreview(message),
        icon: ticket.contact?.profilePicUrl || undefined,
        tag: `ticket-${ticket.id}`,
        onClick: () => navigate(`/tickets/${ticket.uuid}`),
      })
      playNotificationSound(volume.peek())
    })
    return () => {
      off()
      stopUnlock()
      release()
    }
  }, [companyId, userId, navigate])
}
