import { useSignals } from '@preact/signals-react/runtime'
import { Building2, ListTree, Smartphone, Users } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { CompanyDto, PlanDto } from '../../../shared/api'
import { type PlanLimit, realDueDate } from '../../../shared/plans'
import { ApiError, api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { LiveListTab } from '../../components/LiveTableCard'
import { actionsColumn, RowActions } from '../../components/RowActions'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import type { Column } from '../../components/ui/Table'
import { useCrudListScreen } from '../../components/useListScreen'
import { cn } from '../../lib/cn'
import { formatDueDate } from '../../lib/dates'
import { useLiveList } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { CompanyDialog } from './CompanyDialog'
import {
  allPlansList,
  companiesList,
  companyDueDays,
  DUE_BADGE_CLASS,
  DUE_ROW_CLASS,
  dueTone,
} from './companiesList'

function formatDate(iso: string | null, locale: string, withTime = false): string | null {
  if (!iso) return null
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return null
  return new Intl.DateTimeFormat(locale === 'pt' ? 'pt-BR' : locale, {
    dateStyle: 'short',
    ...(withTime ? { timeStyle: 'short' } : {}),
  }).format(d)
}

/** The due date's state in words (colour is never the only signal) with the row's colour. */
export function DueBadge({ company, now }: { company: CompanyDto; now?: Date }) {
  const { t } = useTranslation()
  const days = companyDueDays(company, now)
  if (days == null) return <span className="text-muted text-xs">{t('companies.noDueDate')}</span>
  const tone = dueTone(days)
  const label =
    days > 0
      ? t('companies.dueIn', { count: days })
      : days === 0
        ? t('companies.dueToday')
        : t('companies.overdue', { count: -days })
  return (
    <Badge className={DUE_BADGE_CLASS[tone ?? (days < 0 ? 'overdue' : 'neutral')]}>
      <span data-due-tone={tone ?? 'none'}>{label}</span>
    </Badge>
  )
}

const LIMIT_ICONS: Record<PlanLimit, typeof Users> = {
  users: Users,
  connections: Smartphone,
  queues: ListTree,
}

/** What the company uses of its plan's limits: '3/5' per limit, '∞' when the plan does not limit it. */
export function PlanUsage({ company, plan }: { company: CompanyDto; plan: PlanDto | undefined }) {
  const { t } = useTranslation()
  return (
    <span className="inline-flex items-center gap-2.5 whitespace-nowrap text-muted text-xs tnum">
      {(['users', 'connections', 'queues'] as const).map((key) => {
        const Icon = LIMIT_ICONS[key]
        const used = company.counts[key]
        const max = plan?.[key]
        const limit = max == null ? '?' : max === 0 ? '∞' : String(max)
        const over = !!max && used >= max
        const title = t('companies.usageOf', {
          label: t(`companies.limits.${key}`),
          used,
          limit: max === 0 ? t('companies.unlimited') : limit,
        })
        return (
          <span
            key={key}
            title={title}
            className={cn('inline-flex items-center gap-1', over && 'text-warning')}
          >
            <Icon className="size-3.5" aria-hidden />
            <span aria-hidden>
              {used}/{limit}
            </span>
            <span className="sr-only">{title}</span>
          </span>
        )
      })}
    </span>
  )
}

function today(): string {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

function StatusBadges({ company }: { company: CompanyDto }) {
  const { t } = useTranslation()
  const trial = company.trialExpiration && company.trialExpiration >= today() ? company.trialExpiration : null
  return (
    <span className="inline-flex flex-wrap gap-1">
      {company.status ? (
        <Badge tone="success">{t('companies.active')}</Badge>
      ) : (
        <Badge tone="neutral">{t('companies.inactive')}</Badge>
      )}
      {trial && <Badge tone="brand">{t('companies.trialUntil', { date: formatDueDate(trial) })}</Badge>}
    </span>
  )
}

/**
 * Settings, Companies tab (super users): the platform's companies, searched and paged, their rows tinted by the
 * days to the due date (the spec: 5 yellow, -3 to 4 orange, -4 red) with the state in words beside the date;
 * '+ Vencimento' moves a due date by the recurrence; add (with the first user), edit and delete.
 */
export function CompaniesTab() {
  useSignals()
  const { t, i18n } = useTranslation()
  const me = currentUser.value
  const { list, crud, term, table } = useCrudListScreen(companiesList, {
    deletePath: (company) => `/companies/${company.id}`,
    deleted: t('companies.deleted'),
    deleteFailed: (err) =>
      err instanceof ApiError && err.code === 'ERR_CANNOT_DELETE_PLATFORM_COMPANY'
        ? t('companies.platformUndeletable')
        : t('companies.deleteFailed'),
  })
  const { upsert } = list
  const plans = useLiveList(allPlansList)
  const [extending, setExtending] = useState<ReadonlySet<number>>(new Set())
  const planOf = (company: CompanyDto) => plans.items.find((p) => p.id === company.planId)
  const isPlatform = (company: CompanyDto) => company.id === me?.companyId

  const extend = async (company: CompanyDto) => {
    setExtending((s) => new Set(s).add(company.id))
    try {
      const saved = await api.post<CompanyDto>(`/companies/${company.id}/extend`)
      upsert(saved)
      toast.success(t('companies.extended', { date: formatDueDate(saved.dueDate) }))
    } catch (err) {
      toast.error(
        err instanceof ApiError && err.code === 'ERR_COMPANY_NO_DUE_DATE'
          ? t('companies.noDueDateToExtend')
          : errorMessage(err),
      )
    } finally {
      setExtending((s) => {
        const next = new Set(s)
        next.delete(company.id)
        return next
      })
    }
  }

  const actions = (company: CompanyDto) => (
    <RowActions
      name={company.name}
      onEdit={() => crud.openEdit(company.id)}
      onDelete={isPlatform(company) ? undefined : () => crud.askDelete(company)}
    >
      {realDueDate(company.dueDate) && (
        <Button
          size="sm"
          variant="secondary"
          className="mr-1 whitespace-nowrap"
          aria-label={t('companies.extendLabel', { name: company.name })}
          loading={extending.has(company.id)}
          disabled={extending.has(company.id)}
          onClick={() => void extend(company)}
        >
          {t('companies.extend')}
        </Button>
      )}
    </RowActions>
  )

  /** Name, status, e-mail, phone and document: the company's own fields in one cell (the table stays narrow). */
  const nameCell = (company: CompanyDto) => (
    <div className="min-w-0 space-y-0.5">
      <div className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
        <span className="min-w-0 truncate font-medium text-fg text-sm" title={company.name}>
          {company.name}
        </span>
        {isPlatform(company) && <Badge tone="brand">{t('companies.platform')}</Badge>}
        <StatusBadges company={company} />
      </div>
      <div className="truncate text-sm" title={company.email ?? undefined}>
        {company.email ?? <span className="text-subtle">—</span>}
      </div>
      {(company.phone || company.document) && (
        <div
          className="truncate text-muted text-xs tnum"
          title={[company.phone, company.document].filter(Boolean).join(' · ')}
        >
          {[company.phone, company.document].filter(Boolean).join(' · ')}
        </div>
      )}
    </div>
  )
  const planCell = (company: CompanyDto) => (
    <div className="space-y-0.5">
      <div className="whitespace-nowrap text-sm">{company.plan?.name ?? '—'}</div>
      <PlanUsage company={company} plan={planOf(company)} />
    </div>
  )
  const dueCell = (company: CompanyDto) => (
    <div className="space-y-1 whitespace-nowrap">
      <div className="text-sm">
        {realDueDate(company.dueDate) && <span className="tnum">{formatDueDate(company.dueDate)} · </span>}
        <span className="text-muted">{t(`companies.recurrences.${company.recurrence}`)}</span>
      </div>
      <DueBadge company={company} />
    </div>
  )
  const dateCell = (iso: string | null, withTime = false) => {
    const text = formatDate(iso, i18n.language, withTime)
    return text ? <span className="whitespace-nowrap tnum">{text}</span> : <span>{t('companies.never')}</span>
  }

  const columns: Column<CompanyDto>[] = [
    { key: 'name', header: t('companies.company'), cell: nameCell, className: 'max-w-60' },
    { key: 'plan', header: t('companies.plan'), cell: planCell },
    { key: 'dueDate', header: `${t('companies.dueDate')} · ${t('companies.recurrence')}`, cell: dueCell },
    {
      key: 'dates',
      header: `${t('companies.createdAt')} · ${t('companies.lastLogin')}`,
      cell: (c) => (
        <div className="flex flex-col text-sm">
          {dateCell(c.createdAt)}
          <span className="text-muted text-xs" title={t('companies.lastLogin')}>
            {dateCell(c.lastLogin, true)}
          </span>
        </div>
      ),
    },
    actionsColumn(actions),
  ]

  const mobileCard = (company: CompanyDto) => (
    <div className="space-y-2">
      {nameCell(company)}
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <span className="text-sm">{company.plan?.name ?? '—'}</span>
        <PlanUsage company={company} plan={planOf(company)} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {realDueDate(company.dueDate) && (
          <span className="text-sm tnum">
            {t('companies.dueDate')}: {formatDueDate(company.dueDate)}
          </span>
        )}
        <DueBadge company={company} />
        <span className="text-muted text-xs">{t(`companies.recurrences.${company.recurrence}`)}</span>
      </div>
      <div className="flex items-center justify-between gap-2">
        <span className="text-muted text-xs">
          {t('companies.lastLogin')}:{' '}
          {formatDate(company.lastLogin, i18n.language, true) ?? t('companies.never')}
        </span>
        {actions(company)}
      </div>
    </div>
  )

  const rowClass = (company: CompanyDto) => {
    const tone = dueTone(companyDueDays(company))
    return tone ? DUE_ROW_CLASS[tone] : undefined
  }

  return (
    <LiveListTab
      intro={t('companies.intro')}
      {...table}
      searchLabel={t('companies.search')}
      toolbar={
        list.count != null && (
          <span className="text-muted text-sm tnum">{t('companies.count', { count: list.count })}</span>
        )
      }
      add={{ label: t('companies.add'), onClick: crud.openAdd }}
      className="max-h-[65vh]"
      label={t('companies.tab')}
      rowKey={(c) => c.id}
      columns={columns}
      mobileCard={mobileCard}
      rowClassName={rowClass}
      errorText={t('common.loadError')}
      noMatches={{ title: t('companies.emptySearchTitle'), text: t('companies.emptySearch', { term }) }}
      empty={{ icon: <Building2 />, title: t('companies.emptyTitle'), text: t('companies.emptyText') }}
    >
      {crud.dialog && (
        <CompanyDialog
          open
          companyId={crud.dialog.id}
          platformCompanyId={me?.companyId}
          onClose={crud.closeDialog}
          onSaved={(company) => upsert(company)}
        />
      )}
      {crud.confirmDelete}
    </LiveListTab>
  )
}
