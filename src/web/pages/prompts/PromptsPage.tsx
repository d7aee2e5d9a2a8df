import { useSignals } from '@preact/signals-react/runtime'
import { Bot, Lock } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { planAllows } from '../../../shared/plans'
import type { PromptDto } from '../../../shared/prompts'
import { errorMessage } from '../../api/errors'
import { LiveListPage } from '../../components/LiveTableCard'
import { actionsColumn } from '../../components/RowActions'
import { Badge } from '../../components/ui/Badge'
import { EmptyState } from '../../components/ui/EmptyState'
import type { Column } from '../../components/ui/Table'
import { useCrudListScreen } from '../../components/useListScreen'
import { currentUser } from '../../state/session'
import { PromptDialog } from './PromptDialog'
import { promptsList } from './promptsList'

function NameCell({ record }: { record: PromptDto }) {
  const { t } = useTranslation()
  return (
    <div className="min-w-0">
      <div className="flex min-w-0 items-center gap-2">
        <span className="truncate font-medium text-fg text-sm">{record.name}</span>
        {!record.apiKeySet && <Badge>{t('prompts.noKey')}</Badge>}
      </div>
      {/* Clamped rather than truncated: the table lays out automatically, and a no-wrap line would widen it. */}
      <div className="line-clamp-1 break-words text-muted text-xs" title={record.prompt}>
        {record.prompt}
      </div>
    </div>
  )
}

function QueueCell({ record }: { record: PromptDto }) {
  return record.queue ? (
    <span className="truncate text-sm">{record.queue.name}</span>
  ) : (
    <span className="text-subtle">—</span>
  )
}

/**
 * The AI prompts screen (spec 3): search, add, a table of name, queue, max tokens and actions; live by
 * `company-{id}-prompt`. Admins of a plan with useOpenAi; the keys are never shown, only whether one is set.
 */
export function PromptsPage() {
  useSignals()
  const { t } = useTranslation()
  if (!planAllows(currentUser.value?.company?.plan, 'useOpenAi'))
    return (
      <EmptyState
        className="flex-1 justify-center"
        icon={<Lock />}
        title={t('errors.ERR_PLAN_FEATURE_DISABLED')}
      >
        {t('prompts.noPlan')}
      </EmptyState>
    )
  return <PromptsScreen />
}

function PromptsScreen() {
  const { t } = useTranslation()
  const { list, crud, term, table, rowActions } = useCrudListScreen(promptsList, {
    deletePath: (record) => `/prompt/${record.id}`,
    deleted: t('prompts.deleted'),
    deleteFailed: (err) => `${t('prompts.deleteFailed')}: ${errorMessage(err)}`,
  })
  const { upsert } = list

  const actions = (record: PromptDto) => rowActions(record, record.name)

  const columns: Column<PromptDto>[] = [
    { key: 'name', header: t('prompts.name'), cell: (r) => <NameCell record={r} /> },
    { key: 'queue', header: t('prompts.queue'), cell: (r) => <QueueCell record={r} />, width: '22%' },
    {
      key: 'maxTokens',
      header: t('prompts.maxTokens'),
      cell: (r) => <span className="text-sm tabular-nums">{r.maxTokens}</span>,
      align: 'right',
      width: '140px',
    },
    actionsColumn(actions, '96px'),
  ]

  const mobileCard = (r: PromptDto) => (
    <div className="flex items-center gap-3">
      <div className="min-w-0 flex-1 space-y-0.5">
        <NameCell record={r} />
        <div className="truncate text-muted text-xs">
          {r.queue?.name ?? '—'} · {t('prompts.tokensShort', { count: r.maxTokens })}
        </div>
      </div>
      {actions(r)}
    </div>
  )

  return (
    <LiveListPage
      title={t('prompts.title')}
      subtitle={list.count != null ? t('prompts.count', { count: list.count }) : undefined}
      add={{ label: t('prompts.add'), onClick: crud.openAdd }}
      {...table}
      searchLabel={t('prompts.search')}
      noMatches={{ title: t('prompts.emptySearchTitle'), text: t('prompts.emptySearch', { term }) }}
      rowKey={(r) => r.id}
      columns={columns}
      mobileCard={mobileCard}
      empty={{ icon: <Bot />, title: t('prompts.emptyTitle'), text: t('prompts.emptyText') }}
    >
      {crud.dialog && (
        <PromptDialog
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
