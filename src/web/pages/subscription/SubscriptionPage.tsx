import { CalendarClock, CreditCard, Mail, Receipt } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import type { SubscriptionDto } from '../../../shared/invoices'
import { realDueDate } from '../../../shared/plans'
import { api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { Card, Page } from '../../components/layout/Page'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { LoadError } from '../../components/ui/EmptyState'
import { Skeleton } from '../../components/ui/Skeleton'
import { daysUntil, formatDueDate } from '../../lib/dates'
import { CheckoutDialog } from '../financeiro/CheckoutDialog'
import { localToday } from '../financeiro/FinanceiroPage'
import { formatBrl } from '../plans/money'

function Fact({
  icon,
  label,
  children,
}: {
  icon: React.ReactNode
  label: string
  children: React.ReactNode
}) {
  return (
    <div className="flex items-start gap-3">
      <span className="mt-0.5 inline-flex size-9 shrink-0 items-center justify-center rounded-lg bg-surface-2 text-muted [&>svg]:size-[18px]">
        {icon}
      </span>
      <div className="min-w-0">
        <div className="text-muted text-xs">{label}</div>
        <div className="break-words font-medium text-fg">{children}</div>
      </div>
    </div>
  )
}

/**
 * The subscription screen (spec 3, 'Assinatura'): days left in the trial, the billing e-mail, the plan and the
 * subscribe button, which opens the checkout for the open invoice (or leads to the invoices when none is open).
 */
export function SubscriptionPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [data, setData] = useState<SubscriptionDto | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [checkout, setCheckout] = useState(false)

  const load = useCallback(() => {
    setError(null)
    api
      .get<SubscriptionDto>('/subscription')
      .then(setData)
      .catch((err) => setError(err))
  }, [])
  useEffect(load, [load])

  const trialDays = data?.company.trialExpiration ? daysUntil(data.company.trialExpiration) : null
  const subscribe = () => {
    if (data?.openInvoice) setCheckout(true)
    else navigate('/financeiro')
  }

  return (
    <Page title={t('billing.subscription.title')}>
      {error ? (
        <Card>
          <LoadError error={errorMessage(error)} onRetry={load} />
        </Card>
      ) : !data ? (
        <Card className="space-y-4 p-5">
          <Skeleton className="h-6 w-56" />
          <Skeleton className="h-4 w-80 max-w-full" />
          <Skeleton className="h-4 w-64 max-w-full" />
        </Card>
      ) : (
        <Card className="max-w-2xl p-5 sm:p-6">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 className="font-semibold text-fg text-lg">
                {trialDays == null
                  ? t('billing.subscription.noTrial')
                  : trialDays >= 0
                    ? t('billing.subscription.trialLeft', { count: trialDays })
                    : t('billing.subscription.trialOver')}
              </h2>
              {data.company.trialExpiration && (
                <p className="mt-1 text-muted text-sm">
                  {t('billing.subscription.trialUntil', {
                    date: formatDueDate(data.company.trialExpiration),
                  })}
                </p>
              )}
            </div>
            {data.openInvoice ? (
              <Badge tone="warning">{t('billing.subscription.openInvoice')}</Badge>
            ) : (
              <Badge tone="success">{t('billing.subscription.upToDate')}</Badge>
            )}
          </div>
          <div className="mt-6 grid gap-5 sm:grid-cols-2">
            <Fact icon={<Mail />} label={t('billing.subscription.billingEmail')}>
              {data.company.email || t('billing.subscription.noEmail')}
            </Fact>
            <Fact icon={<CreditCard />} label={t('billing.subscription.plan')}>
              {data.plan
                ? `${data.plan.name} · ${t('billing.checkout.perMonth', { value: formatBrl(data.plan.value) })}`
                : '—'}
            </Fact>
            <Fact icon={<CalendarClock />} label={t('billing.subscription.dueDate')}>
              {realDueDate(data.company.dueDate)
                ? formatDueDate(data.company.dueDate)
                : t('billing.subscription.noDueDate')}
              {' · '}
              {t(`billing.recurrence.${data.company.recurrence}`)}
            </Fact>
            {data.openInvoice && (
              <Fact icon={<Receipt />} label={t('billing.subscription.nextInvoice')}>
                {formatBrl(data.openInvoice.value)} ·{' '}
                {t(
                  data.openInvoice.dueDate < localToday()
                    ? 'billing.subscription.overdueOn'
                    : 'billing.invoices.dueOn',
                  { date: formatDueDate(data.openInvoice.dueDate) },
                )}
              </Fact>
            )}
          </div>
          {!data.pixConfigured && data.openInvoice && (
            <p className="mt-5 rounded-lg bg-warning-soft px-3 py-2 text-on-warning-soft text-sm">
              {t('billing.subscription.pixMissing')}
            </p>
          )}
          <div className="mt-6 flex flex-wrap gap-2">
            <Button size="lg" onClick={subscribe}>
              {t('billing.subscription.subscribe')}
            </Button>
            <Button size="lg" variant="secondary" onClick={() => navigate('/financeiro')}>
              {t('billing.subscription.seeInvoices')}
            </Button>
          </div>
        </Card>
      )}
      {checkout && data?.openInvoice && (
        <CheckoutDialog
          invoice={data.openInvoice}
          onClose={() => {
            setCheckout(false)
            load()
          }}
        />
      )}
    </Page>
  )
}
