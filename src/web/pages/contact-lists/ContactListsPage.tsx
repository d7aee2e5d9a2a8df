import { useSignals } from '@preact/signals-react/runtime'
import { Download, ListPlus, Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import type { ContactListDto } from '../../../shared/contact-lists'
import { errorMessage } from '../../api/errors'
import { LiveListPage } from '../../components/LiveTableCard'
import { actionsColumn, RowActions } from '../../components/RowActions'
import { IconButton } from '../../components/ui/Button'
import type { Column } from '../../components/ui/Table'
import { useListSearch, useRowCrud } from '../../components/useListScreen'
import { useLiveList } from '../../state/liveList'
import { toast } from '../../state/toast'
import { ContactListDialog } from './ContactListDialog'
import { contactListsList, downloadFile } from './lists'

/**
 * The contact lists screen (spec 2): search, add, an infinite-scroll table of name and contact count; row
 * actions download the sample spreadsheet, open the list's contacts, edit, delete (with confirmation). Live by
 * `company-{id}-ContactList`.
 */
export function ContactListsPage() {
  useSignals()
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { search, setSearch, term } = useListSearch()
  const list = useLiveList(contactListsList, { search: term })
  const crud = useRowCrud<ContactListDto>({
    deletePath: (record) => `/contact-lists/${record.id}`,
    remove: list.remove,
    deleted: t('contactLists.deleted'),
    deleteFailed: errorMessage,
    deleteMessage: t('contactLists.deleteConfirm'),
  })

  const sample = () =>
    downloadFile('/contact-lists/sample', 'contatos-exemplo.xlsx').catch((err) =>
      toast.error(errorMessage(err)),
    )

  const actions = (record: ContactListDto) => (
    <RowActions
      name={record.name}
      onEdit={() => crud.openEdit(record.id)}
      onDelete={() => crud.askDelete(record)}
    >
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
    </RowActions>
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
    actionsColumn(actions, '176px'),
  ]

  return (
    <LiveListPage
      title={t('contactLists.title')}
      subtitle={list.count != null ? t('contactLists.count', { count: list.count }) : undefined}
      add={{ label: t('contactLists.add'), onClick: crud.openAdd, icon: <ListPlus className="size-4" /> }}
      list={list}
      search={search}
      onSearch={setSearch}
      searchLabel={t('contactLists.search')}
      term={term}
      noMatches={{
        title: t('contactLists.emptySearchTitle'),
        text: t('contactLists.emptySearch', { term }),
      }}
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
      empty={{ icon: <Users />, title: t('contactLists.emptyTitle'), text: t('contactLists.emptyText') }}
    >
      {crud.dialog && (
        <ContactListDialog
          open
          recordId={crud.dialog.id}
          onClose={crud.closeDialog}
          onSaved={(r) => list.upsert(r)}
        />
      )}
      {crud.confirmDelete}
    </LiveListPage>
  )
}
