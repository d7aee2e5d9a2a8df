import { Film } from 'lucide-react'
import { useState } from 'react'
import { helpThumbnailUrl } from '../../../shared/helps'
import { cn } from '../../lib/cn'

/**
 * A help video's thumbnail from YouTube's image host, loaded lazily; when it cannot be loaded (offline, a video
 * that was removed) a neutral placeholder takes its place instead of a broken image.
 */
export function HelpThumbnail({
  video,
  className,
  placeholderIcon = true,
}: {
  video: string
  className?: string
  /** false: an empty placeholder (the card draws its play button over it). */
  placeholderIcon?: boolean
}) {
  const [failed, setFailed] = useState<string | null>(null)
  return (
    <span
      className={cn(
        'relative flex aspect-video shrink-0 items-center justify-center overflow-hidden bg-surface-2 text-subtle',
        className,
      )}
    >
      {failed === video ? (
        placeholderIcon && <Film aria-hidden className="size-1/3 max-h-8 max-w-8" strokeWidth={1.5} />
      ) : (
        <img
          src={helpThumbnailUrl(video)}
          alt=""
          loading="lazy"
          decoding="async"
          referrerPolicy="no-referrer"
          onError={() => setFailed(video)}
          className="size-full object-cover"
        />
      )}
    </span>
  )
}
