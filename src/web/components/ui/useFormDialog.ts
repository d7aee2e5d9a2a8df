/**
 * The state of a form in a dialog: its values (empty for a new record, loaded for an edit), the field errors
 * (the client's check, then the server's `fields` and field-specific codes), the saving state, the success
 * toast and closing on save.
 *
 *   const form = useFormDialog({
 *     open, onClose, onSaved,
 *     empty: EMPTY_QUEUE,
 *     load: queueId == null ? null : (signal) => api.get(`/queue/${queueId}`, { signal }).then(toForm),
 *     loadKey: queueId,
 *     validate: (v) => schemaErrors(queueBody(toBody(v)), t),
 *     save: (v) => api.post('/queue', toBody(v)),
 *     savedMessage: t('queues.saved'),
 *     codeFields: { ERR_QUEUE_COLOR_ALREADY_EXISTS: 'color' },
 *   })
 *   <FormDialog form={form} title=...>...<Input value={form.values.name} onChange={(e) => form.set('name', ...)} /></FormDialog>
 *
 * Errors show after the first Save: from then on the client's check runs on every change. A server error on a
 * field stays until that field changes. A server error that belongs to no field is a toast.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { ErrorCode } from '../../../shared/errors'
import { ApiError } from '../../api/client'
import { errorMessage, fieldMessage, toastError } from '../../api/errors'
import { toast } from '../../state/toast'

export type FieldErrors<V> = Partial<Record<keyof V & string, string>>

export type FormDialogOptions<V extends object, R> = {
  open: boolean
  onClose: () => void
  onSaved?: (saved: R) => void
  /** The values of a new record (and while an edit loads). */
  empty: V
  /** An edit: loads the values. Called again when `open` or `loadKey` changes. */
  load?: ((signal: AbortSignal) => Promise<V>) | null
  loadKey?: unknown
  /** The client's check: field -> message. `initial` is what the user started from. */
  validate: (values: V, initial: V) => FieldErrors<V>
  save: (values: V, initial: V) => Promise<R>
  /** The success toast. */
  savedMessage: string
  /** Error codes that belong to a field (ERR_EMAIL_ALREADY_EXISTS -> email): shown translated under it. */
  codeFields?: Partial<Record<ErrorCode, keyof V & string>>
  /** Errors were just shown (after Save): for example, open the tab of the first one. */
  onInvalid?: (errors: FieldErrors<V>) => void
}

export type FormDialogState<V extends object> = {
  open: boolean
  values: V
  /** The values as loaded (or `empty`): what the user started from. */
  initial: V
  set: <K extends keyof V>(key: K, value: V[K]) => void
  errors: FieldErrors<V>
  loading: boolean
  loadError: string | null
  submitting: boolean
  submit: () => Promise<void>
}

const hasErrors = (errors: object) => Object.values(errors).some(Boolean)

/** The server's answer mapped onto the form's fields. */
export function serverFieldErrors<V extends object>(
  err: ApiError,
  values: V,
  codeFields: Partial<Record<ErrorCode, keyof V & string>> = {},
): FieldErrors<V> {
  const errors: FieldErrors<V> = {}
  for (const f of err.fields)
    if (f.field in values) errors[f.field as keyof V & string] = fieldMessage(err, f)
  const field = err.code ? codeFields[err.code as ErrorCode] : undefined
  if (field) errors[field] = errorMessage(err)
  return errors
}

export function useFormDialog<V extends object, R>(options: FormDialogOptions<V, R>): FormDialogState<V> {
  const { open, loadKey } = options
  // The latest options, for callbacks that must not restart the loading effect.
  const latest = useRef(options)
  latest.current = options

  const [values, setValues] = useState<V>(options.empty)
  const [initial, setInitial] = useState<V>(options.empty)
  const [serverErrors, setServerErrors] = useState<FieldErrors<V>>({})
  const [submitted, setSubmitted] = useState(false)
  const [loading, setLoading] = useState(!!options.load)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [submitting, setSubmitting] = useState(false)

  // biome-ignore lint/correctness/useExhaustiveDependencies: loadKey says when to load again
  useEffect(() => {
    if (!open) return
    const { empty, load } = latest.current
    setServerErrors({})
    setSubmitted(false)
    setLoadError(null)
    setValues(empty)
    setInitial(empty)
    if (!load) {
      setLoading(false)
      return
    }
    const ctrl = new AbortController()
    setLoading(true)
    load(ctrl.signal)
      .then((loaded) => {
        if (ctrl.signal.aborted) return
        setValues(loaded)
        setInitial(loaded)
      })
      .catch((err) => {
        if (!ctrl.signal.aborted && (err as Error)?.name !== 'AbortError') setLoadError(errorMessage(err))
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setLoading(false)
      })
    return () => ctrl.abort()
  }, [open, loadKey])

  const set = useCallback(<K extends keyof V>(key: K, value: V[K]) => {
    setValues((prev) => ({ ...prev, [key]: value }))
    setServerErrors((prev) => {
      if (!prev[key as keyof V & string]) return prev
      const next = { ...prev }
      delete next[key as keyof V & string]
      return next
    })
  }, [])

  const errors: FieldErrors<V> = submitted
    ? { ...serverErrors, ...dropEmpty(options.validate(values, initial)) }
    : serverErrors

  const submit = async () => {
    const { validate, save, savedMessage, onSaved, onClose, onInvalid, codeFields } = latest.current
    if (submitting) return
    setSubmitted(true)
    const found = dropEmpty(validate(values, initial))
    if (hasErrors(found)) {
      onInvalid?.(found)
      return
    }
    setServerErrors({})
    setSubmitting(true)
    try {
      const saved = await save(values, initial)
      toast.success(savedMessage)
      onSaved?.(saved)
      onClose()
    } catch (err) {
      const mapped = err instanceof ApiError ? serverFieldErrors(err, values, codeFields) : {}
      if (hasErrors(mapped)) {
        setServerErrors(mapped)
        onInvalid?.(mapped)
      } else {
        toastError(err)
      }
    } finally {
      setSubmitting(false)
    }
  }

  return { open, values, initial, set, errors, loading, loadError, submitting, submit }
}

function dropEmpty<E extends object>(errors: E): E {
  const out = {} as E
  for (const [k, v] of Object.entries(errors)) if (v) (out as Record<string, unknown>)[k] = v
  return out
}
