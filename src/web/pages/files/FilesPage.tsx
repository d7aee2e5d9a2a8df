import { FilePlus2, Files, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { FileListDto } from '../../../shared/files'
import { api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { LiveTableCard } from '../../components/LiveTableCard'
import { Page } from '../../components/layout/Page'
import { Button, IconButton } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { EmptyState } from '../../components/ui/EmptyState'
import type { Column } from '../../components/ui/Table'
import { useDebounced } from '../../lib/useDebounced'
import { useLiveList } from '../../state/liveList'
import { toast } from '../../state/toast'
import { FileListDialog } from './FileListDialog'
import { filesList } from './filesList'

/** Spec: search debounce 500 ms. */
export const SEARCH_DEBOUNCE = 500

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
  const [search, setSearch] = useState('')
  const term = useDebounced(search.trim(), SEARCH_DEBOUNCE)
  const [dialog, setDialog] = useState<{ id?: number } | null>(null)
  const [deleting, setDeleting] = useState<FileListDto | null>(null)
  const list = useLiveList(filesList, { search: term })
  const { upsert, remove } = list

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await api.delete(`/files/${deleting.id}`)
      remove(deleting.id)
      toast.success(t('files.deleted'))
    } catch (err) {
      toast.error(`${t('files.deleteFailed')}: ${errorMessage(err)}`)
      throw err
    }
  }

  const actions = (record: FileListDto) => (
    <div className="flex justify-end gap-0.5">
      <IconButton
        size="sm"
        label={`${t('common.edit')}: ${record.name}`}
        icon={<Pencil className="size-4" />}
        onClick={() => setDialog({ id: record.id })}
      />
      <IconButton
        size="sm"
        variant="danger-ghost"
        label={`${t('common.delete')}: ${record.name}`}
        icon={<Trash2 className="size-4" />}
        onClick={() => setDeleting(record)}
      />
    </div>
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
        <Button icon={<Plus className="size-4" />} onClick={() => setDialog({})}>
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
              <Button icon={<FilePlus2 className="size-4" />} onClick={() => setDialog({})}>
                {t('files.add')}
              </Button>
            }
          >
            {t('files.emptyText')}
          </EmptyState>
        }
      />
      {dialog && (
        <FileListDialog
          open
          recordId={dialog.id}
          onClose={() => setDialog(null)}
          onSaved={(record) => upsert(record)}
        />
      )}
      <ConfirmDialog open={!!deleting} onClose={() => setDeleting(null)} onConfirm={confirmDelete} />
    </Page>
  )
}
