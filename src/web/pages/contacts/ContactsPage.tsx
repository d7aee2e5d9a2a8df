import { useSignals } from '@preact/signals-react/runtime'
import { BookUser, Download, MessageSquarePlus, Upload, UserPlus } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ContactDto } from '../../../shared/api'
import { can, isAdmin } from '../../../shared/permissions'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { LiveListPage } from '../../components/LiveTableCard'
import { actionsColumn, RowActions } from '../../components/RowActions'
import { Button, IconButton } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import type { Column } from '../../components/ui/Table'
import { useDebounced } from '../../lib/useDebounced'
import { useLiveList } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { ImportDialog } from '../contact-lists/ImportDialog'
import { downloadFile } from '../contact-lists/lists'
import { ContactAvatar } from './ContactAvatar'
import { ContactDialog } from './ContactDialog'
import { useStartTicket } from './StartTicket'
import { contactsList } from './state'

/** Spec: search debounce 500 ms. */
export const SEARCH_DEBOUNCE = 500

const contactId = (c: ContactDto) => c.id

/**
 * The contacts screen: title with the count, search, add, edit, delete (contacts-page:deleteContact) and start a
 * ticket. Numbers are shown as the server gives them (masked for users who may not see them in full).
 */
export function ContactsPage() {
  useSignals()
  const { t } = useTranslation()
  const me = currentUser.value
  const canDelete = can(me, 'contacts-page:deleteContact')
  // Import and export are administration (the server answers 403 to attendants).
  const canTransfer = isAdmin(me)
  const [search, setSearch] = useState('')
  const term = useDebounced(search.trim(), SEARCH_DEBOUNCE)
  const [dialog, setDialog] = useState<{ id: number | null } | null>(null)
  const [deleting, setDeleting] = useState<ContactDto | null>(null)
  const list = useLiveList(contactsList, { search: term })
  const [importing, setImporting] = useState(false)
  // The export carries the numbers as this user sees them (masked unless isTricked is enabled): the server's rule.
  const exportAs = (format: 'csv' | 'xlsx') =>
    downloadFile(`/contacts/export?format=${format}`, `contatos.${format}`).catch(() =>
      toast.error(t('contactLists.exportFailed')),
    )
  const { upsert, remove } = list
  const startTicket = useStartTicket()

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await api.delete(`/contacts/${deleting.id}`)
      remove(deleting.id)
      toast.success(t('contacts.deleted'))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const actions = (c: ContactDto) => (
    <RowActions
      name={c.name}
      onEdit={() => setDialog({ id: c.id })}
      onDelete={canDelete ? () => setDeleting(c) : undefined}
    >
      {!c.isGroup && (
        <IconButton
          size="sm"
          label={`${t('contacts.startTicket')}: ${c.name}`}
          icon={<MessageSquarePlus className="size-4" />}
          onClick={() => startTicket.start(c)}
          disabled={startTicket.busy}
        />
      )}
    </RowActions>
  )

  const nameCell = (c: ContactDto) => (
    <div className="flex min-w-0 items-center gap-3">
      <ContactAvatar name={c.name} url={c.profilePicUrl} isGroup={c.isGroup} size={32} />
      <span className="truncate font-medium text-fg">{c.name}</span>
    </div>
  )

  const columns: Column<ContactDto>[] = [
    { key: 'name', header: t('contacts.name'), cell: nameCell, width: '36%' },
    {
      key: 'number',
      header: t('contacts.number'),
      cell: (c) => <span className="text-muted tnum">{c.number}</span>,
      width: '22%',
    },
    {
      key: 'email',
      header: t('contacts.email'),
      cell: (c) => <span className="truncate text-muted">{c.email}</span>,
    },
    actionsColumn(actions, '132px'),
  ]

  const mobileCard = (c: ContactDto) => (
    <div className="flex items-center gap-3">
      <ContactAvatar name={c.name} url={c.profilePicUrl} isGroup={c.isGroup} size={40} />
      <div className="min-w-0 flex-1">
        <div className="truncate font-medium text-fg">{c.name}</div>
        <div className="truncate text-[13px] text-muted tnum">{c.number}</div>
        {c.email && <div className="truncate text-subtle text-xs">{c.email}</div>}
      </div>
      {actions(c)}
    </div>
  )

  return (
    <LiveListPage
      title={t('contacts.title')}
      subtitle={list.count != null ? t('contacts.count', { count: list.count }) : undefined}
      actions={
        canTransfer && (
          <>
            <Button
              variant="secondary"
              icon={<Upload className="size-4" />}
              onClick={() => setImporting(true)}
            >
              {t('contactLists.importButton')}
            </Button>
            <Button
              variant="secondary"
              icon={<Download className="size-4" />}
              onClick={() => exportAs('csv')}
            >
              {t('contactLists.exportCsv')}
            </Button>
            <Button
              variant="secondary"
              icon={<Download className="size-4" />}
              onClick={() => exportAs('xlsx')}
            >
              {t('contactLists.exportXlsx')}
            </Button>
          </>
        )
      }
      add={{
        label: t('contacts.add'),
        onClick: () => setDialog({ id: null }),
        icon: <UserPlus className="size-4" />,
      }}
      list={list}
      search={search}
      onSearch={setSearch}
      searchLabel={t('contacts.search')}
      term={term}
      noMatches={{ title: t('contacts.emptyTitle'), text: t('contacts.emptySearch', { term }) }}
      rowKey={contactId}
      columns={columns}
      mobileCard={mobileCard}
      empty={{ icon: <BookUser />, title: t('contacts.emptyTitle'), text: t('contacts.emptyText') }}
    >
      {dialog && (
        <ContactDialog
          open
          contactId={dialog.id}
          onClose={() => setDialog(null)}
          onSaved={(c) => upsert(c)}
        />
      )}
      {startTicket.dialog}
      <ConfirmDialog open={!!deleting} onClose={() => setDeleting(null)} onConfirm={confirmDelete} />
      {importing && canTransfer && (
        <ImportDialog
          open
          onClose={() => setImporting(false)}
          uploadPath="/contacts/import"
          jobPath={(id) => `/contacts/import/${id}`}
          onDone={() => list.reload()}
          showSample={can(currentUser.value, 'drawer-admin-items:view')}
        />
      )}
    </LiveListPage>
  )
}
