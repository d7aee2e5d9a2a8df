/**
 * What the tags screen and the Kanban lanes screen (the tags with kanban 1, as cards) share: the debounced
 * search over the live list, the tags' own dialog to add and edit, delete after asking, and the row actions.
 */
import { useSignals } from '@preact/signals-react/runtime'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TagDto } from '../../../shared/api'
import { isAdmin } from '../../../shared/permissions'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { RowActions } from '../../components/RowActions'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { useDebounced } from '../../lib/useDebounced'
import { useLiveList } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { TagDialog } from './TagDialog'
import { lanesList, tagsList } from './tagsList'

/** Spec: search debounce 500 ms. */
export const SEARCH_DEBOUNCE = 500

/**
 * The state of a tags screen: `kanban` lists only the lanes, starts a new tag as a lane and says 'lane deleted'.
 * Render `dialogs` once in the page; `actions(tag, className)` gives a row's edit and delete buttons. Attendants
 * add ordinary tags only; renaming, deleting and the lanes are the admins' (the server answers 403 otherwise), so
 * `mayAdd` is false on the lanes screen for them and `actions` gives nothing.
 */
export function useTagsScreen(kanban: boolean) {
  useSignals()
  const { t } = useTranslation()
  const admin = isAdmin(currentUser.value)
  const mayAdd = admin || !kanban
  const [search, setSearch] = useState('')
  const term = useDebounced(search.trim(), SEARCH_DEBOUNCE)
  const [dialog, setDialog] = useState<{ id?: number } | null>(null)
  const [deleting, setDeleting] = useState<TagDto | null>(null)
  const list = useLiveList(kanban ? lanesList : tagsList, { search: term })
  const { upsert, remove } = list

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await api.delete(`/tags/${deleting.id}`)
      remove(deleting.id)
      toast.success(t(kanban ? 'kanban.laneDeleted' : 'tags.deleted'))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const add = () => setDialog({})

  const actions = (tag: TagDto, className: string) =>
    admin && (
      <RowActions
        name={tag.name}
        className={className}
        onEdit={() => setDialog({ id: tag.id })}
        onDelete={() => setDeleting(tag)}
      />
    )

  const dialogs = (
    <>
      {dialog && (
        <TagDialog
          open
          lane={kanban}
          mayChooseLane={admin}
          tagId={dialog.id}
          onClose={() => setDialog(null)}
          onSaved={(tag) => upsert(tag)}
        />
      )}
      <ConfirmDialog open={!!deleting} onClose={() => setDeleting(null)} onConfirm={confirmDelete} />
    </>
  )

  return { search, setSearch, term, list, add, mayAdd, admin, actions, dialogs }
}
