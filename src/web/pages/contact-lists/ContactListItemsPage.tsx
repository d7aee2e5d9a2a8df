import { useSignals } from '@preact/signals-react/runtime'
import { ArrowLeft, CircleCheck, Upload, UserPlus, Users } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router-dom'
import type { ContactListDto, ContactListItemDto } from '../../../shared/contact-lists'
import { can } from '../../../shared/permissions'
import { api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { subscribe } from '../../api/live'
import { LiveListPage } from '../../components/LiveTableCard'
import { actionsColumn, RowActions } from '../../components/RowActions'
import { Button } from '../../components/ui/Button'
import type { Column } from '../../components/ui/Table'
import { useListSearch, useRowCrud } from '../../components/useListScreen'
import { useLiveList } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { ContactListItemDialog } from './ContactListItemDialog'
import { ImportDialog } from './ImportDialog'
import { contactListItemsList } from './lists'

/** The # column: green when WhatsApp knows the number, grey when not (or not yet checked). */
function Validity({ item }: { item: ContactListItemDto }) {
  const { t } = useTranslation()
  const label =
    item.isWhatsappValid == null
      ? t('contactLists.validUnknown')
      : item.isWhatsappValid
        ? t('contactLists.valid')
        : t('contactLists.invalid')
  return (
    <CircleCheck
      role="img"
      aria-label={label}
      className={`size-4 ${item.isWhatsappValid ? 'text-success' : 'text-subtle'}`}
      data-valid={String(item.isWhatsappValid)}
    >
      <title>{label}</title>
    </CircleCheck>
  )
}

/**
 * One list's contacts (spec 2): title, search, buttons Lists, Import (xls or xlsx) and Add; table #, name,
 * number, email, actions; delete only with contacts-page:deleteContact. Live by `company-{id}-ContactListItem`.
 */
export function ContactListItemsPage() {
  useSignals()
  const { t } = useTranslation()
  const contactListId = Number(useParams().contactListId)
  const [contactList, setContactList] = useState<ContactListDto | null>(null)
  const { search, setSearch, term } = useListSearch()
  const [importing, setImporting] = useState(false)
  const list = useLiveList(contactListItemsList, { contactListId, search: term })
  const crud = useRowCrud<ContactListItemDto>({
    deletePath: (item) => `/contact-list-items/${item.id}`,
    remove: list.remove,
    deleted: t('contactLists.itemDeleted'),
    deleteFailed: errorMessage,
  })
  const mayDelete = can(currentUser.value, 'contacts-page:deleteContact')
  const { reload } = list

  useEffect(() => {
    const ctrl = new AbortController()
    api
      .get<ContactListDto>(`/contact-lists/${contactListId}`, { signal: ctrl.signal })
      .then(setContactList)
      .catch(() => {})
    return () => ctrl.abort()
  }, [contactListId])

  useEffect(() => {
    const companyId = currentUser.peek()?.companyId
    if (!companyId) return
    return subscribe(`company-${companyId}-ContactListItem`, (data) => {
      if (data.action === 'reload' && data.contactListId === contactListId) reload()
    })
  }, [contactListId, reload])

  const actions = (item: ContactListItemDto) => (
    <RowActions
      name={item.name}
      onEdit={() => crud.openEdit(item.id)}
      onDelete={mayDelete ? () => crud.askDelete(item) : undefined}
    />
  )

  const columns: Column<ContactListItemDto>[] = [
    { key: 'valid', header: '#', cell: (i) => <Validity item={i} />, width: '48px', align: 'center' },
    { key: 'name', header: t('contactLists.name'), cell: (i) => i.name },
    {
      key: 'number',
      header: t('contactLists.number'),
      cell: (i) => <span className="tabular-nums">{i.number}</span>,
    },
    {
      key: 'email',
      header: t('contactLists.email'),
      cell: (i) => i.email || <span className="text-subtle">—</span>,
    },
    actionsColumn(actions, '96px'),
  ]

  return (
    <LiveListPage
      title={contactList?.name ?? t('contactLists.contacts')}
      subtitle={list.count != null ? t('contactLists.contactsOf', { count: list.count }) : undefined}
      actions={
        <>
          <Link to="/contact-lists">
            <Button variant="secondary" icon={<ArrowLeft className="size-4" />} tabIndex={-1}>
              {t('contactLists.lists')}
            </Button>
          </Link>
          <Button variant="secondary" icon={<Upload className="size-4" />} onClick={() => setImporting(true)}>
            {t('contactLists.importButton')}
          </Button>
        </>
      }
      add={{ label: t('contactLists.add'), onClick: crud.openAdd, icon: <UserPlus className="size-4" /> }}
      list={list}
      search={search}
      onSearch={setSearch}
      searchLabel={t('contactLists.search')}
      term={term}
      noMatches={{
        title: t('contactLists.emptySearchTitle'),
        text: t('contactLists.emptySearch', { term }),
      }}
      label={t('contactLists.contacts')}
      rowKey={(i) => i.id}
      columns={columns}
      mobileCard={(i) => (
        <div className="flex items-center gap-3">
          <Validity item={i} />
          <div className="min-w-0 flex-1">
            <div className="truncate font-medium">{i.name}</div>
            <div className="text-muted text-xs tabular-nums">{i.number}</div>
          </div>
          {actions(i)}
        </div>
      )}
      empty={{
        icon: <Users />,
        title: t('contactLists.emptyItemsTitle'),
        text: t('contactLists.emptyItemsText'),
      }}
    >
      {crud.dialog && (
        <ContactListItemDialog
          open
          contactListId={contactListId}
          recordId={crud.dialog.id}
          onClose={crud.closeDialog}
          onSaved={(r) => list.upsert(r)}
        />
      )}
      {importing && (
        <ImportDialog
          open
          onClose={() => setImporting(false)}
          uploadPath={`/contact-lists/${contactListId}/upload`}
          jobPath={(id) => `/contact-lists/imports/${id}`}
          onDone={() => reload()}
        />
      )}
      {crud.confirmDelete}
    </LiveListPage>
  )
}
