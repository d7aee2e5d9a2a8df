import { api } from '../api/client'

/** The props of a dialog that adds a record (no `recordId`) or edits the one it loads by id. */
export type RecordDialogProps<R> = {
  open: boolean
  recordId?: number
  onClose: () => void
  onSaved?: (record: R) => void
}

/** The props of a dialog that adds a record or edits the one its list already holds. */
export type RecordEditDialogProps<R> = {
  open: boolean
  /** The record to edit; left out to add one. */
  record?: R
  onClose: () => void
  onSaved?: (record: R) => void
}

/** `useFormDialog`'s `load` for `GET {path}/{id}`: none when adding. */
export function loadRecord<R, V>(path: string, id: number | undefined, formOf: (record: R) => V) {
  return id == null ? null : (signal: AbortSignal) => api.get<R>(`${path}/${id}`, { signal }).then(formOf)
}

/** `POST {path}` to add, `PUT {path}/{id}` to edit. */
export function saveRecord<R>(path: string, id: number | undefined, body: unknown): Promise<R> {
  return id == null ? api.post<R>(path, body) : api.put<R>(`${path}/${id}`, body)
}
