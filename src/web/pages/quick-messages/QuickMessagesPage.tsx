import { useSignals } from '@preact/signals-react/runtime'
import { MessageSquarePlus, MessageSquareText, Paperclip } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { QuickMessageDto } from '../../../shared/api'
import { errorMessage } from '../../api/errors'
import { LiveListPage } from '../../components/LiveTableCard'
import { actionsColumn } from '../../components/RowActions'
import { Badge } from '../../components/ui/Badge'
import type { Column } from '../../components/ui/Table'
import { useCrudListScreen } from '../../components/useListScreen'
import { currentUser } from '../../state/session'
import { QuickMessageDialog } from './QuickMessageDialog'
import { quickMessagesList } from './quickMessagesList'

function Shortcode({ record }: { record: QuickMessageDto }) {
  const { t } = useTranslation()
  return (
    <div className="min-w-0">
      <div className="flex min-w-0 items-center gap-2">
        <span className="truncate font-medium font-mono text-fg text-sm">/{record.shortcode}</span>
        {record.geral ? (
          <Badge tone="brand">{t('quickMessages.company')}</Badge>
        ) : (
          <Badge>{t('quickMessages.personal')}</Badge>
        )}
        {!record.status && <Badge tone="warning">{t('quickMessages.inactive')}</Badge>}
      </div>
      {record.message && (
        <div className="truncate text-muted text-xs" title={record.message}>
          {record.message}
        </div>
      )}
    </div>
  )
}

function Attachment({ record }: { record: QuickMessageDto }) {
  if (!record.mediaName) return <span className="text-subtle">—</span>
  return (
    <span className="inline-flex min-w-0 max-w-full items-center gap-1.5 text-sm">
      <Paperclip className="size-3.5 shrink-0 text-muted" aria-hidden />
      <span className="truncate" title={record.mediaName}>
        {record.mediaName}
      </span>
    </span>
  )
}

/**
 * The quick messages screen (spec 2): search, add, an infinite-scroll table of shortcode, attachment name and
 * actions; live by `company-{id}-quickmessage`. Only the owner or an admin may edit or delete one, and only an
 * admin a company-wide one.
 */
export function QuickMessagesPage() {
  useSignals()
  const { t } = useTranslation()
  const me = currentUser.value
  const isAdmin = me?.profile === 'admin' || !!me?.super
  const { list, crud, term, table, rowActions } = useCrudListScreen(quickMessagesList, {
    deletePath: (record) => `/quick-messages/${record.id}`,
    deleted: t('quickMessages.deleted'),
    deleteFailed: (err) => `${t('quickMessages.deleteFailed')}: ${errorMessage(err)}`,
  })
  const { upsert } = list

  // A company-wide one is the admins' (the server answers 403 to anyone else).
  const mayChange = (record: QuickMessageDto) => isAdmin || (record.userId === me?.id && !record.geral)

  const actions = (record: QuickMessageDto) =>
    mayChange(record) ? rowActions(record, `/${record.shortcode}`) : null

  const columns: Column<QuickMessageDto>[] = [
    {
      key: 'shortcode',
      header: t('quickMessages.shortcode'),
      cell: (record) => <Shortcode record={record} />,
    },
    {
      key: 'attachment',
      header: t('quickMessages.attachment'),
      cell: (record) => <Attachment record={record} />,
      width: '30%',
    },
    actionsColumn(actions, '96px'),
  ]

  const mobileCard = (record: QuickMessageDto) => (
    <div className="flex items-center gap-3">
      <div className="min-w-0 flex-1 space-y-1">
        <Shortcode record={record} />
        {record.mediaName && <Attachment record={record} />}
      </div>
      {actions(record)}
    </div>
  )

  return (
    <LiveListPage
      title={t('quickMessages.title')}
      subtitle={list.count != null ? t('quickMessages.count', { count: list.count }) : undefined}
      add={{
        label: t('quickMessages.add'),
        onClick: crud.openAdd,
        icon: <MessageSquarePlus className="size-4" />,
      }}
      {...table}
      searchLabel={t('quickMessages.search')}
      noMatches={{
        title: t('quickMessages.emptySearchTitle'),
        text: t('quickMessages.emptySearch', { term }),
      }}
      rowKey={(record) => record.id}
      columns={columns}
      mobileCard={mobileCard}
      empty={{
        icon: <MessageSquareText />,
        title: t('quickMessages.emptyTitle'),
        text: t('quickMessages.emptyText'),
      }}
    >
      {crud.dialog && (
        <QuickMessageDialog
          open
          recordId={crud.dialog.id}
          mayShare={isAdmin}
          onClose={crud.closeDialog}
          onSaved={(record) => upsert(record)}
        />
      )}
      {crud.confirmDelete}
    </LiveListPage>
  )
}
