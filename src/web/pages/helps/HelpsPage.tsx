import { LifeBuoy, Play } from 'lucide-react'
import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { type HelpDto, helpEmbedUrl } from '../../../shared/helps'
import { errorMessage } from '../../api/errors'
import { Card, Page } from '../../components/layout/Page'
import { Dialog } from '../../components/ui/Dialog'
import { EmptyState, LoadError } from '../../components/ui/EmptyState'
import { Skeleton } from '../../components/ui/Skeleton'
import { useLiveList } from '../../state/liveList'
import { HelpThumbnail } from './HelpThumbnail'
import { allHelpsList } from './helpsList'

const GRID = 'grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3'

function HelpCard({ help, onOpen }: { help: HelpDto; onOpen: () => void }) {
  const { t } = useTranslation()
  return (
    <li className="min-w-0">
      <button
        type="button"
        onClick={onOpen}
        aria-label={t('helps.watch', { title: help.title })}
        className="group flex h-full w-full flex-col overflow-hidden rounded-card border border-border bg-surface text-left transition-shadow duration-150 hover:shadow-pop focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-focus/40 motion-reduce:transition-none"
      >
        <span className="relative block w-full">
          {/* YouTube's thumbnail: requested only while this page is shown, and lazily below the fold. */}
          <HelpThumbnail video={help.video} className="w-full" placeholderIcon={false} />
          <span
            aria-hidden
            className="absolute inset-0 flex items-center justify-center bg-black/0 transition-colors duration-150 group-hover:bg-black/20"
          >
            <span className="flex size-12 items-center justify-center rounded-full bg-black/60 text-white shadow-pop">
              <Play className="ml-0.5 size-5 fill-current" />
            </span>
          </span>
        </span>
        <span className="flex min-w-0 flex-1 flex-col gap-1 p-4">
          <span className="line-clamp-2 font-semibold text-[15px] text-fg leading-snug">{help.title}</span>
          {help.description && (
            <span className="line-clamp-3 whitespace-pre-line text-muted text-sm">{help.description}</span>
          )}
        </span>
      </button>
    </li>
  )
}

function GridSkeleton() {
  return (
    <ul className={GRID} aria-busy aria-label={useTranslation().t('common.loading')}>
      {Array.from({ length: 6 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <li key={i} className="overflow-hidden rounded-card border border-border bg-surface">
          <Skeleton className="aspect-video h-auto w-full rounded-none" />
          <div className="space-y-2 p-4">
            <Skeleton className="w-3/4" />
            <Skeleton className="h-3 w-full" />
          </div>
        </li>
      ))}
    </ul>
  )
}

/**
 * The help screen (spec 3): a grid of video cards (thumbnail, title, description). A card opens the video in a
 * modal (YouTube's privacy-enhanced player); Escape or the close button closes it and removes the player, so
 * nothing of YouTube's runs before a card is opened or after it is closed.
 */
export function HelpsPage() {
  const { t } = useTranslation()
  const list = useLiveList(allHelpsList)
  const [playing, setPlaying] = useState<HelpDto | null>(null)
  // The title stays while the dialog fades out; the player itself goes at once.
  const shown = useRef<HelpDto | null>(null)
  if (playing) shown.current = playing

  let body: React.ReactNode
  if (list.loading) body = <GridSkeleton />
  else if (list.error && list.items.length === 0)
    body = (
      <Card>
        <LoadError error={errorMessage(list.error)} onRetry={list.reload} />
      </Card>
    )
  else if (list.items.length === 0)
    body = (
      <Card>
        <EmptyState icon={<LifeBuoy />} title={t('helps.emptyTitle')}>
          {t('helps.emptyText')}
        </EmptyState>
      </Card>
    )
  else
    body = (
      <ul className={GRID} aria-label={t('helps.title')}>
        {list.items.map((help) => (
          <HelpCard key={help.id} help={help} onOpen={() => setPlaying(help)} />
        ))}
      </ul>
    )

  return (
    <Page title={t('helps.title')} subtitle={t('helps.subtitle')}>
      {body}
      <Dialog open={!!playing} onClose={() => setPlaying(null)} title={shown.current?.title ?? ''} size="lg">
        {playing && (
          <div className="space-y-3">
            <div className="aspect-video w-full overflow-hidden rounded-lg bg-black">
              <iframe
                src={helpEmbedUrl(playing.video)}
                title={t('helps.player', { title: playing.title })}
                className="size-full border-0"
                allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
                allowFullScreen
                referrerPolicy="strict-origin-when-cross-origin"
              />
            </div>
            {playing.description && (
              <p className="whitespace-pre-line text-muted text-sm">{playing.description}</p>
            )}
          </div>
        )}
      </Dialog>
    </Page>
  )
}
