import { QrCode, RefreshCw, RotateCw, Unplug } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { ConnectionStatus, WhatsappDto } from '../../../shared/api'
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
}

const DOT: Record<BadgeTone, string> = {
  success: 'bg-success',
  warning: 'bg-warning',
  danger: 'bg-danger',
  neutral: 'bg-subtle',
  brand: 'bg-link',
}

export function StatusPill({ status }: { status: ConnectionStatus }) {
  const { t } = useTranslation()
  const tone = STATUS_TONE[status] ?? 'neutral'
  return (
    <Badge tone={tone} className="rounded-full px-2.5">
      <span aria-hidden className={cn('size-1.5 rounded-full', DOT[tone])} />
      <span data-testid="status-pill">{t(`connections.states.${status}`, { defaultValue: status })}</span>
    </Badge>
  )
}

export type SessionHandlers = {
  onShowQr: (c: WhatsappDto) => void
  onRetry: (c: WhatsappDto) => void
  onNewQr: (c: WhatsappDto) => void
  onDisconnect: (c: WhatsappDto) => void
}

/** The buttons each session state offers (spec section 4). `busy` shows a spinner on the running one. */
export function SessionActions({
  connection: c,
  busy,
  className,
  ...on
}: SessionHandlers & { connection: WhatsappDto; busy?: string | null; className?: string }) {
  const { t } = useTranslation()
  const name = c.name
  const btn = (key: string, label: string, icon: React.ReactNode, onClick: () => void, primary = false) => (
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
    btn('retry', t('connections.buttons.retry'), <RotateCw className="size-4" />, () => on.onRetry(c))
  const newQr = () =>
    btn('newQr', t('connections.buttons.newQr'), <RefreshCw className="size-4" />, () => on.onNewQr(c))
  const disconnect = () =>
    btn('disconnect', t('connections.buttons.disconnect'), <Unplug className="size-4" />, () =>
      on.onDisconnect(c),
    )

  let content: React.ReactNode
  switch (c.status) {
    case 'qrcode':
      content = qr()
      break
    case 'DISCONNECTED':
      content = (
        <>
          {retry()}
          {newQr()}
        </>
      )
      break
    case 'CONNECTED':
      content = disconnect()
      break
    case 'TIMEOUT':
      content = (
        <>
          {disconnect()}
          {newQr()}
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
      content = (
        <Button
          size="sm"
          variant="secondary"
          disabled
          icon={<Spinner />}
          aria-label={`${t('connections.buttons.connecting')}: ${name}`}
        >
          {t('connections.buttons.connecting')}
        </Button>
      )
      break
    default:
      content = null
  }
  return <div className={cn('flex flex-wrap items-center gap-2', className)}>{content}</div>
}
