import { useSignals } from '@preact/signals-react/runtime'
import { Plus, UserPlus, Users } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { UserDto } from '../../../shared/api'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { LiveTableCard } from '../../components/LiveTableCard'
import { Page } from '../../components/layout/Page'
import { actionsColumn, RowActions } from '../../components/RowActions'
import { Avatar } from '../../components/ui/Avatar'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { EmptyState } from '../../components/ui/EmptyState'
import type { Column } from '../../components/ui/Table'
import { useDebounced } from '../../lib/useDebounced'
import { useLiveList } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { usersList } from '../../state/users'
import { UserDialog } from './UserDialog'

const userId = (u: UserDto) => u.id

/** Spec: search debounce 500 ms. */
export const SEARCH_DEBOUNCE = 500

export function UsersPage() {
  useSignals()
  const { t } = useTranslation()
  const me = currentUser.value
  const [search, setSearch] = useState('')
  const term = useDebounced(search.trim(), SEARCH_DEBOUNCE)
  const [dialog, setDialog] = useState<{ mode: 'create' | 'edit'; id?: number } | null>(null)
  const [deleting, setDeleting] = useState<UserDto | null>(null)

  const list = useLiveList(usersList, { search: term })
  const { upsert, remove } = list

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await api.delete(`/users/${deleting.id}`)
      remove(deleting.id)
      toast.success(t('users.deleted'))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  // No one deletes themselves: their own delete button shows, disabled.
  const actions = (u: UserDto) => (
    <RowActions
      name={u.name}
      onEdit={() => setDialog({ mode: 'edit', id: u.id })}
      onDelete={() => setDeleting(u)}
      deleteDisabled={u.id === me?.id}
    />
  )

  const profileBadge = (u: UserDto) => (
    <Badge tone={u.profile === 'admin' ? 'brand' : 'neutral'}>{t(`users.profiles.${u.profile}`)}</Badge>
  )

  const nameCell = (u: UserDto) => (
    <div className="flex min-w-0 items-center gap-3">
      <Avatar name={u.name} size={30} />
      <span className="truncate font-medium text-fg">{u.name}</span>
      {u.id === me?.id && <span className="text-subtle text-xs">({t('users.you')})</span>}
    </div>
  )

  const columns: Column<UserDto>[] = [
    { key: 'name', header: t('users.name'), cell: nameCell, width: '28%' },
    { key: 'email', header: t('users.email'), cell: (u) => <span className="text-muted">{u.email}</span> },
    { key: 'profile', header: t('users.profile'), cell: profileBadge, width: '130px' },
    {
      key: 'startWork',
      header: t('users.startWorkShort'),
      cell: (u) => <span className="tnum">{u.startWork}</span>,
      width: '90px',
    },
    {
      key: 'endWork',
      header: t('users.endWorkShort'),
      cell: (u) => <span className="tnum">{u.endWork}</span>,
      width: '90px',
    },
    actionsColumn(actions, '96px'),
  ]

  const mobileCard = (u: UserDto) => (
    <div className="flex items-center gap-3">
      <Avatar name={u.name} size={36} />
      <div className="min-w-0 flex-1">
        <div className="flex items-center gap-2">
          <span className="truncate font-medium text-fg">{u.name}</span>
          {profileBadge(u)}
        </div>
        <div className="truncate text-muted text-[13px]">{u.email}</div>
        <div className="text-subtle text-xs tnum">
          {u.startWork}–{u.endWork}
        </div>
      </div>
      {actions(u)}
    </div>
  )

  return (
    <Page
      title={t('users.title')}
      subtitle={list.count != null ? t('users.count', { count: list.count }) : undefined}
      actions={
        <Button icon={<Plus className="size-4" />} onClick={() => setDialog({ mode: 'create' })}>
          {t('users.add')}
        </Button>
      }
    >
      <LiveTableCard
        list={list}
        search={search}
        onSearch={setSearch}
        searchLabel={t('users.search')}
        term={term}
        noMatches={{ title: t('users.emptyTitle'), text: t('users.emptySearch', { term }) }}
        label={t('users.title')}
        rowKey={userId}
        columns={columns}
        mobileCard={mobileCard}
        empty={
          <EmptyState
            icon={<Users />}
            title={t('users.emptyTitle')}
            action={
              <Button icon={<UserPlus className="size-4" />} onClick={() => setDialog({ mode: 'create' })}>
                {t('users.add')}
              </Button>
            }
          >
            {t('users.emptyText')}
          </EmptyState>
        }
      />
      {dialog && (
        <UserDialog
          open
          mode={dialog.mode}
          userId={dialog.id}
          onClose={() => setDialog(null)}
          onSaved={(u) => upsert(u)}
        />
      )}
      <ConfirmDialog open={!!deleting} onClose={() => setDeleting(null)} onConfirm={confirmDelete} />
    </Page>
  )
}
