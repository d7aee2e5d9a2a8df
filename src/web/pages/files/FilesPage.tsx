import { FilePlus2, Files, Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { FileListDto } from '../../../shared/files'
import { errorMessage } from '../../api/errors'
import { LiveTableCard } from '../../components/LiveTableCard'
import { Page } from '../../components/layout/Page'
import { RowActions } from '../../components/RowActions'
import { Button } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import type { Column } from '../../components/ui/Table'
import { useListSearch, useRowCrud } from '../../components/useListScreen'
import { useLiveList } from '../../state/liveList'
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
  const { search, setSearch, term } = useListSearch()
  const list = useLiveList(filesList, { search: term })
  const { upsert, remove } = list
  const crud = useRowCrud<FileListDto>({
    deletePath: (record) => `/files/${record.id}`,
    remove,
    deleted: t('files.deleted'),
    deleteFailed: (err) => `${t('files.deleteFailed')}: ${errorMessage(err)}`,
  })

  const actions = (record: FileListDto) => (
    <RowActions
      name={record.name}
      onEdit={() => crud.openEdit(record.id)}
      onDelete={() => crud.askDelete(record)}
    />
  )

  const columns: Column<FileListDto>[] = [
    { key: 'name', header: t('files.name'), cell: (record) => <NameCell record={record} /> },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: actions,
      align: 'right',
      width: '96px',
    },
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
    <Page
      title={t('files.title')}
      subtitle={list.count != null ? t('files.count', { count: list.count }) : undefined}
      actions={
        <Button icon={<Plus className="size-4" />} onClick={crud.openAdd}>
          {t('files.add')}
        </Button>
      }
    >
      <LiveTableCard
        list={list}
        search={search}
        onSearch={setSearch}
        searchLabel={t('files.search')}
        term={term}
        noMatches={{ title: t('files.emptySearchTitle'), text: t('files.emptySearch', { term }) }}
        label={t('files.title')}
        rowKey={(record) => record.id}
        columns={columns}
        mobileCard={mobileCard}
        empty={
          <EmptyState
            icon={<Files />}
            title={t('files.emptyTitle')}
            action={
              <Button icon={<FilePlus2 className="size-4" />} onClick={crud.openAdd}>
                {t('files.add')}
              </Button>
            }
          >
            {t('files.emptyText')}
          </EmptyState>
        }
      />
      {crud.dialog && (
        <FileListDialog
          open
          recordId={crud.dialog.id}
          onClose={crud.closeDialog}
          onSaved={(record) => upsert(record)}
        />
      )}
      {crud.confirmDelete}
    </Page>
  )
}
