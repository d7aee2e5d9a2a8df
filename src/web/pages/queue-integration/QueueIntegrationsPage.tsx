import { useSignals } from '@preact/signals-react/runtime'
import { Blocks, Lock } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import { planAllows } from '../../../shared/plans'
import type { QueueIntegrationDto } from '../../../shared/queue-integrations'
import { errorMessage } from '../../api/errors'
import { LiveListPage } from '../../components/LiveTableCard'
import { actionsColumn } from '../../components/RowActions'
import { EmptyState } from '../../components/ui/EmptyState'
import { Switch } from '../../components/ui/Switch'
import type { Column } from '../../components/ui/Table'
import { useCrudListScreen } from '../../components/useListScreen'
import { currentUser } from '../../state/session'
import { IntegrationLogo } from './IntegrationLogo'
import { QueueIntegrationDialog } from './QueueIntegrationDialog'
import { queueIntegrationsList } from './queueIntegrationsList'

/** Spec 3: without the plan flag, the message, then back to / after 1 s. */
export const PLAN_REDIRECT_MS = 1000

function NoPlan() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  useEffect(() => {
    const timer = setTimeout(() => navigate('/', { replace: true }), PLAN_REDIRECT_MS)
    return () => clearTimeout(timer)
  }, [navigate])
  return (
    <EmptyState
      className="flex-1 justify-center"
      icon={<Lock />}
      title={t('errors.ERR_PLAN_FEATURE_DISABLED')}
    >
      <span role="alert">{t('queueIntegrations.noPlan')}</span>
    </EmptyState>
  )
}

function TypeCell({ record }: { record: QueueIntegrationDto }) {
  const { t } = useTranslation()
  return (
    <div className="flex items-center gap-3">
      <IntegrationLogo type={record.type} />
      <span className="text-muted text-xs">{t(`queueIntegrations.types.${record.type}`)}</span>
    </div>
  )
}

/**
 * The queue integrations screen (spec 3): search, add, an edit-mode switch (edit and delete stay disabled until
 * it is on; off on every visit), a table of type logo, id and name; live by `company-{id}-queueIntegration`.
 * Admins of a plan with useIntegrations.
 */
export function QueueIntegrationsPage() {
  useSignals()
  if (!planAllows(currentUser.value?.company?.plan, 'useIntegrations')) return <NoPlan />
  return <IntegrationsScreen />
}

function IntegrationsScreen() {
  const { t } = useTranslation()
  const [editMode, setEditMode] = useState(false)
  const { list, crud, term, table, rowActions } = useCrudListScreen(queueIntegrationsList, {
    deletePath: (record) => `/queueIntegration/${record.id}`,
    deleted: t('queueIntegrations.deleted'),
    deleteFailed: (err) => `${t('queueIntegrations.deleteFailed')}: ${errorMessage(err)}`,
  })
  const { upsert } = list

  const actions = (record: QueueIntegrationDto) =>
    rowActions(record, record.name, editMode ? undefined : t('queueIntegrations.editModeOff'))

  const columns: Column<QueueIntegrationDto>[] = [
    {
      key: 'type',
      header: t('queueIntegrations.type'),
      cell: (r) => <TypeCell record={r} />,
      width: '180px',
    },
    {
      key: 'id',
      header: t('queueIntegrations.id'),
      cell: (r) => <span className="text-muted text-sm tabular-nums">{r.id}</span>,
      width: '80px',
    },
    {
      key: 'name',
      header: t('queueIntegrations.name'),
      cell: (r) => <span className="truncate font-medium text-fg text-sm">{r.name}</span>,
    },
    actionsColumn(actions, '96px'),
  ]

  const mobileCard = (r: QueueIntegrationDto) => (
    <div className="flex items-center gap-3">
      <IntegrationLogo type={r.type} />
      <div className="min-w-0 flex-1">
        <div className="truncate font-medium text-fg text-sm">{r.name}</div>
        <div className="truncate text-muted text-xs">
          #{r.id} · {t(`queueIntegrations.types.${r.type}`)}
        </div>
      </div>
      {actions(r)}
    </div>
  )

  return (
    <LiveListPage
      title={t('queueIntegrations.title')}
      subtitle={list.count != null ? t('queueIntegrations.count', { count: list.count }) : undefined}
      actions={<Switch checked={editMode} onChange={setEditMode} label={t('queueIntegrations.editMode')} />}
      actionsClassName="flex flex-wrap items-center gap-x-4 gap-y-2"
      add={{ label: t('queueIntegrations.add'), onClick: crud.openAdd }}
      {...table}
      searchLabel={t('queueIntegrations.search')}
      noMatches={{
        title: t('queueIntegrations.emptySearchTitle'),
        text: t('queueIntegrations.emptySearch', { term }),
      }}
      rowKey={(r) => r.id}
      columns={columns}
      mobileCard={mobileCard}
      empty={{
        icon: <Blocks />,
        title: t('queueIntegrations.emptyTitle'),
        text: t('queueIntegrations.emptyText'),
      }}
    >
      {crud.dialog && (
        <QueueIntegrationDialog
          open
          recordId={crud.dialog.id}
          onClose={crud.closeDialog}
          onSaved={(record) => upsert(record)}
        />
      )}
      {crud.confirmDelete}
    </LiveListPage>
  )
}
