import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ScheduleDto } from '../../../shared/scheduled-messages'
import { ApiError, api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { toast } from '../../state/toast'
import {
  type ContactRef,
  emptySchedule,
  formOf,
  type ScheduleErrors,
  type ScheduleForm,
  scheduleBodyOf,
  validateSchedule,
} from './scheduleForm'

const IMAGE_TYPES = ['image/png', 'image/jpeg']

export type LoadedSchedule =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; record: ScheduleDto | null }

export type ScheduleEditorProps = {
  open: boolean
  scheduleId?: number
  initialContact?: ContactRef | null
  /** A new schedule's connection (the ticket's, from the conversation). */
  initialWhatsappId?: number | null
  timeZone: string
  now: number
  onClose: () => void
  onSaved?: (s: ScheduleDto) => void
}

/**
 * A schedule being added or edited: the saved one loaded, the form and its errors (the client's once submitted,
 * the server's per field), the image to attach or drop, and `submit`, which saves the schedule, then its image.
 */
export function useScheduleEditor({
  open,
  scheduleId,
  initialContact = null,
  initialWhatsappId = null,
  timeZone,
  now,
  onClose,
  onSaved,
}: ScheduleEditorProps) {
  const { t } = useTranslation()
  const creating = scheduleId == null
  const [loaded, setLoaded] = useState<LoadedSchedule>(
    creating ? { status: 'ready', record: null } : { status: 'loading' },
  )
  const [form, setForm] = useState<ScheduleForm>(() =>
    emptySchedule(now, timeZone, initialContact, initialWhatsappId),
  )
  const [submitted, setSubmitted] = useState(false)
  const [serverErrors, setServerErrors] = useState<ScheduleErrors>({})
  const [saving, setSaving] = useState(false)
  const [file, setFile] = useState<File | null>(null)
  const [dropMedia, setDropMedia] = useState(false)

  useEffect(() => {
    if (!open || creating) return
    const ctrl = new AbortController()
    api
      .get<ScheduleDto>(`/schedules/${scheduleId}`, { signal: ctrl.signal })
      .then((record) => {
        setForm(formOf(record, timeZone))
        setLoaded({ status: 'ready', record })
      })
      .catch((err) => {
        if (!ctrl.signal.aborted) setLoaded({ status: 'error', message: errorMessage(err) })
      })
    return () => ctrl.abort()
  }, [open, creating, scheduleId, timeZone])

  const record = loaded.status === 'ready' ? loaded.record : null
  const locked = !!record?.sentAt
  const clientErrors = submitted ? validateSchedule(form, timeZone, t) : {}
  const errors: ScheduleErrors = { ...serverErrors, ...clientErrors }
  const set = <K extends keyof ScheduleForm>(key: K, value: ScheduleForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    setServerErrors((e) => ({ ...e, [key]: undefined }))
  }

  const pickFile = (f: File | null) => {
    if (f && !IMAGE_TYPES.includes(f.type) && !/\.(png|jpe?g)$/i.test(f.name)) {
      setServerErrors((e) => ({ ...e, file: t('schedules.onlyImages') }))
      return
    }
    setServerErrors((e) => ({ ...e, file: undefined }))
    setFile(f)
    setDropMedia(false)
  }

  const submit = async () => {
    if (locked || saving) return
    setSubmitted(true)
    if (Object.values(validateSchedule(form, timeZone, t)).some(Boolean)) return
    setSaving(true)
    try {
      const body = scheduleBodyOf(form, timeZone)
      let saved = creating
        ? await api.post<ScheduleDto>('/schedules', body)
        : await api.put<ScheduleDto>(`/schedules/${scheduleId}`, body)
      if (file) {
        const data = new FormData()
        data.append('file', file)
        saved = await api.post<ScheduleDto>(`/schedules/${saved.id}/media-upload`, data)
      } else if (dropMedia && saved.mediaPath) {
        saved = await api.delete<ScheduleDto>(`/schedules/${saved.id}/media-upload`)
      }
      toast.success(creating ? t('schedules.created') : t('schedules.saved'))
      onSaved?.(saved)
      onClose()
    } catch (err) {
      if (err instanceof ApiError && err.fields.length) {
        const next: ScheduleErrors = {}
        for (const f of err.fields) {
          const key = f.field === 'contactId' ? 'contact' : f.field.startsWith('repeat') ? 'until' : f.field
          if (['contact', 'body', 'sendAt', 'until', 'weekdays', 'file'].includes(key))
            next[key as keyof ScheduleErrors] = f.field === 'body' ? t('schedules.bodyTooShort') : f.message
        }
        if (Object.keys(next).length) setServerErrors(next)
        else toastError(err)
      } else toastError(err)
    } finally {
      setSaving(false)
    }
  }

  const removeFile = () => {
    setFile(null)
    setDropMedia(true)
  }
  const currentMedia = !dropMedia && !file ? record?.mediaName : null

  return {
    creating,
    loaded,
    locked,
    form,
    set,
    errors,
    saving,
    submit,
    file,
    currentMedia,
    pickFile,
    removeFile,
  }
}
