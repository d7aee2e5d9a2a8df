import { useSignals } from '@preact/signals-react/runtime'
import { BadgeCheck, QrCode, Receipt } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { InvoiceDto } from '../../../shared/invoices'
import { invoiceDisplayStatus } from '../../../shared/invoices'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { LiveTableCard } from '../../components/LiveTableCard'
import { Page } from '../../components/layout/Page'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { EmptyState } from '../../components/ui/EmptyState'
import type { Column } from '../../components/ui/Table'
import { useListSearch } from '../../components/useListScreen'
import { formatDueDate } from '../../lib/dates'
import { useLiveList } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { formatBrl } from '../plans/money'
import { CheckoutDialog } from './CheckoutDialog'
import { allInvoicesList, invoicesList } from './invoicesList'

/** Today as YYYY-MM-DD in the local calendar (the spec's "due date before today"). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

const STATUS_TONE = { paid: 'success', overdue: 'danger', open: 'warning', void: 'neutral' } as const

export function InvoiceStatus({ invoice, today }: { invoice: InvoiceDto; today: string }) {
  const { t } = useTranslation()
  const status = invoiceDisplayStatus(invoice, today)
  return <Badge tone={STATUS_TONE[status]}>{t(`billing.invoices.status.${status}`)}</Badge>
}

/**
 * The invoices screen (spec 3, /financeiro): Id, Details, Value, Due date, Status (Pago; Vencido with a reddish
 * row; Em Aberto; Cancelada for a void one, whose due date the company no longer has) and PAY for every open
 * invoice, which opens the checkout. Search and infinite scroll; live by
 * `company-{id}-invoice`. The super user sees every company's invoices instead, and marks one paid (which extends
 * the company as a confirmed payment does).
 */
export function FinanceiroPage() {
  useSignals()
  const { t } = useTranslation()
  const me = currentUser.value
  const isSuper = !!me?.super
  const { search, setSearch, term } = useListSearch()
  const own = useLiveList(invoicesList, { search: term }, { enabled: !isSuper })
  const all = useLiveList(allInvoicesList, { search: term }, { enabled: isSuper })
  const list = isSuper ? all : own
  const [paying, setPaying] = useState<InvoiceDto | null>(null)
  const [marking, setMarking] = useState<InvoiceDto | null>(null)
  const today = localToday()

  const markPaid = async (invoice: InvoiceDto) => {
    try {
      const saved = await api.put<InvoiceDto>(`/invoices/${invoice.id}`, { status: 'paid' })
      all.patch(invoice.id, (old) => ({ ...old, ...saved, company: old.company }))
      toast.success(t('billing.invoices.markedPaid'))
    } catch (err) {
      toastError(err)
    }
  }

  const action = (invoice: InvoiceDto) => {
    if (invoice.status !== 'open') return null // paid, or void (its due date changed): nothing to pay
    return isSuper ? (
      <Button
        size="sm"
        variant="secondary"
        icon={<BadgeCheck className="size-4" />}
        onClick={() => setMarking(invoice)}
      >
        {t('billing.invoices.markPaid')}
      </Button>
    ) : (
      <Button size="sm" icon={<QrCode className="size-4" />} onClick={() => setPaying(invoice)}>
        {t('billing.invoices.pay')}
      </Button>
    )
  }

  const columns: Column<InvoiceDto>[] = [
    {
      key: 'id',
      header: t('billing.invoices.id'),
      cell: (i) => <span className="tnum">{i.id}</span>,
      width: '72px',
    },
    ...(isSuper
      ? [
          {
            key: 'company',
            header: t('billing.invoices.company'),
            cell: (i: InvoiceDto) => <span className="truncate">{i.company?.name}</span>,
          },
        ]
      : []),
    {
      key: 'detail',
      header: t('billing.invoices.detail'),
      cell: (i) => <span className="truncate">{i.detail}</span>,
    },
    {
      key: 'value',
      header: t('billing.invoices.value'),
      cell: (i) => <span className="tnum">{formatBrl(i.value)}</span>,
      align: 'right',
    },
    {
      key: 'dueDate',
      header: t('billing.invoices.dueDate'),
      cell: (i) => <span className="tnum">{formatDueDate(i.dueDate)}</span>,
    },
    {
      key: 'status',
      header: t('billing.invoices.statusHeader'),
      cell: (i) => <InvoiceStatus invoice={i} today={today} />,
    },
    { key: 'action', header: t('billing.invoices.action'), cell: action, align: 'right', width: '170px' },
  ]

  const mobileCard = (i: InvoiceDto) => (
    <div className="flex items-center gap-3">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex items-center gap-2">
          <span className="text-muted text-xs tnum">#{i.id}</span>
          <InvoiceStatus invoice={i} today={today} />
        </div>
        <div className="truncate font-medium text-fg text-sm">{isSuper ? i.company?.name : i.detail}</div>
        <div className="text-muted text-xs tnum">
          {formatBrl(i.value)} · {t('billing.invoices.dueOn', { date: formatDueDate(i.dueDate) })}
        </div>
      </div>
      {action(i)}
    </div>
  )

  return (
    <Page
      title={t('billing.invoices.title')}
      subtitle={list.count != null ? t('billing.invoices.count', { count: list.count }) : undefined}
    >
      <LiveTableCard
        list={list}
        search={search}
        onSearch={setSearch}
        searchLabel={t('billing.invoices.search')}
        term={term}
        noMatches={{
          title: t('billing.invoices.emptySearchTitle'),
          text: t('billing.invoices.emptySearch', { term }),
        }}
        label={t('billing.invoices.title')}
        rowKey={(i) => i.id}
        columns={columns}
        mobileCard={mobileCard}
        rowClassName={(i) => (invoiceDisplayStatus(i, today) === 'overdue' ? 'bg-danger-soft/60' : undefined)}
        empty={
          <EmptyState icon={<Receipt />} title={t('billing.invoices.emptyTitle')}>
            {t(isSuper ? 'billing.invoices.emptyTextSuper' : 'billing.invoices.emptyText')}
          </EmptyState>
        }
      />
      {paying && <CheckoutDialog invoice={paying} onClose={() => setPaying(null)} />}
      <ConfirmDialog
        open={!!marking}
        onClose={() => setMarking(null)}
        onConfirm={() => marking && markPaid(marking)}
        tone="warning"
        title={t('billing.invoices.markPaidTitle')}
        message={t('billing.invoices.markPaidText', {
          id: marking?.id,
          company: marking?.company?.name ?? '',
          value: marking ? formatBrl(marking.value) : '',
        })}
        confirmLabel={t('billing.invoices.markPaid')}
      />
    </Page>
  )
}
