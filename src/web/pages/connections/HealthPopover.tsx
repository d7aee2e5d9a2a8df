import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { Activity, TriangleAlert } from 'lucide-react'
import { type ReactNode, useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import type { ConnectionHealth, WhatsappDto } from '../../../shared/api'
import { api } from '../../api/client'
import { Badge } from '../../components/ui/Badge'
import { cn } from '../../lib/cn'
import { formatUpdatedAt, relativeTime } from './format'

/** "Envios restritos" (until when, if WhatsApp said), beside the status: seen without opening anything. */
export function RestrictedBadge({ health }: { health: ConnectionHealth | undefined }) {
  const { t } = useTranslation()
  const restricted = health?.restricted
  if (!restricted) return null
  return (
    <span title={t('connections.health.restrictedHint')} className="inline-flex">
      <Badge tone="danger">
        <TriangleAlert className="size-3" aria-hidden />
        <span data-testid="restricted-badge">
          {restricted.until
            ? t('connections.health.restrictedUntil', { time: formatUpdatedAt(restricted.until) })
            : t('connections.health.restricted')}
        </span>
      </Badge>
    </span>
  )
}

/**
 * The connection's health behind a small button of its status cell (admins only: others get no `health`):
 * last message received, last send acknowledged, last disconnect, restriction and versions. Opening it asks
 * the server again, so the times are current.
 */
export function HealthPopover({
  connection,
  onFresh,
  labelled = false,
}: {
  connection: WhatsappDto
  onFresh: (fresh: WhatsappDto) => void
  /** The button's words beside its icon (phones, where there is no hover title). */
  labelled?: boolean
}) {
  const { t } = useTranslation()
  if (!connection.health) return null
  return (
    <Popover className="relative inline-flex">
      <PopoverButton
        aria-label={t('connections.health.open')}
        title={t('connections.health.open')}
        data-testid="health-button"
        className={cn(
          'inline-flex items-center justify-center gap-1.5 rounded-lg text-muted transition-colors duration-150 hover:bg-surface-2 hover:text-fg',
          labelled ? '-mx-1.5 h-8 px-1.5 text-[13px]' : 'size-8',
          connection.health.restricted && 'text-on-danger-soft',
        )}
      >
        <Activity className="size-4" aria-hidden />
        {labelled && <span aria-hidden>{t('connections.health.open')}</span>}
      </PopoverButton>
      <PopoverPanel
        anchor="bottom start"
        transition
        className="z-50 w-[min(23rem,calc(100vw-1.5rem))] rounded-lg border border-border bg-surface p-3 shadow-pop [--anchor-gap:6px] transition duration-150 data-closed:opacity-0"
      >
        <HealthDetails connection={connection} onFresh={onFresh} />
      </PopoverPanel>
    </Popover>
  )
}

function HealthDetails({
  connection,
  onFresh,
}: {
  connection: WhatsappDto
  onFresh: (fresh: WhatsappDto) => void
}) {
  const { t, i18n } = useTranslation()
  const id = connection.id
  useEffect(() => {
    api
      .get<WhatsappDto>(`/whatsapp/${id}`)
      .then(onFresh)
      .catch(() => {})
  }, [id, onFresh])
  const h = connection.health!
  const when = (iso: string | null) =>
    iso ? (
      <time dateTime={iso} title={formatUpdatedAt(iso)}>
        {relativeTime(iso, i18n.language)}
      </time>
    ) : (
      <span className="text-subtle">{t('connections.health.never')}</span>
    )
  const disconnect = h.lastDisconnect ? (
    <>
      {t(`connections.health.reasons.${h.lastDisconnect.reason}`, { defaultValue: h.lastDisconnect.reason })}
      {h.lastDisconnect.code != null && <span className="text-muted tnum"> ({h.lastDisconnect.code})</span>}
      <span className="block text-muted">{when(h.lastDisconnect.at)}</span>
    </>
  ) : (
    <span className="text-subtle">{t('connections.health.never')}</span>
  )
  const sends = h.restricted ? (
    <span className="text-on-danger-soft">
      {h.restricted.until
        ? t('connections.health.restrictedUntilShort', { time: formatUpdatedAt(h.restricted.until) })
        : t('connections.health.restrictedSince', { time: formatUpdatedAt(h.restricted.since) })}
    </span>
  ) : (
    t('connections.health.sendsOk')
  )
  const version = (v: string | null) =>
    v ? (
      <span className="tnum">{v}</span>
    ) : (
      <span className="text-subtle">{t('connections.health.unknownVersion')}</span>
    )
  return (
    <div data-testid="health-details">
      <div className="mb-2 font-medium text-fg text-sm">{t('connections.health.title')}</div>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-2 text-[13px] leading-snug">
        <Row label={t('connections.health.lastReceived')}>{when(h.lastReceivedAt)}</Row>
        <Row label={t('connections.health.lastAcked')}>{when(h.lastAckedAt)}</Row>
        <Row label={t('connections.health.lastDisconnect')}>{disconnect}</Row>
        <Row label={t('connections.health.sends')}>{sends}</Row>
        <Row label="Baileys">{version(h.baileysVersion)}</Row>
        <Row label="WhatsApp Web">{version(h.waWebVersion)}</Row>
      </dl>
      {h.restricted && (
        <p className="mt-2.5 text-[12.5px] text-muted leading-snug">
          {t('connections.health.restrictedHint')}
          {h.restricted.detail && <span className="block text-subtle">{h.restricted.detail}</span>}
        </p>
      )}
    </div>
  )
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words text-fg">{children}</dd>
    </>
  )
}
