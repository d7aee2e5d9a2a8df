import { Layers } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { PlanDto } from '../../../shared/api'
import { PLAN_FLAGS, planAllows } from '../../../shared/plans'
import { ApiError } from '../../api/client'
import { LiveListTab } from '../../components/LiveTableCard'
import { actionsColumn } from '../../components/RowActions'
import { Badge } from '../../components/ui/Badge'
import type { Column } from '../../components/ui/Table'
import { useCrudListScreen } from '../../components/useListScreen'
import { formatBrl } from './money'
import { PlanDialog } from './PlanDialog'
import { plansList } from './plansList'

/** The plan's features as compact badges: one 'all' badge when every flag is on. */
export function PlanFeatures({ plan }: { plan: PlanDto }) {
  const { t } = useTranslation()
  const on = PLAN_FLAGS.filter((f) => planAllows(plan, f))
  if (on.length === PLAN_FLAGS.length) return <Badge tone="success">{t('plans.allFeatures')}</Badge>
  if (!on.length) return <Badge>{t('plans.noFeatures')}</Badge>
  return (
    <span className="flex flex-wrap gap-1">
      {on.map((f) => (
        <Badge key={f} tone="brand">
          {t(`plans.flags.${f}`)}
        </Badge>
      ))}
    </span>
  )
}

/**
 * Settings, Plans tab (super users): the plans companies subscribe to, with their monthly price in BRL, the
 * limits (0 shown as 'Ilimitado') and the features; add, edit and delete (a plan in use cannot be deleted).
 */
export function PlansTab() {
  const { t } = useTranslation()
  const { list, crud, term, table, rowActions } = useCrudListScreen(plansList, {
    deletePath: (plan) => `/plans/${plan.id}`,
    deleted: t('plans.deleted'),
    deleteFailed: (err) =>
      err instanceof ApiError && err.code === 'ERR_PLAN_IN_USE'
        ? t('plans.inUse', { count: Number(err.details?.companies ?? 1) })
        : t('plans.deleteFailed'),
  })
  const { upsert } = list
  const editing = crud.dialog?.id != null ? list.items.find((p) => p.id === crud.dialog?.id) : undefined

  const limit = (n: number) =>
    n === 0 ? (
      <span className="text-muted text-sm">{t('plans.unlimited')}</span>
    ) : (
      <span className="text-sm tnum">{n}</span>
    )
  const price = (plan: PlanDto) => (
    <span className="whitespace-nowrap text-sm tnum">
      {formatBrl(plan.value)}
      <span className="text-muted text-xs">{t('plans.perMonth')}</span>
    </span>
  )
  const actions = (plan: PlanDto) => rowActions(plan, plan.name)
  const columns: Column<PlanDto>[] = [
    {
      key: 'name',
      header: t('plans.name'),
      cell: (p) => <span className="font-medium text-fg text-sm">{p.name}</span>,
    },
    { key: 'value', header: t('plans.valueShort'), cell: price, align: 'right' },
    { key: 'users', header: t('plans.users'), cell: (p) => limit(p.users), align: 'right' },
    { key: 'connections', header: t('plans.connections'), cell: (p) => limit(p.connections), align: 'right' },
    { key: 'queues', header: t('plans.queues'), cell: (p) => limit(p.queues), align: 'right' },
    { key: 'features', header: t('plans.features'), cell: (p) => <PlanFeatures plan={p} />, width: '36%' },
    actionsColumn(actions, '96px'),
  ]
  const mobileCard = (plan: PlanDto) => (
    <div className="space-y-2">
      <div className="flex items-center justify-between gap-2">
        <span className="min-w-0 truncate font-medium text-fg text-sm">{plan.name}</span>
        {price(plan)}
      </div>
      <dl className="grid grid-cols-3 gap-2 text-xs">
        {(['users', 'connections', 'queues'] as const).map((k) => (
          <div key={k}>
            <dt className="text-muted">{t(`plans.${k}`)}</dt>
            <dd>{limit(plan[k])}</dd>
          </div>
        ))}
      </dl>
      <div className="flex items-center justify-between gap-2">
        <PlanFeatures plan={plan} />
        {actions(plan)}
      </div>
    </div>
  )

  return (
    <LiveListTab
      intro={t('plans.intro')}
      {...table}
      searchLabel={t('plans.search')}
      add={{ label: t('plans.add'), onClick: crud.openAdd }}
      className="max-h-[65vh]"
      label={t('plans.tab')}
      rowKey={(p) => p.id}
      columns={columns}
      mobileCard={mobileCard}
      errorText={t('common.loadError')}
      noMatches={{ title: t('plans.emptySearchTitle'), text: t('plans.emptySearch', { term }) }}
      empty={{ icon: <Layers />, title: t('plans.emptyTitle'), text: t('plans.emptyText') }}
    >
      {crud.dialog && (
        <PlanDialog open record={editing} onClose={crud.closeDialog} onSaved={(plan) => upsert(plan)} />
      )}
      {crud.confirmDelete}
    </LiveListTab>
  )
}
