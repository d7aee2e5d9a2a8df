import { QrCode, RefreshCw, RotateCw, Unplug } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { ConnectionStatus, ConnectionStatusReason, WhatsappDto } from '../../../shared/api'
import { Badge, type BadgeTone } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { cn } from '../../lib/cn'
import { spacedCode } from './format'

/** Green for connected, amber while waiting, red when it needs someone. */
export const STATUS_TONE: Record<ConnectionStatus, BadgeTone> = {
  CONNECTED: 'success',
  qrcode: 'warning',
  PAIRING: 'warning',
  OPENING: 'warning',
  DISCONNECTED: 'danger',
  TIMEOUT: 'danger',
  importing: 'success',
}

const DOT: Record<BadgeTone, string> = {
  success: 'bg-success',
  warning: 'bg-warning',
  danger: 'bg-danger',
  neutral: 'bg-subtle',
  brand: 'bg-link',
}

/** Reasons a retry cannot fix: the phone must link the device again (a new QR code). */
const NEEDS_NEW_QR: ReadonlySet<ConnectionStatusReason> = new Set(['logged_out', 'banned', 'incompatible'])

export function StatusPill({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation()
  const tone = STATUS_TONE[status] ?? 'neutral'
  return (
    <Badge tone={tone} className="rounded-full px-2.5">
      {status === 'OPENING' ? (
        <Spinner className="size-3" />
      ) : (
        <span aria-hidden className={cn('size-1.5 rounded-full', DOT[tone])} />
      )}
      <span data-testid="status-pill">{t(`connections.states.${status}`, { defaultValue: status })}</span>
    </Badge>
  )
}

/**
 * Why a connection is not connected, in words ('Sem acesso à internet · 3 tentativas'); nothing when all is well.
 * While it retries (OPENING) the count of attempts follows the reason.
 */
export function StatusReason({ connection: c, className }: { connection: WhatsappDto; className?: string }) {
  const { t } = useTranslation()
  if (!c.statusReason || c.status === 'CONNECTED') return null
  const retrying = c.status === 'OPENING' && c.retries > 0
  return (
    <p
      data-testid="status-reason"
      className={cn(
        'text-[12.5px] leading-snug',
        c.status === 'OPENING' ? 'text-muted' : 'text-on-danger-soft',
        className,
      )}
    >
      {t(`connections.reasons.${c.statusReason}`, { defaultValue: c.statusReason })}
      {retrying && <span className="tnum"> · {t('connections.retries', { count: c.retries })}</span>}
    </p>
  )
}

export type SessionHandlers = {
  onShowQr: (c: WhatsappDto) => void
  onRetry: (c: WhatsappDto) => void
  onNewQr: (c: WhatsappDto) => void
  onDisconnect: (c: WhatsappDto) => void
}

/**
 * The buttons each session state offers (spec section 4). A connection that cannot connect offers a retry
 * (unless only a new link helps) and a new QR code; `busy` shows a spinner on the running one.
 */
export function SessionActions({
  connection: c,
  busy,
  className,
  ...on
}: SessionHandlers & { connection: WhatsappDto; busy?: string | null; className?: string }) {
  const { t } = useTranslation()
  const name = c.name
  const btn = (key: string, label: string, icon: ReactNode, onClick: () => void, primary = false) => (
    <Button
      key={key}
      size="sm"
      variant={primary ? 'primary' : 'secondary'}
      icon={icon}
      loading={busy === key}
      disabled={!!busy && busy !== key}
      onClick={onClick}
      aria-label={`${label}: ${name}`}
    >
      {label}
    </Button>
  )
  const qr = () =>
    btn('qr', t('connections.buttons.qrcode'), <QrCode className="size-4" />, () => on.onShowQr(c), true)
  const retry = () =>
    c.statusReason && NEEDS_NEW_QR.has(c.statusReason)
      ? null
      : btn('retry', t('connections.buttons.retry'), <RotateCw className="size-4" />, () => on.onRetry(c))
  const newQr = (primary = false) =>
    btn(
      'newQr',
      t('connections.buttons.newQr'),
      <RefreshCw className="size-4" />,
      () => on.onNewQr(c),
      primary,
    )
  const disconnect = () =>
    btn('disconnect', t('connections.buttons.disconnect'), <Unplug className="size-4" />, () =>
      on.onDisconnect(c),
    )
  const needsQr = !!c.statusReason && NEEDS_NEW_QR.has(c.statusReason)

  let content: ReactNode
  switch (c.status) {
    case 'qrcode':
      content = qr()
      break
    case 'CONNECTED':
    case 'importing':
      content = disconnect()
      break
    case 'DISCONNECTED':
      content = (
        <>
          {retry()}
          {newQr(needsQr)}
        </>
      )
      break
    case 'TIMEOUT':
      content = (
        <>
          {retry()}
          {newQr(needsQr)}
          {disconnect()}
        </>
      )
      break
    case 'PAIRING':
      content = (
        <>
          {c.pairingCode && (
            <span
              className="inline-flex h-8 items-center rounded-lg border border-border-strong border-dashed px-2.5 font-mono font-semibold text-fg text-sm tracking-[0.18em] max-sm:h-11"
              title={t('connections.qr.pairingCode')}
              data-testid="pairing-code"
            >
              {spacedCode(c.pairingCode)}
            </span>
          )}
          {btn('qr', t('connections.buttons.showCode'), <QrCode className="size-4" />, () => on.onShowQr(c))}
        </>
      )
      break
    case 'OPENING':
      // Connecting is a status (the pill spins), not a button. When it keeps failing (a reason), people can act;
      // the server gives up after a while and the connection turns DISCONNECTED or TIMEOUT.
      content = c.statusReason ? (
        <>
          {retry()}
          {newQr(needsQr)}
        </>
      ) : null
      break
    default:
      content = null
  }
  if (!content) return null
  return <div className={cn('flex flex-wrap items-center gap-2', className)}>{content}</div>
}
