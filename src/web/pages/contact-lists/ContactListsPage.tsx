import { useSignals } from '@preact/signals-react/runtime'
import { Download, ListPlus, Pencil, Plus, Trash2, Users } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import type { ContactListDto } from '../../../shared/contact-lists'
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
import { ContactListDialog } from './ContactListDialog'
import { contactListsList, downloadFile } from './lists'

export const SEARCH_DEBOUNCE = 500

/**
 * The contact lists screen (spec 2): search, add, an infinite-scroll table of name and contact count; row
 * actions download the sample spreadsheet, open the list's contacts, edit, delete (with confirmation). Live by
 * `company-{id}-ContactList`.
 */
export function ContactListsPage() {
  useSignals()
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [search, setSearch] = useState('')
  const term = useDebounced(search.trim(), SEARCH_DEBOUNCE)
  const [dialog, setDialog] = useState<{ id?: number } | null>(null)
  const [deleting, setDeleting] = useState<ContactListDto | null>(null)
  const list = useLiveList(contactListsList, { search: term })

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await api.delete(`/contact-lists/${deleting.id}`)
      list.remove(deleting.id)
      toast.success(t('contactLists.deleted'))
    } catch (err) {
      toast.error(errorMessage(err))
      throw err
    }
  }

  const sample = () =>
    downloadFile('/contact-lists/sample', 'contatos-exemplo.xlsx').catch((err) =>
      toast.error(errorMessage(err)),
    )

  const actions = (record: ContactListDto) => (
    <div className="flex justify-end gap-0.5">
      <IconButton
        size="sm"
        label={`${t('contactLists.sample')}: ${record.name}`}
        icon={<Download className="size-4" />}
        onClick={sample}
      />
      <IconButton
        size="sm"
        label={`${t('contactLists.contacts')}: ${record.name}`}
        icon={<Users className="size-4" />}
        onClick={() => navigate(`/contact-lists/${record.id}/contacts`)}
      />
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

  const columns: Column<ContactListDto>[] = [
    {
      key: 'name',
      header: t('contactLists.name'),
      cell: (r) => <span className="font-medium">{r.name}</span>,
    },
    {
      key: 'count',
      header: t('contactLists.contactsCount'),
      cell: (r) => <span className="tabular-nums">{r.contactsCount}</span>,
      align: 'center',
      width: '160px',
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: actions,
      align: 'right',
      width: '176px',
    },
  ]

  return (
    <Page
      title={t('contactLists.title')}
      subtitle={list.count != null ? t('contactLists.count', { count: list.count }) : undefined}
      actions={
        <Button icon={<Plus className="size-4" />} onClick={() => setDialog({})}>
          {t('contactLists.add')}
        </Button>
      }
    >
      <LiveTableCard
        list={list}
        search={search}
        onSearch={setSearch}
        searchLabel={t('contactLists.search')}
        term={term}
        noMatches={{
          title: t('contactLists.emptySearchTitle'),
          text: t('contactLists.emptySearch', { term }),
        }}
        label={t('contactLists.title')}
        rowKey={(r) => r.id}
        columns={columns}
        mobileCard={(r) => (
          <div className="flex items-center gap-3">
            <div className="min-w-0 flex-1">
              <div className="truncate font-medium">{r.name}</div>
              <div className="text-muted text-xs">
                {t('contactLists.contactsOf', { count: r.contactsCount })}
              </div>
            </div>
            {actions(r)}
          </div>
        )}
        empty={
          <EmptyState
            icon={<Users />}
            title={t('contactLists.emptyTitle')}
            action={
              <Button icon={<ListPlus className="size-4" />} onClick={() => setDialog({})}>
                {t('contactLists.add')}
              </Button>
            }
          >
            {t('contactLists.emptyText')}
          </EmptyState>
        }
      />
      {dialog && (
        <ContactListDialog
          open
          recordId={dialog.id}
          onClose={() => setDialog(null)}
          onSaved={(r) => list.upsert(r)}
        />
      )}
      <ConfirmDialog
        open={!!deleting}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
        message={t('contactLists.deleteConfirm')}
      />
    </Page>
  )
}
