import { FilePlus2, Files } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { FileListDto } from '../../../shared/files'
import { errorMessage } from '../../api/errors'
import { LiveListPage } from '../../components/LiveTableCard'
import { actionsColumn } from '../../components/RowActions'
import type { Column } from '../../components/ui/Table'
import { useCrudListScreen } from '../../components/useListScreen'
import { FileListDialog } from './FileListDialog'
import { filesList } from './filesList'

function NameCell({ record }: { record: FileListDto }) {
  const { t } = useTranslation()
  return (
    <div className="min-w-0">
      <div className="truncate font-medium text-fg text-sm">{record.name}</div>
      <div className="truncate text-muted text-xs">
        {t('files.optionsCount', { count: record.options.length })}
        {record.message ? ` · ${record.message}` : ''}
      </div>
    </div>
  )
}

/**
 * The files screen (spec 3): search, add, a table of name and actions (edit, delete); live by
 * `company-{id}-file`. Admins only (the route and the menu say so).
 */
export function FilesPage() {
  const { t } = useTranslation()
  const { list, crud, term, table, rowActions } = useCrudListScreen(filesList, {
    deletePath: (record) => `/files/${record.id}`,
    deleted: t('files.deleted'),
    deleteFailed: (err) => `${t('files.deleteFailed')}: ${errorMessage(err)}`,
  })
  const { upsert } = list

  const actions = (record: FileListDto) => rowActions(record, record.name)

  const columns: Column<FileListDto>[] = [
    { key: 'name', header: t('files.name'), cell: (record) => <NameCell record={record} /> },
    actionsColumn(actions, '96px'),
  ]

  const mobileCard = (record: FileListDto) => (
    <div className="flex items-center gap-3">
      <div className="min-w-0 flex-1">
        <NameCell record={record} />
      </div>
      {actions(record)}
    </div>
  )

  return (
    <LiveListPage
      title={t('files.title')}
      subtitle={list.count != null ? t('files.count', { count: list.count }) : undefined}
      add={{ label: t('files.add'), onClick: crud.openAdd, icon: <FilePlus2 className="size-4" /> }}
      {...table}
      searchLabel={t('files.search')}
      noMatches={{ title: t('files.emptySearchTitle'), text: t('files.emptySearch', { term }) }}
      rowKey={(record) => record.id}
      columns={columns}
      mobileCard={mobileCard}
      empty={{ icon: <Files />, title: t('files.emptyTitle'), text: t('files.emptyText') }}
    >
      {crud.dialog && (
        <FileListDialog
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
