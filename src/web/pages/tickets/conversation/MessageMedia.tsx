import {
  AlertTriangle,
  Download,
  FileText,
  ImageOff,
  MapPin,
  Mic,
  Music,
  Phone,
  PhoneMissed,
  RotateCw,
  UserRound,
} from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MessageDto } from '../../../../shared/api'
import { Avatar } from '../../../components/ui/Avatar'
import { Spinner } from '../../../components/ui/Spinner'
import { cn } from '../../../lib/cn'
import { fileSize, mapUrl, parseLocation, parseVcards } from './format'

export type MessageKind =
  | 'text'
  | 'image'
  | 'sticker'
  | 'audio'
  | 'video'
  | 'document'
  | 'location'
  | 'contact'
  | 'call'
  | 'reaction'

/** What a message shows, from its mediaType (the spec's list, plus WhatsApp's text names). */
export function messageKind(m: Pick<MessageDto, 'mediaType' | 'mediaUrl' | 'mediaState'>): MessageKind {
  switch (m.mediaType) {
    case 'image':
      return 'image'
    case 'sticker':
      return 'sticker'
    case 'audio':
      return 'audio'
    case 'video':
      return 'video'
    case 'application':
    case 'document':
      return 'document'
    case 'locationMessage':
    case 'liveLocationMessage':
    case 'location':
      return 'location'
    case 'contactMessage':
    case 'contactsArrayMessage':
    case 'vcard':
      return 'contact'
    case 'call_log':
      return 'call'
    case 'reactionMessage':
      return 'reaction'
    case 'chat':
    case 'conversation':
    case 'extendedTextMessage':
    case '':
      return 'text'
    default:
      return m.mediaUrl || m.mediaState !== 'none' ? 'document' : 'text'
  }
}

/** Kinds whose file is fetched from WhatsApp (and may be pending or failed). */
export const FILE_KINDS: ReadonlySet<MessageKind> = new Set([
  'image',
  'sticker',
  'audio',
  'video',
  'document',
])

/** Whether the body is a caption worth showing under the media (not just the file's name again). */
export function captionOf(m: MessageDto): string {
  const body = m.body.trim()
  if (!body || body === m.mediaName || body === m.mediaName?.replace(/\.[^.]+$/, '')) return ''
  return body
}

function MediaPending() {
  const { t } = useTranslation()
  return (
    <div className="flex min-w-56 items-center gap-2 rounded-lg bg-black/5 px-3 py-3 text-muted text-sm dark:bg-white/5">
      <Spinner />
      {t('conversation.media.pending')}
    </div>
  )
}

function MediaFailed({ onRetry, readOnly }: { onRetry: () => Promise<void>; readOnly?: boolean }) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const retry = async () => {
    setBusy(true)
    try {
      await onRetry()
    } finally {
      setBusy(false)
    }
  }
  return (
    <div
      className="flex min-w-56 flex-col gap-2 rounded-lg bg-danger-soft px-3 py-2.5 text-on-danger-soft text-sm"
      data-testid="media-failed"
    >
      <div className="flex items-start gap-2">
        <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
        <span>{t('errors.ERR_WAPP_DOWNLOAD_MEDIA')}</span>
      </div>
      {!readOnly && (
        <button
          type="button"
          onClick={retry}
          disabled={busy}
          className="inline-flex items-center gap-1.5 self-start rounded-md px-2 py-1 font-medium text-[13px] hover:bg-black/5 disabled:opacity-60 max-sm:min-h-11 dark:hover:bg-white/10"
        >
          {busy ? <Spinner className="size-3.5" /> : <RotateCw className="size-3.5" aria-hidden />}
          {t('conversation.media.retry')}
        </button>
      )}
    </div>
  )
}

function Unavailable({ name }: { name?: string | null }) {
  const { t } = useTranslation()
  return (
    <div className="flex min-w-48 items-center gap-2 rounded-lg bg-black/5 px-3 py-2.5 text-muted text-sm dark:bg-white/5">
      <ImageOff className="size-4 shrink-0" aria-hidden />
      <span className="truncate">{name || t('conversation.media.unavailable')}</span>
    </div>
  )
}

function ImageMedia({ m, sticker }: { m: MessageDto; sticker?: boolean }) {
  const { t } = useTranslation()
  const [broken, setBroken] = useState(false)
  if (!m.mediaUrl || broken) return <Unavailable name={m.mediaName} />
  return (
    <a
      href={m.mediaUrl}
      target="_blank"
      rel="noopener noreferrer"
      className="block overflow-hidden rounded-lg"
      title={t('conversation.media.open')}
    >
      <img
        src={m.mediaUrl}
        alt={m.mediaName ?? t('conversation.kinds.image')}
        loading="lazy"
        onError={() => setBroken(true)}
        className={cn(
          'block',
          sticker ? 'size-32 object-contain' : 'max-h-80 min-h-24 w-full max-w-xs bg-black/5 object-cover',
        )}
      />
    </a>
  )
}

function AudioMedia({ m }: { m: MessageDto }) {
  const { t } = useTranslation()
  if (!m.mediaUrl) return <Unavailable name={m.mediaName} />
  const voice = m.ptt
  return (
    <div className="flex min-w-0 items-center gap-2.5" data-voice={voice || undefined}>
      <span
        className={cn(
          'flex size-10 shrink-0 items-center justify-center rounded-full',
          voice ? 'bg-[#25a35a] text-white' : 'bg-black/10 text-muted dark:bg-white/10',
        )}
        title={voice ? t('conversation.kinds.voice') : t('conversation.kinds.audio')}
      >
        {voice ? <Mic className="size-5" aria-hidden /> : <Music className="size-5" aria-hidden />}
      </span>
      <div className="min-w-0 flex-1">
        {!voice && m.mediaName && <div className="mb-0.5 truncate text-[13px] text-muted">{m.mediaName}</div>}
        {/* biome-ignore lint/a11y/useMediaCaption: customers' voice notes come without captions */}
        <audio
          controls
          preload="metadata"
          src={m.mediaUrl}
          aria-label={voice ? t('conversation.kinds.voice') : (m.mediaName ?? t('conversation.kinds.audio'))}
          className="h-10 w-60 max-w-full [color-scheme:light] dark:[color-scheme:dark]"
        />
      </div>
    </div>
  )
}

function VideoMedia({ m }: { m: MessageDto }) {
  const { t } = useTranslation()
  if (!m.mediaUrl) return <Unavailable name={m.mediaName} />
  return (
    // biome-ignore lint/a11y/useMediaCaption: customers' videos come without captions
    <video
      controls
      preload="metadata"
      src={m.mediaUrl}
      aria-label={m.mediaName ?? t('conversation.kinds.video')}
      className="block max-h-80 w-full max-w-xs rounded-lg bg-black"
    />
  )
}

function DocumentMedia({ m }: { m: MessageDto }) {
  const { t, i18n } = useTranslation()
  const name = m.mediaName || t('conversation.kinds.document')
  const ext = /\.([a-z0-9]{1,5})$/i.exec(name)?.[1]?.toUpperCase()
  const meta = [ext, fileSize(m.mediaSize, i18n.language)].filter(Boolean).join(' · ')
  const body = (
    <>
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-black/5 text-muted dark:bg-white/10">
        <FileText className="size-5" aria-hidden />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium text-fg text-sm">{name}</span>
        {meta && <span className="block text-muted text-xs tnum">{meta}</span>}
      </span>
      {m.mediaUrl && <Download className="size-4 shrink-0 text-muted" aria-hidden />}
    </>
  )
  const cls =
    'flex w-64 max-w-full items-center gap-3 rounded-lg bg-black/[0.04] px-2.5 py-2 dark:bg-white/[0.06]'
  return m.mediaUrl ? (
    <a
      href={m.mediaUrl}
      download={name}
      target="_blank"
      rel="noopener noreferrer"
      className={cn(cls, 'hover:bg-black/[0.07] dark:hover:bg-white/10')}
      title={t('conversation.media.download', { name })}
    >
      {body}
    </a>
  ) : (
    <div className={cls}>{body}</div>
  )
}

function LocationMedia({ m }: { m: MessageDto }) {
  const { t } = useTranslation()
  const loc = parseLocation(m.body)
  if (!loc) {
    return (
      <div className="flex items-center gap-2 text-sm">
        <MapPin className="size-4 shrink-0 text-muted" aria-hidden />
        <span>{m.body || t('conversation.kinds.location')}</span>
      </div>
    )
  }
  return (
    <a
      href={mapUrl(loc)}
      target="_blank"
      rel="noopener noreferrer"
      className="flex w-64 max-w-full items-start gap-3 rounded-lg bg-black/[0.04] px-2.5 py-2 hover:bg-black/[0.07] dark:bg-white/[0.06] dark:hover:bg-white/10"
    >
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-[#e5484d]/15 text-[#d23b40]">
        <MapPin className="size-5" aria-hidden />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block truncate font-medium text-fg text-sm">
          {loc.name ?? t('conversation.kinds.location')}
        </span>
        {loc.address && <span className="block truncate text-muted text-xs">{loc.address}</span>}
        <span className="block text-link text-xs">{t('conversation.media.openMap')}</span>
      </span>
    </a>
  )
}

function ContactMedia({ m }: { m: MessageDto }) {
  const { t } = useTranslation()
  const people = parseVcards(m.body)
  if (people.length === 0)
    return <span className="text-muted text-sm">{t('conversation.kinds.contact')}</span>
  return (
    <div className="flex w-64 max-w-full flex-col gap-1.5">
      {people.map((p, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: cards in a message have no ids
          key={i}
          className="flex items-center gap-3 rounded-lg bg-black/[0.04] px-2.5 py-2 dark:bg-white/[0.06]"
        >
          {p.name ? (
            <Avatar name={p.name} size={36} />
          ) : (
            <span className="flex size-9 items-center justify-center rounded-full bg-black/10">
              <UserRound className="size-5 text-muted" aria-hidden />
            </span>
          )}
          <div className="min-w-0 flex-1">
            <div className="truncate font-medium text-fg text-sm">
              {p.name || t('conversation.kinds.contact')}
            </div>
            {p.numbers.map((n) => (
              <a
                key={n}
                href={`tel:${n.replace(/[^\d+]/g, '')}`}
                className="block truncate text-link text-xs tnum"
              >
                {n}
              </a>
            ))}
          </div>
        </div>
      ))}
    </div>
  )
}

function CallMedia({ m }: { m: MessageDto }) {
  const { t } = useTranslation()
  const missed = !m.fromMe
  const Icon = missed ? PhoneMissed : Phone
  return (
    <div className="flex items-center gap-2.5 text-sm">
      <span
        className={cn(
          'flex size-9 shrink-0 items-center justify-center rounded-full',
          missed ? 'bg-danger-soft text-danger' : 'bg-black/5 text-muted dark:bg-white/10',
        )}
      >
        <Icon className="size-4" aria-hidden />
      </span>
      <span>{m.body.trim() || t(missed ? 'conversation.kinds.callMissed' : 'conversation.kinds.call')}</span>
    </div>
  )
}

/** The media part of a message, by kind; text is drawn by the bubble. */
export function MessageMedia({
  m,
  kind,
  onRetryMedia,
  readOnly,
}: {
  m: MessageDto
  kind: MessageKind
  onRetryMedia: () => Promise<void>
  readOnly?: boolean
}) {
  if (FILE_KINDS.has(kind)) {
    if (m.mediaState === 'pending') return <MediaPending />
    if (m.mediaState === 'failed') return <MediaFailed onRetry={onRetryMedia} readOnly={readOnly} />
  }
  switch (kind) {
    case 'image':
      return <ImageMedia m={m} />
    case 'sticker':
      return <ImageMedia m={m} sticker />
    case 'audio':
      return <AudioMedia m={m} />
    case 'video':
      return <VideoMedia m={m} />
    case 'document':
      return <DocumentMedia m={m} />
    case 'location':
      return <LocationMedia m={m} />
    case 'contact':
      return <ContactMedia m={m} />
    case 'call':
      return <CallMedia m={m} />
    default:
      return null
  }
}
