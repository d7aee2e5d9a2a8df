import { Camera, FileText, MapPin, Mic, Phone, UserRound, Video } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { QuotedMessageDto } from '../../../../shared/api'
import { cn } from '../../../lib/cn'
import { type MessageKind, messageKind } from './MessageMedia'

const KIND_ICONS: Partial<Record<MessageKind, ReactNode>> = {
  image: <Camera className="size-3.5" aria-hidden />,
  sticker: <Camera className="size-3.5" aria-hidden />,
  audio: <Mic className="size-3.5" aria-hidden />,
  video: <Video className="size-3.5" aria-hidden />,
  document: <FileText className="size-3.5" aria-hidden />,
  location: <MapPin className="size-3.5" aria-hidden />,
  contact: <UserRound className="size-3.5" aria-hidden />,
  call: <Phone className="size-3.5" aria-hidden />,
}

/** The one-line summary of a message: its text, or its kind with an icon ('Foto', 'Áudio'...). */
export function MessageSummary({ m }: { m: Pick<QuotedMessageDto, 'body' | 'mediaType' | 'isDeleted'> }) {
  const { t } = useTranslation()
  if (m.isDeleted) return <span className="italic">{t('conversation.deleted')}</span>
  const kind = messageKind({ mediaType: m.mediaType, mediaUrl: null, mediaState: 'none' })
  const icon = KIND_ICONS[kind]
  const text = m.body.trim()
  if (!icon) return <>{text}</>
  return (
    <span className="inline-flex min-w-0 items-center gap-1">
      {icon}
      <span className="truncate">
        {kind === 'contact' || kind === 'location' || !text ? t(`conversation.kinds.${kind}`) : text}
      </span>
    </span>
  )
}

/**
 * A quoted message as a bar above the text (and above the input in reply mode): who wrote it, then its text.
 */
export function QuotedBar({
  quoted,
  customerName,
  onClick,
  className,
}: {
  quoted: QuotedMessageDto
  /** The ticket's contact, named when the quoted message has no other author. */
  customerName?: string
  onClick?: () => void
  className?: string
}) {
  const { t } = useTranslation()
  const author = quoted.fromMe
    ? t('conversation.you')
    : (quoted.participantName ?? quoted.contactName ?? customerName ?? '')
  const content = (
    <>
      <span
        className={cn(
          'block truncate font-semibold text-[13px]',
          quoted.fromMe ? 'text-[#1f8a70] dark:text-[#4fd1a5]' : 'text-[#6d4fc2] dark:text-[#b3a1f5]',
        )}
      >
        {author}
      </span>
      <span className="line-clamp-2 block text-[13px] text-muted">
        <MessageSummary m={quoted} />
      </span>
    </>
  )
  const cls = cn(
    'block w-full min-w-0 rounded-md border-l-4 bg-black/[0.05] py-1 pr-2 pl-2 text-left dark:bg-white/[0.07]',
    quoted.fromMe ? 'border-[#1f8a70] dark:border-[#4fd1a5]' : 'border-[#6d4fc2] dark:border-[#b3a1f5]',
    className,
  )
  return onClick ? (
    <button
      type="button"
      onClick={onClick}
      className={cn(cls, 'hover:bg-black/[0.08] dark:hover:bg-white/10')}
      data-testid="quoted"
    >
      {content}
    </button>
  ) : (
    <div className={cls} data-testid="quoted">
      {content}
    </div>
  )
}
