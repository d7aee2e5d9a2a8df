import { useTranslation } from 'react-i18next'
import type { AnnouncementDto } from '../../../../shared/announcements'
import { Dialog } from '../../ui/Dialog'
import { PriorityBadge } from './AnnouncementPriority'
import { fullDate } from './announcements'

/** One announcement in full: title, priority, date, the whole text with its line breaks, and the image. */
export function AnnouncementDetailDialog({
  announcement,
  onClose,
}: {
  announcement: AnnouncementDto | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  const a = announcement
  return (
    <Dialog open={!!a} onClose={onClose} title={a?.title ?? ''} size="md">
      {a && (
        <div className="flex flex-col gap-4" data-testid="announcement-detail">
          <div className="flex flex-wrap items-center gap-2 text-muted text-xs">
            <PriorityBadge priority={a.priority} />
            <time dateTime={a.createdAt} className="tnum">
              {fullDate(a.createdAt)}
            </time>
          </div>
          <p className="whitespace-pre-wrap break-words text-[15px] text-fg leading-relaxed">{a.text}</p>
          {a.mediaUrl && (
            <a
              href={a.mediaUrl}
              target="_blank"
              rel="noreferrer"
              className="block"
              title={a.mediaName ?? undefined}
            >
              <img
                src={a.mediaUrl}
                alt={a.mediaName ?? t('announcements.image')}
                className="max-h-[60dvh] w-full rounded-lg border border-border bg-surface-2 object-contain"
              />
            </a>
          )}
        </div>
      )}
    </Dialog>
  )
}
