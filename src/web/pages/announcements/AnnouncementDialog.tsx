import { ImagePlus, Trash2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  type AnnouncementDto,
  type AnnouncementPriority,
  DEFAULT_ANNOUNCEMENT_PRIORITY,
} from '../../../shared/announcements'
import { ANNOUNCEMENT_TEXT_MAX, ANNOUNCEMENT_TITLE_MAX } from '../../../shared/schemas/announcements'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { FormSkeleton } from '../../components/FormSkeleton'
import { loadRecord, type RecordDialogProps } from '../../components/recordDialog'
import { Button } from '../../components/ui/Button'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Select } from '../../components/ui/Select'
import { Switch } from '../../components/ui/Switch'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { toast } from '../../state/toast'

export type AnnouncementForm = {
  title: string
  text: string
  priority: AnnouncementPriority
  status: boolean
  /** The image the record has, until removed. */
  mediaName: string | null
  mediaUrl: string | null
  /** An image chosen to attach (uploaded after the save). */
  file: File | null
}

export const EMPTY_ANNOUNCEMENT: AnnouncementForm = {
  title: '',
  text: '',
  priority: DEFAULT_ANNOUNCEMENT_PRIORITY,
  status: true,
  mediaName: null,
  mediaUrl: null,
  file: null,
}

/** The spec: .png, .jpg, .jpeg (the server checks the bytes). */
const IMAGE_TYPES = ['image/png', 'image/jpeg']
export const isAllowedImage = (file: File) =>
  IMAGE_TYPES.includes(file.type) || /\.(png|jpe?g)$/i.test(file.name)

/** The body of POST / PUT /api/announcements (the image goes through the media upload). */
export function announcementBodyOf(form: AnnouncementForm) {
  return { title: form.title.trim(), text: form.text, priority: form.priority, status: form.status }
}

function formOf(record: AnnouncementDto): AnnouncementForm {
  return {
    title: record.title,
    text: record.text,
    priority: record.priority,
    status: record.status,
    mediaName: record.mediaName,
    mediaUrl: record.mediaUrl,
    file: null,
  }
}

/** The spec's 'Obrigatório' for a missing title or text; the server's limits. */
export function validateAnnouncement(
  form: AnnouncementForm,
  t: (k: string) => string,
): FieldErrors<AnnouncementForm> {
  const errors: FieldErrors<AnnouncementForm> = {}
  const title = form.title.trim()
  if (!title) errors.title = t('announcements.required')
  else if (title.length > ANNOUNCEMENT_TITLE_MAX) errors.title = t('validation.tooLong')
  if (!form.text.trim()) errors.text = t('announcements.required')
  else if (form.text.length > ANNOUNCEMENT_TEXT_MAX) errors.text = t('validation.tooLong')
  return errors
}

/** Saves the record, then its image: a new one is uploaded, a removed one deleted. */
async function saveAnnouncement(
  id: number | undefined,
  values: AnnouncementForm,
  initial: AnnouncementForm,
  t: (k: string) => string,
): Promise<AnnouncementDto> {
  let saved =
    id == null
      ? await api.post<AnnouncementDto>('/announcements/', announcementBodyOf(values))
      : await api.put<AnnouncementDto>(`/announcements/${id}`, announcementBodyOf(values))
  try {
    if (values.file) {
      const form = new FormData()
      form.append('file', values.file, values.file.name)
      saved = await api.post<AnnouncementDto>(`/announcements/${saved.id}/media-upload`, form)
    } else if (!values.mediaName && initial.mediaName && saved.mediaPath) {
      saved = await api.delete<AnnouncementDto>(`/announcements/${saved.id}/media-upload`)
    }
  } catch (err) {
    toastError(err)
    toast.error(t('announcements.imageFailed'))
  }
  return saved
}

/** A local preview of a chosen file (revoked when it changes). */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!file) {
      setUrl(null)
      return
    }
    const made = URL.createObjectURL(file)
    setUrl(made)
    return () => URL.revokeObjectURL(made)
  }, [file])
  return url
}

export function AnnouncementDialog({ open, recordId, onClose, onSaved }: RecordDialogProps<AnnouncementDto>) {
  const { t } = useTranslation()
  const creating = recordId == null
  const fileInput = useRef<HTMLInputElement>(null)
  const [fileError, setFileError] = useState<string | null>(null)
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY_ANNOUNCEMENT,
    load: loadRecord('/announcements', recordId, formOf),
    loadKey: recordId,
    validate: (v) => validateAnnouncement(v, t),
    save: (v, initial) => saveAnnouncement(recordId, v, initial, t),
    savedMessage: t('announcements.saved'),
  })
  const { values, errors, set } = form
  const localPreview = useObjectUrl(values.file)
  const preview = localPreview ?? values.mediaUrl
  const imageName = values.file?.name ?? values.mediaName

  const priorities: { value: AnnouncementPriority; label: string; color: string }[] = [
    { value: 1, label: t('announcements.priority1'), color: 'var(--color-danger)' },
    { value: 2, label: t('announcements.priority2'), color: 'var(--color-warning)' },
    { value: 3, label: t('announcements.priority3'), color: 'var(--color-subtle)' },
  ]

  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('announcements.addTitle') : t('announcements.editTitle')}
      size="md"
      skeleton={<FormSkeleton bars={['h-10 w-full', 'h-32 w-full', 'h-10 w-1/2']} />}
    >
      <div className="flex flex-col gap-5">
        <Field label={t('announcements.titleField')} error={errors.title} required>
          <Input
            value={values.title}
            onChange={(e) => set('title', e.target.value)}
            autoFocus
            autoComplete="off"
            maxLength={ANNOUNCEMENT_TITLE_MAX + 20}
          />
        </Field>
        <Field label={t('announcements.text')} error={errors.text} required>
          <Textarea
            value={values.text}
            onChange={(e) => set('text', e.target.value)}
            rows={6}
            maxLength={ANNOUNCEMENT_TEXT_MAX + 100}
          />
        </Field>
        <div className="grid items-end gap-4 sm:grid-cols-2">
          <Field label={t('announcements.priority')} as="group">
            <Select<AnnouncementPriority>
              aria-label={t('announcements.priority')}
              value={values.priority}
              onChange={(v) => set('priority', v)}
              options={priorities}
            />
          </Field>
          <Switch
            checked={values.status}
            onChange={(v) => set('status', v)}
            label={t('announcements.active')}
            description={t('announcements.activeHint')}
          />
        </div>
        <Field
          label={t('announcements.image')}
          hint={t('announcements.imageHint')}
          error={fileError ?? undefined}
          as="group"
        >
          <div className="flex flex-col gap-2">
            {preview && (
              <div className="relative overflow-hidden rounded-lg border border-border bg-surface-2">
                <img
                  src={preview}
                  alt={imageName ?? t('announcements.image')}
                  className="max-h-48 w-full object-contain"
                  data-testid="announcement-preview"
                />
              </div>
            )}
            <div className="flex min-h-10 flex-wrap items-center gap-2">
              {imageName ? (
                <span className="min-w-0 flex-1 truncate text-sm max-sm:basis-full" title={imageName}>
                  {imageName}
                </span>
              ) : (
                <span className="flex-1 text-muted text-sm">{t('announcements.noImage')}</span>
              )}
              <Button
                type="button"
                variant="secondary"
                size="sm"
                icon={<ImagePlus className="size-4" />}
                onClick={() => fileInput.current?.click()}
              >
                {imageName ? t('announcements.replaceImage') : t('announcements.chooseImage')}
              </Button>
              {imageName && (
                <Button
                  type="button"
                  variant="ghost"
                  size="sm"
                  icon={<Trash2 className="size-4" />}
                  onClick={() => {
                    set('file', null)
                    set('mediaName', null)
                    set('mediaUrl', null)
                    setFileError(null)
                  }}
                >
                  {t('announcements.removeImage')}
                </Button>
              )}
              <input
                ref={fileInput}
                type="file"
                hidden
                accept=".png,.jpg,.jpeg,image/png,image/jpeg"
                data-testid="announcement-file"
                onChange={(e) => {
                  const file = e.target.files?.[0]
                  e.target.value = ''
                  if (!file) return
                  if (!isAllowedImage(file)) {
                    setFileError(t('announcements.onlyImages'))
                    return
                  }
                  setFileError(null)
                  set('file', file)
                }}
              />
            </div>
          </div>
        </Field>
      </div>
    </FormDialog>
  )
}
