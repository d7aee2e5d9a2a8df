import { CloseButton, Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { useSignals } from '@preact/signals-react/runtime'
import { ImageIcon, Newspaper } from 'lucide-react'
import { type UIEvent, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AnnouncementDto } from '../../../../shared/announcements'
import { errorMessage } from '../../../api/errors'
import { cn } from '../../../lib/cn'
import { useLiveList } from '../../../state/liveList'
import { currentUser } from '../../../state/session'
import { Button } from '../../ui/Button'
import { Skeleton } from '../../ui/Skeleton'
import { Spinner } from '../../ui/Spinner'
import { AnnouncementDetailDialog } from './AnnouncementDetailDialog'
import { PRIORITY_BAR } from './AnnouncementPriority'
import {
  announcementsFeed,
  readSeen,
  shortDate,
  unseen,
  useAnnouncementEvents,
  writeSeen,
} from './announcements'

/** The spec's infinite scroll: the next page within 100 px of the bottom. */
const LOAD_MORE_WITHIN = 100

function Entry({
  announcement: a,
  isNew,
  onOpen,
}: {
  announcement: AnnouncementDto
  isNew: boolean
  onOpen: (a: AnnouncementDto) => void
}) {
  const { t } = useTranslation()
  return (
    <li>
      <CloseButton
        as="button"
        type="button"
        onClick={() => onOpen(a)}
        data-priority={a.priority}
        className={cn(
          'relative flex w-full flex-col gap-0.5 rounded-md py-2 pr-2.5 pl-4 text-left hover:bg-surface-2 focus-visible:-outline-offset-2',
          'before:absolute before:top-2.5 before:bottom-2.5 before:left-1.5 before:w-1 before:rounded-full',
          PRIORITY_BAR[a.priority],
        )}
      >
        <span className="flex items-baseline gap-2">
          <span className="min-w-0 flex-1 truncate font-medium text-fg text-sm">{a.title}</span>
          {isNew && (
            <span className="shrink-0 rounded bg-info-soft px-1.5 font-semibold text-[10px] text-on-info-soft uppercase leading-4">
              {t('announcements.new')}
            </span>
          )}
          <time dateTime={a.createdAt} className="shrink-0 text-muted text-xs tnum">
            {shortDate(a.createdAt)}
          </time>
        </span>
        <span className="flex items-start gap-1.5">
          {/* The first lines: the text's line breaks become spaces here (the detail keeps them). */}
          <span className="line-clamp-2 min-w-0 flex-1 break-words text-[13px] text-muted">
            {a.text.replace(/\s+/g, ' ').trim()}
          </span>
          {a.mediaUrl && (
            <ImageIcon
              className="mt-0.5 size-3.5 shrink-0 text-subtle"
              aria-label={t('announcements.hasImage')}
            />
          )}
        </span>
        <span className="sr-only">{t(`announcements.priority${a.priority}`)}</span>
      </CloseButton>
    </li>
  )
}

/**
 * The top bar's announcements button (every user): a popover with the active announcements, newest first, more
 * on scroll, live (`announcement` events); a click opens the whole announcement. A dot marks announcements newer
 * than the last time this user opened it (kept per user in localStorage).
 */
export function AnnouncementsPopover() {
  useSignals()
  const { t } = useTranslation()
  const userId = currentUser.value?.id ?? 0
  const list = useLiveList(announcementsFeed)
  useAnnouncementEvents(list)
  const [seen, setSeen] = useState(() => readSeen(userId))
  /** What was seen before the popover last opened: its entries newer than this are marked new. */
  const [seenBefore, setSeenBefore] = useState(seen)
  const [detail, setDetail] = useState<AnnouncementDto | null>(null)
  useEffect(() => {
    const stored = readSeen(userId)
    setSeen(stored)
    setSeenBefore(stored)
  }, [userId])

  const fresh = new Set(unseen(list.items, seen).map((a) => a.id))
  const marked = new Set(unseen(list.items, seenBefore).map((a) => a.id))
  const label = fresh.size > 0 ? t('announcements.bellNew', { count: fresh.size }) : t('announcements.bell')
  // The detail follows live changes of its announcement while open.
  const shown = detail ? (list.items.find((a) => a.id === detail.id) ?? detail) : null

  const markSeen = () => {
    const newest = list.items.reduce((n, a) => Math.max(n, Date.parse(a.createdAt) || 0), seen)
    if (newest > seen) {
      setSeen(newest)
      writeSeen(userId, newest)
    }
  }

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= LOAD_MORE_WITHIN) list.loadMore()
  }

  return (
    <>
      <Popover className="relative">
        {({ open }) => (
          <>
            <SeenWhileOpen
              open={open}
              onOpen={() => setSeenBefore(seen)}
              onSeen={markSeen}
              items={list.items}
            />
            <PopoverButton
              aria-label={label}
              title={label}
              data-testid="announcements-button"
              className="relative inline-flex size-9 items-center justify-center rounded-lg text-muted transition-colors duration-150 hover:bg-surface-2 hover:text-fg max-sm:size-11"
            >
              <Newspaper className="size-[18px]" aria-hidden />
              {fresh.size > 0 && (
                <span
                  aria-hidden
                  data-testid="announcements-unread"
                  className="absolute top-1.5 right-1.5 size-2.5 rounded-full bg-danger-solid ring-2 ring-surface max-sm:top-2.5 max-sm:right-2.5"
                />
              )}
            </PopoverButton>
            <PopoverPanel
              anchor="bottom end"
              transition
              className="z-50 flex max-h-[min(480px,80dvh)] w-[min(380px,calc(100vw-16px))] flex-col rounded-lg border border-border bg-surface shadow-pop [--anchor-gap:6px] transition duration-150 data-closed:opacity-0"
            >
              <div className="flex items-center justify-between gap-2 border-border border-b px-3.5 py-2.5">
                <span className="font-semibold text-fg text-sm">{t('announcements.bell')}</span>
              </div>
              <div
                className="min-h-0 flex-1 overflow-y-auto p-1"
                onScroll={onScroll}
                data-testid="announcements-scroller"
              >
                {list.loading && list.items.length === 0 ? (
                  <ul aria-hidden>
                    {[0, 1, 2].map((i) => (
                      <li key={i} className="space-y-1.5 px-4 py-2.5">
                        <Skeleton className="h-3.5 w-1/2" />
                        <Skeleton className="h-3 w-11/12" />
                        <Skeleton className="h-3 w-2/3" />
                      </li>
                    ))}
                  </ul>
                ) : list.error && list.items.length === 0 ? (
                  <div className="flex flex-col items-center gap-3 px-6 py-8 text-center">
                    <p className="text-danger text-sm" role="alert">
                      {errorMessage(list.error)}
                    </p>
                    <Button size="sm" variant="secondary" onClick={list.reload}>
                      {t('common.retry')}
                    </Button>
                  </div>
                ) : list.items.length === 0 ? (
                  <div className="flex flex-col items-center gap-2 px-6 py-8 text-center">
                    <Newspaper className="size-6 text-subtle" aria-hidden />
                    <p className="font-medium text-fg text-sm">{t('announcements.bellEmptyTitle')}</p>
                    <p className="text-muted text-xs">{t('announcements.bellEmptyText')}</p>
                  </div>
                ) : (
                  <>
                    <ul aria-label={t('announcements.bell')} className="flex flex-col gap-0.5">
                      {list.items.map((a) => (
                        <Entry key={a.id} announcement={a} isNew={marked.has(a.id)} onOpen={setDetail} />
                      ))}
                    </ul>
                    {list.loadingMore ? (
                      <div className="flex justify-center py-2 text-muted">
                        <Spinner />
                      </div>
                    ) : list.hasMore ? (
                      <div className="flex justify-center py-1.5">
                        <Button size="sm" variant="ghost" onClick={list.loadMore}>
                          {t('announcements.more')}
                        </Button>
                      </div>
                    ) : null}
                  </>
                )}
              </div>
            </PopoverPanel>
          </>
        )}
      </Popover>
      <AnnouncementDetailDialog announcement={shown} onClose={() => setDetail(null)} />
    </>
  )
}

/** Marks the announcements seen when the popover opens, and those arriving while it is open. */
function SeenWhileOpen({
  open,
  onOpen,
  onSeen,
  items,
}: {
  open: boolean
  onOpen: () => void
  onSeen: () => void
  items: unknown[]
}) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the popover opens
  useEffect(() => {
    if (open) onOpen()
  }, [open])
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on open and on new rows while open
  useEffect(() => {
    if (open) onSeen()
  }, [open, items])
  return null
}
