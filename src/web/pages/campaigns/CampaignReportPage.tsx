import { useSignals } from '@preact/signals-react/runtime'
import {
  ArrowLeft,
  CalendarClock,
  CheckCheck,
  CircleAlert,
  CircleCheck,
  CircleX,
  Flag,
  ListChecks,
  MessageCircleQuestion,
  PauseCircle,
  Smartphone,
  Users,
} from 'lucide-react'
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router-dom'
import type { CampaignDto } from '../../../shared/api'
import { formatInZone } from '../../../shared/timezone'
import { api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { liveChannel, onReconnect, subscribe } from '../../api/live'
import { Card, Page } from '../../components/layout/Page'
import { Button } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import { Skeleton } from '../../components/ui/Skeleton'
import { currentUser } from '../../state/session'
import { companyZone } from '../../state/settings'
import { toast } from '../../state/toast'
import { CampaignStatusBadge } from './CampaignsPage'

/** After a live update says the campaign finished, the report is fetched again this much later (spec). */
export const FINISHED_REFETCH_MS = 5000

/** Delivered out of valid contacts, as a whole percentage (0 when nothing is valid). */
export function deliveredPercent(delivered: number, valid: number): number {
  if (!valid || valid <= 0) return 0
  return Math.min(100, Math.max(0, Math.round((delivered / valid) * 100)))
}

function StatCard({
  icon,
  label,
  value,
  tone,
}: {
  icon: ReactNode
  label: string
  value: ReactNode
  tone?: 'success' | 'danger' | 'brand'
}) {
  const toneClass =
    tone === 'success'
      ? 'bg-success-soft text-on-success-soft'
      : tone === 'danger'
        ? 'bg-danger-soft text-on-danger-soft'
        : 'bg-info-soft text-on-info-soft'
  return (
    <Card className="flex-row items-center gap-3 p-4">
      <span
        className={`flex size-10 shrink-0 items-center justify-center rounded-lg ${toneClass}`}
        aria-hidden
      >
        {icon}
      </span>
      <div className="min-w-0">
        <div className="text-muted text-xs">{label}</div>
        <div className="truncate font-semibold text-fg text-lg tnum">{value}</div>
      </div>
    </Card>
  )
}

/**
 * The campaign report (spec 2): delivered out of valid contacts, a progress bar and cards; live by
 * `company-{id}-campaign`; fetched again 5 s after a live update brings the campaign to FINALIZADA (the last
 * counts settle after the status).
 */
export function CampaignReportPage() {
  useSignals()
  const { t } = useTranslation()
  const { campaignId } = useParams()
  const id = Number(campaignId)
  const companyId = currentUser.value?.companyId
  const [campaign, setCampaign] = useState<CampaignDto | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [resuming, setResuming] = useState(false)
  const zone = companyZone()
  const finishTimer = useRef<ReturnType<typeof setTimeout> | null>(null)

  const load = useCallback(
    async (signal?: AbortSignal) => {
      try {
        const c = await api.get<CampaignDto>(`/campaigns/${id}`, { signal })
        setCampaign(c)
        setError(null)
      } catch (err) {
        if ((err as Error)?.name !== 'AbortError') setError(err)
      }
    },
    [id],
  )

  useEffect(() => {
    if (!Number.isInteger(id) || id <= 0) return
    const ctrl = new AbortController()
    setCampaign(null)
    setError(null)
    void load(ctrl.signal)
    return () => ctrl.abort()
  }, [id, load])

  useEffect(() => {
    if (!companyId || !Number.isInteger(id)) return
    const offs = [
      subscribe(liveChannel(companyId, 'campaign'), (data) => {
        if (!data || data.action === 'delete') return
        const record = data.record
        if (!record || record.id !== id) return
        setCampaign(record)
        if (record.status === 'FINALIZADA') {
          if (finishTimer.current) clearTimeout(finishTimer.current)
          finishTimer.current = setTimeout(() => {
            finishTimer.current = null
            void load()
          }, FINISHED_REFETCH_MS)
        }
      }),
      onReconnect(() => void load()),
    ]
    return () => {
      for (const off of offs) off()
      if (finishTimer.current) clearTimeout(finishTimer.current)
      finishTimer.current = null
    }
  }, [companyId, id, load])

  const resume = async () => {
    setResuming(true)
    try {
      const saved = await api.post<CampaignDto | undefined>(`/campaigns/${id}/resume`)
      if (saved && typeof saved === 'object' && 'id' in saved) setCampaign(saved)
      else void load()
      toast.success(t('campaigns.resumed'))
    } catch (err) {
      toastError(err)
    } finally {
      setResuming(false)
    }
  }

  const back = (
    <Link
      to="/campaigns"
      className="inline-flex items-center gap-1.5 font-medium text-link text-sm hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden />
      {t('campaigns.backToList')}
    </Link>
  )

  if (error && !campaign)
    return (
      <Page title={t('campaigns.reportTitle')} actions={back}>
        <EmptyState
          className="flex-1 justify-center"
          icon={<CircleAlert />}
          title={errorMessage(error)}
          action={
            <Button variant="secondary" onClick={() => void load()}>
              {t('common.retry')}
            </Button>
          }
        />
      </Page>
    )

  if (!campaign)
    return (
      <Page title={t('campaigns.reportTitle')} actions={back}>
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-24 w-full" />
          <div className="grid gap-3 sm:grid-cols-3">
            {Array.from({ length: 6 }, (_, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
              <Skeleton key={i} className="h-20 w-full" />
            ))}
          </div>
        </div>
      </Page>
    )

  const counts = campaign.counts ?? {
    total: 0,
    valid: 0,
    invalid: 0,
    delivered: 0,
    confirmationRequested: 0,
    confirmed: 0,
    pending: 0,
    failed: 0,
  }
  const percent = deliveredPercent(counts.delivered, counts.valid)
  const at = (iso: string | null, fallback: string) => (iso ? formatInZone(Date.parse(iso), zone) : fallback)

  return (
    <Page title={`${t('campaigns.reportTitle')}: ${campaign.name}`} actions={back}>
      {campaign.pausedReason && (
        <div
          role="alert"
          className="flex flex-wrap items-center gap-3 rounded-card border border-warning bg-warning-soft p-4 text-on-warning-soft"
        >
          <PauseCircle className="size-5 shrink-0" aria-hidden />
          <div className="min-w-0 flex-1">
            <div className="font-semibold text-sm">{t('campaigns.pausedTitle')}</div>
            <p className="text-sm">
              {t(`campaigns.pausedReasons.${campaign.pausedReason}`, {
                defaultValue: campaign.pausedReason,
              })}
            </p>
            {campaign.pausedDetail && <p className="mt-1 text-xs opacity-80">{campaign.pausedDetail}</p>}
          </div>
          <Button onClick={() => void resume()} loading={resuming}>
            {t('campaigns.resume')}
          </Button>
        </div>
      )}
      {!campaign.pausedReason && campaign.waitingReason && campaign.status === 'EM_ANDAMENTO' && (
        <p role="status" className="rounded-lg bg-surface-2 px-3 py-2 text-muted text-sm">
          {t(`campaigns.waitingReasons.${campaign.waitingReason}`, { defaultValue: campaign.waitingReason })}
        </p>
      )}
      <Card className="gap-3 p-4">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="font-medium text-fg text-sm tnum" data-testid="campaign-delivered">
            {t('campaigns.deliveredOf', { delivered: counts.delivered, valid: counts.valid })}
          </span>
          <CampaignStatusBadge status={campaign.status} />
        </div>
        <div
          role="progressbar"
          aria-label={t('campaigns.progress')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          className="h-2.5 w-full overflow-hidden rounded-full bg-surface-3"
        >
          <div
            className="h-full rounded-full bg-primary transition-[width] duration-200 motion-reduce:transition-none"
            style={{ width: `${percent}%` }}
          />
        </div>
        <div className="text-muted text-xs tnum">{percent}%</div>
      </Card>
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        <StatCard
          icon={<Users className="size-5" />}
          label={t('campaigns.validContacts')}
          value={counts.valid}
        />
        <StatCard
          icon={<CircleX className="size-5" />}
          label={t('campaigns.invalidContacts')}
          value={counts.invalid}
          tone="danger"
        />
        <StatCard
          icon={<CheckCheck className="size-5" />}
          label={t('campaigns.delivered')}
          value={counts.delivered}
          tone="success"
        />
        {campaign.confirmation && (
          <>
            <StatCard
              icon={<MessageCircleQuestion className="size-5" />}
              label={t('campaigns.confirmationRequested')}
              value={counts.confirmationRequested}
            />
            <StatCard
              icon={<CircleCheck className="size-5" />}
              label={t('campaigns.confirmed')}
              value={counts.confirmed}
              tone="success"
            />
          </>
        )}
        <StatCard
          icon={<Flag className="size-5" />}
          label={t('campaigns.statusLabel')}
          value={t(`campaigns.status.${campaign.status}`)}
        />
        <StatCard
          icon={<Smartphone className="size-5" />}
          label={t('campaigns.connection')}
          value={campaign.whatsapp?.name ?? t('campaigns.notDefined')}
        />
        <StatCard
          icon={<ListChecks className="size-5" />}
          label={t('campaigns.contactList')}
          value={campaign.contactList?.name ?? t('campaigns.notDefined')}
        />
        <StatCard
          icon={<CalendarClock className="size-5" />}
          label={t('campaigns.scheduledAt')}
          value={at(campaign.scheduledAt, t('campaigns.noSchedule'))}
        />
        <StatCard
          icon={<CircleCheck className="size-5" />}
          label={t('campaigns.completedAt')}
          value={at(campaign.completedAt, t('campaigns.notCompleted'))}
        />
      </div>
    </Page>
  )
}
