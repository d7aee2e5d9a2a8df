import { Plus, Workflow } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { QueueDto, SettingItem } from '../../../shared/api'
import { api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { Card, Page } from '../../components/layout/Page'
import { actionsColumn, RowActions } from '../../components/RowActions'
import { ColorChip } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { EmptyState } from '../../components/ui/EmptyState'
import { type Column, DataTable } from '../../components/ui/Table'
import { useLiveList } from '../../state/liveList'
import { queuesList } from '../../state/queues'
import { setSettings } from '../../state/settings'
import { toast } from '../../state/toast'
import { QueueDialog } from './QueueDialog'

export function QueuesPage() {
  const { t } = useTranslation()
  const list = useLiveList(queuesList)
  const [dialog, setDialog] = useState<{ id?: number } | null>(null)
  const [deleting, setDeleting] = useState<QueueDto | null>(null)

  useEffect(() => {
    // The dialog shows the out-of-hours message only when service hours are managed.
    api
      .get<SettingItem[]>('/settings')
      .then(setSettings)
      .catch(() => {})
  }, [])

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await api.delete(`/queue/${deleting.id}`)
      list.remove(deleting.id)
      toast.success(t('queues.deleted'))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const actions = (q: QueueDto) => (
    <RowActions name={q.name} onEdit={() => setDialog({ id: q.id })} onDelete={() => setDeleting(q)} />
  )

  const greeting = (q: QueueDto) =>
    q.greetingMessage ? (
      <span className="line-clamp-2 text-muted" title={q.greetingMessage}>
        {q.greetingMessage}
      </span>
    ) : (
      <span className="text-subtle italic">{t('queues.noGreeting')}</span>
    )

  const columns: Column<QueueDto>[] = [
    {
      key: 'id',
      header: t('queues.id'),
      cell: (q) => <span className="text-muted tnum">{q.id}</span>,
      width: '64px',
    },
    {
      key: 'name',
      header: t('queues.name'),
      cell: (q) => <span className="font-medium text-fg">{q.name}</span>,
      width: '22%',
    },
    {
      key: 'color',
      header: t('queues.color'),
      cell: (q) => <ColorChip color={q.color} label={q.color} />,
      width: '130px',
    },
    {
      key: 'order',
      header: t('queues.order'),
      cell: (q) => <span className="tnum">{q.orderQueue ?? '—'}</span>,
      width: '80px',
      align: 'center',
    },
    { key: 'greeting', header: t('queues.greeting'), cell: greeting },
    actionsColumn(actions, '96px'),
  ]

  const mobileCard = (q: QueueDto) => (
    <div className="flex items-start gap-3">
      <span className="mt-1.5 size-3 shrink-0 rounded-full" style={{ background: q.color }} aria-hidden />
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <span className="truncate font-medium text-fg">{q.name}</span>
          <span className="text-subtle text-xs tnum">
            #{q.id} · {t('queues.order')} {q.orderQueue ?? '—'}
          </span>
        </div>
        <div className="mt-0.5 text-[13px]">{greeting(q)}</div>
      </div>
      {actions(q)}
    </div>
  )

  return (
    <Page
      title={t('queues.title')}
      actions={
        <Button icon={<Plus className="size-4" />} onClick={() => setDialog({})}>
          {t('queues.add')}
        </Button>
      }
    >
      <Card className="flex-1">
        <DataTable
          label={t('queues.title')}
          rows={list.items}
          rowKey={(q) => q.id}
          columns={columns}
          loading={list.loading}
          error={list.error ? errorMessage(list.error) : null}
          onRetry={list.reload}
          mobileCard={mobileCard}
          empty={
            <EmptyState
              icon={<Workflow />}
              title={t('queues.emptyTitle')}
              action={
                <Button icon={<Plus className="size-4" />} onClick={() => setDialog({})}>
                  {t('queues.add')}
                </Button>
              }
            >
              {t('queues.emptyText')}
            </EmptyState>
          }
        />
      </Card>
      {dialog && (
        <QueueDialog open queueId={dialog.id} onClose={() => setDialog(null)} onSaved={list.upsert} />
      )}
      <ConfirmDialog open={!!deleting} onClose={() => setDeleting(null)} onConfirm={confirmDelete} />
    </Page>
  )
}
