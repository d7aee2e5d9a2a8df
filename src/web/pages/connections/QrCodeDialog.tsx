import { ArrowLeft, CheckCircle2, Clock, RefreshCw, Smartphone } from 'lucide-react'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WhatsappDto } from '../../../shared/api'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Field, Input } from '../../components/ui/Field'
import { QrCode } from '../../components/ui/QrCode'
import { Spinner } from '../../components/ui/Spinner'
import { cn } from '../../lib/cn'
import { connectionsList } from '../../state/connections'
import { useLiveList } from '../../state/liveList'
import { dismissToast, toast } from '../../state/toast'
import { digitsOnly, formatCountdown, spacedCode } from './format'

/** Milliseconds left until `expiresAt`, ticking every second while there is a deadline. */
export function useRemaining(expiresAt: number | null | undefined): number | null {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (expiresAt == null) return
    setNow(Date.now())
    const id = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(id)
  }, [expiresAt])
  return expiresAt == null ? null : Math.max(0, expiresAt - now)
}

/**
 * 'Novo QR CODE' with the spec's toasts: info while asking, success when the server answers.
 * `onRow` receives the connection as the server answers it.
 */
export async function requestNewQr(
  id: number,
  t: (k: string) => string,
  onRow: (row: WhatsappDto) => void,
): Promise<boolean> {
  const waiting = toast.info(t('connections.toasts.loadingQr'))
  try {
    const row = await api.put<WhatsappDto>(`/whatsappsession/${id}`)
    if (row?.id) onRow(row)
    toast.success(t('connections.toasts.qrGenerated'))
    return true
  } catch (err) {
    toastError(err)
    return false
  } finally {
    // The success (or the error) replaces the 'please wait': fewer toasts over the QR code on phones.
    dismissToast(waiting)
  }
}

function Countdown({ remaining }: { remaining: number }) {
  const { t } = useTranslation()
  const expired = remaining <= 0
  return (
    <p
      data-testid="qr-countdown"
      className={cn(
        'inline-flex items-center gap-1.5 text-sm tnum',
        expired ? 'font-medium text-danger' : 'text-muted',
      )}
      aria-live="off"
    >
      <Clock className="size-4" aria-hidden />
      {expired ? (
        t('connections.qr.expired')
      ) : (
        <>
          {t('connections.qr.expiresIn')}{' '}
          <span className="font-medium text-fg">{formatCountdown(remaining)}</span>
        </>
      )}
    </p>
  )
}

/**
 * The QR code dialog: the code (or the pairing code), the steps on the phone, a countdown and 'Novo QR CODE'.
 * It follows the session live and closes with 'WhatsApp conectado com sucesso!' once it connects.
 */
export function QrCodeDialog({
  open,
  connectionId,
  onClose,
}: {
  open: boolean
  connectionId: number
  onClose: () => void
}) {
  const { t } = useTranslation()
  // The shared connections list keeps the row live while the dialog is open.
  const list = useLiveList(connectionsList, undefined, { enabled: open })
  const { upsert } = list
  const row = list.items.find((c) => c.id === connectionId) ?? null
  const [mode, setMode] = useState<'qr' | 'phone'>('qr')
  const [phone, setPhone] = useState('')
  const [phoneError, setPhoneError] = useState<string | null>(null)
  const [asking, setAsking] = useState(false)
  const [renewing, setRenewing] = useState(false)
  const remaining = useRemaining(row?.status === 'CONNECTED' ? null : row?.expirationTime)

  // The current state of this connection now (the list may be older than the dialog).
  useEffect(() => {
    if (!open) return
    const ctrl = new AbortController()
    api
      .get<WhatsappDto>(`/whatsapp/${connectionId}`, { signal: ctrl.signal })
      .then(upsert)
      .catch((err) => {
        if ((err as Error)?.name !== 'AbortError') toastError(err)
      })
    return () => ctrl.abort()
  }, [open, connectionId, upsert])

  // Closes with the success toast when the session becomes CONNECTED (its QR code is gone).
  const waited = useRef(false)
  const status = row?.status
  useEffect(() => {
    if (!open || !status) return
    if (status !== 'CONNECTED') {
      waited.current = true
      return
    }
    if (waited.current) {
      waited.current = false
      toast.success(t('connections.toasts.connected'))
      onClose()
    }
  }, [open, status, onClose, t])

  const askCode = async (e?: FormEvent) => {
    e?.preventDefault()
    const digits = digitsOnly(phone)
    if (digits.length < 8 || digits.length > 15) {
      setPhoneError(t('connections.qr.phoneInvalid'))
      return
    }
    setPhoneError(null)
    setAsking(true)
    try {
      const updated = await api.post<WhatsappDto>(`/whatsappsession/${connectionId}`, { phone: digits })
      if (updated?.id) upsert(updated)
    } catch (err) {
      toastError(err)
    } finally {
      setAsking(false)
    }
  }

  const renew = async () => {
    setRenewing(true)
    await requestNewQr(connectionId, t, upsert)
    setRenewing(false)
  }

  const pairing = row?.status === 'PAIRING' && !!row.pairingCode
  const qrcode = row?.status === 'qrcode' ? row.qrcode : ''

  let visual: React.ReactNode
  if (row?.status === 'CONNECTED') {
    visual = (
      <div className="flex flex-col items-center gap-2 text-success">
        <CheckCircle2 className="size-12" aria-hidden />
        <span className="font-medium">{t('connections.qr.connected')}</span>
      </div>
    )
  } else if (pairing) {
    visual = (
      <div className="flex flex-col items-center gap-3 px-2 text-center">
        <span className="font-medium text-muted text-xs uppercase tracking-wide">
          {t('connections.qr.pairingCode')}
        </span>
        <span
          data-testid="qr-pairing-code"
          className="rounded-lg border border-border-strong bg-surface-2 px-4 py-3 font-mono font-semibold text-[28px] text-fg tracking-[0.2em] tnum"
        >
          {spacedCode(row.pairingCode)}
        </span>
      </div>
    )
  } else if (qrcode && mode === 'qr') {
    visual = (
      <QrCode
        value={qrcode}
        margin={3}
        label={t('connections.qr.label', { name: row?.name ?? '' })}
        className="size-[264px] max-w-full shadow-sm ring-1 ring-black/10 max-sm:size-[min(78vw,300px)]"
      />
    )
  } else if (mode === 'qr') {
    visual = (
      <div className="flex flex-col items-center gap-3 text-muted text-sm">
        <Spinner className="size-6" />
        {t('connections.qr.waiting')}
      </div>
    )
  }

  const steps = pairing ? (
    <div className="space-y-2 text-sm">
      <p className="font-medium text-fg">{t('connections.qr.pairingTitle')}</p>
      <p className="text-muted">{t('connections.qr.pairingSteps')}</p>
    </div>
  ) : (
    <ol className="space-y-3 text-sm">
      {(['step1', 'step2', 'step3'] as const).map((k, i) => (
        <li key={k} className="flex gap-3">
          <span className="flex size-6 shrink-0 items-center justify-center rounded-full bg-surface-2 font-semibold text-fg text-xs tnum">
            {i + 1}
          </span>
          <span className="pt-0.5 text-fg">{t(`connections.qr.${k}`)}</span>
        </li>
      ))}
    </ol>
  )

  const phoneForm = (
    <form onSubmit={askCode} noValidate className="flex flex-col gap-3">
      <Field label={t('connections.qr.phone')} error={phoneError} hint={t('connections.qr.phoneHint')}>
        <Input
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          inputMode="tel"
          autoComplete="tel"
          placeholder="5511999990001"
          className="tnum"
        />
      </Field>
      <Button type="submit" loading={asking} className="self-start">
        {t('connections.qr.getCode')}
      </Button>
    </form>
  )

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('connections.qr.title')}
      description={
        row ? (
          <span className="inline-flex items-center gap-2">
            {row.name}
            {row.provider === 'sandbox' && <Badge tone="brand">{t('connections.sandbox')}</Badge>}
          </span>
        ) : undefined
      }
      size="lg"
      footer={
        <>
          {!pairing && row?.status !== 'CONNECTED' && (
            <Button
              variant="secondary"
              icon={<RefreshCw className="size-4" />}
              onClick={renew}
              loading={renewing}
            >
              {t('connections.buttons.newQr')}
            </Button>
          )}
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
        </>
      }
    >
      <div className="grid gap-6 sm:grid-cols-[1fr_auto] sm:items-start">
        <div className="order-2 flex min-w-0 flex-col gap-5 sm:order-1">
          {mode === 'phone' && !pairing ? phoneForm : steps}
          {row?.provider === 'sandbox' && row.status !== 'CONNECTED' && (
            <p className="rounded-lg bg-info-soft px-3 py-2 text-on-info-soft text-sm">
              {t('connections.qr.sandboxHint')}
            </p>
          )}
          {row?.status !== 'CONNECTED' && (
            <button
              type="button"
              onClick={() => setMode(mode === 'qr' ? 'phone' : 'qr')}
              className="inline-flex min-h-11 items-center gap-2 self-start rounded-lg font-medium text-link text-sm hover:underline sm:min-h-9"
            >
              {mode === 'qr' ? (
                <Smartphone className="size-4" aria-hidden />
              ) : (
                <ArrowLeft className="size-4" aria-hidden />
              )}
              {mode === 'qr' ? t('connections.qr.usePhone') : t('connections.qr.useQr')}
            </button>
          )}
        </div>
        {visual && (
          <div className="order-1 flex flex-col items-center gap-3 sm:order-2">
            <div className="flex min-h-[264px] min-w-[264px] items-center justify-center max-sm:min-h-0 max-sm:min-w-0">
              {visual}
            </div>
            {remaining != null && (qrcode || pairing) && <Countdown remaining={remaining} />}
          </div>
        )}
      </div>
    </Dialog>
  )
}
