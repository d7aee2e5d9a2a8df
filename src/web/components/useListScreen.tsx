import { useState } from 'react'
import { api } from '../api/client'
import { useDebounced } from '../lib/useDebounced'
import { type LiveListDefinitionHandle, useLiveList } from '../state/liveList'
import { toast } from '../state/toast'
import { RowActions } from './RowActions'
import { ConfirmDialog } from './ui/ConfirmDialog'

/** Spec: search debounce 500 ms. */
export const SEARCH_DEBOUNCE = 500

/** A list screen's search box: what is typed, and the trimmed term once it stopped changing. */
export function useListSearch(ms = SEARCH_DEBOUNCE) {
  const [search, setSearch] = useState('')
  const term = useDebounced(search.trim(), ms)
  return { search, setSearch, term }
}

export type UseRowCrudOptions<T> = {
  /** The DELETE path of a row, e.g. `/files/${id}`. */
  deletePath: (record: T) => string
  /** Takes the deleted row out of the list. */
  remove: (id: number) => void
  /** The success toast. */
  deleted: string
  /** The error toast of a failed delete. */
  deleteFailed: (err: unknown) => string
  /** The confirmation's text; the spec's default when left out. */
  deleteMessage?: string
}

/**
 * A list screen's add/edit dialog state and its delete with the spec's confirmation ('Exclusão de Registro'),
 * then a success or error toast. Render `confirmDelete` once in the page.
 */
export function useRowCrud<T extends { id: number }>({
  deletePath,
  remove,
  deleted,
  deleteFailed,
  deleteMessage,
}: UseRowCrudOptions<T>) {
  const [dialog, setDialog] = useState<{ id?: number } | null>(null)
  const [deleting, setDeleting] = useState<T | null>(null)

  const doDelete = async () => {
    if (!deleting) return
    try {
      await api.delete(deletePath(deleting))
      remove(deleting.id)
      toast.success(deleted)
    } catch (err) {
      toast.error(deleteFailed(err))
      throw err
    }
  }

  const confirmDelete = (
    <ConfirmDialog
      open={!!deleting}
      onClose={() => setDeleting(null)}
      onConfirm={doDelete}
      message={deleteMessage}
    />
  )

  return {
    /** The open dialog: `{}` to add, `{ id }` to edit, null when closed. */
    dialog,
    openAdd: () => setDialog({}),
    openEdit: (id: number) => setDialog({ id }),
    closeDialog: () => setDialog(null),
    askDelete: (record: T) => setDeleting(record),
    confirmDelete,
  }
}

/**
 * A list screen's whole state: the search box, the live list searched by it, the add/edit dialog and the
 * delete. `table` goes to LiveListPage/LiveListTab as is; `rowActions` draws a row's edit and delete buttons.
 */
export function useCrudListScreen<T extends { id: number }>(
  definition: LiveListDefinitionHandle<T, { search: string }>,
  options: Omit<UseRowCrudOptions<T>, 'remove'>,
) {
  const { search, setSearch, term } = useListSearch()
  const list = useLiveList(definition, { search: term })
  const crud = useRowCrud<T>({ ...options, remove: list.remove })
  return {
    list,
    crud,
    term,
    table: { list, search, onSearch: setSearch, term },
    rowActions: (record: T, name: string, disabledReason?: string) => (
      <RowActions
        name={name}
        onEdit={() => crud.openEdit(record.id)}
        onDelete={() => crud.askDelete(record)}
        disabledReason={disabledReason}
      />
    ),
  }
}
