import { Users } from 'lucide-react'
import { useState } from 'react'
import { Avatar } from '../../components/ui/Avatar'
import { cn } from '../../lib/cn'

/** A contact's picture (cached by the server from WhatsApp), or their initials when there is none. */
export function ContactAvatar({
  name,
  url,
  size = 40,
  isGroup,
  className,
}: {
  name: string
  url?: string | null
  size?: number
  isGroup?: boolean
  className?: string
}) {
  const [broken, setBroken] = useState<string | null>(null)
  if (url && broken !== url)
    return (
      <img
        src={url}
        alt=""
        aria-hidden
        loading="lazy"
        onError={() => setBroken(url)}
        className={cn('shrink-0 rounded-full bg-surface-3 object-cover', className)}
        style={{ width: size, height: size }}
      />
    )
  if (isGroup)
    return (
      <span
        aria-hidden
        className={cn(
          'flex shrink-0 items-center justify-center rounded-full bg-surface-3 text-muted',
          className,
        )}
        style={{ width: size, height: size }}
      >
        <Users style={{ width: size * 0.5, height: size * 0.5 }} />
      </span>
    )
  return <Avatar name={name || '?'} size={size} className={className} />
}
