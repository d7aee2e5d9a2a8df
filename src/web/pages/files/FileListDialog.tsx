import { Paperclip, Plus, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import {
  FILE_MESSAGE_MAX,
  FILE_NAME_MAX,
  FILE_NAME_MIN,
  FILE_OPTION_NAME_MAX,
  FILE_OPTIONS_MAX,
  type FileListDto,
} from '../../../shared/files'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { AttachmentChip } from '../../components/AttachmentField'
import { FormSkeleton } from '../../components/FormSkeleton'
import { loadRecord, type RecordDialogProps, saveRecord } from '../../components/recordDialog'
import { Button, IconButton } from '../../components/ui/Button'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { toast } from '../../state/toast'

/** An option as edited: `id` when the list has it already; a chosen `file` is uploaded after the save. */
export type FileOptionRow = {
  uid: number
  id?: number
  name: string
  /** The attachment the option has (its name), until removed. */
  mediaName: string | null
  file: File | null
}

export type FileListForm = { name: string; message: string; options: FileOptionRow[] }

export const EMPTY_FILE_LIST: FileListForm = { name: '', message: '', options: [] }

let nextUid = 1

function formOf(record: FileListDto): FileListForm {
  return {
    name: record.name,
    message: record.message,
    options: record.options.map((o) => ({
      uid: nextUid++,
      id: o.id,
      name: o.name,
      mediaName: o.mediaName,
      file: null,
    })),
  }
}

/** The body of POST / PUT /api/files: an option whose attachment was removed says so. */
export function fileListBodyOf(form: FileListForm, initial: FileListForm) {
  const had = new Map(initial.options.map((o) => [o.id, o.mediaName]))
  return {
    name: form.name.trim(),
    message: form.message,
    options: form.options.map((o) => ({
      ...(o.id != null ? { id: o.id } : {}),
      name: o.name.trim(),
      ...(o.id != null && had.get(o.id) && !o.mediaName && !o.file ? { removeAttachment: true } : {}),
    })),
  }
}

export function validateFileList(form: FileListForm, t: (k: string) => string): FieldErrors<FileListForm> {
  const errors: FieldErrors<FileListForm> = {}
  const name = form.name.trim()
  if (!name) errors.name = t('files.required')
  else if (name.length < FILE_NAME_MIN) errors.name = t('files.nameTooShort')
  else if (name.length > FILE_NAME_MAX) errors.name = t('files.tooLong')
  if (!form.message.trim()) errors.message = t('files.required')
  else if (form.message.length > FILE_MESSAGE_MAX) errors.message = t('files.tooLong')
  if (form.options.some((o) => !o.name.trim())) errors.options = t('files.required')
  else if (form.options.some((o) => o.name.trim().length > FILE_OPTION_NAME_MAX))
    errors.options = t('files.tooLong')
  return errors
}

/**
 * Saves the list, then the options' new files in one `POST /files/uploadList/{id}` (the spec's multipart:
 * fileId, typeArch fileList, and per option its file, mediaType, name and id). New options get their ids from
 * the answer: they are the ids the list did not have, in the order the rows were sent.
 */
async function saveFileList(
  id: number | undefined,
  values: FileListForm,
  initial: FileListForm,
  t: (k: string) => string,
): Promise<FileListDto> {
  const body = fileListBodyOf(values, initial)
  let saved = await saveRecord<FileListDto>('/files', id, body)
  const known = new Set(values.options.map((o) => o.id).filter((x) => x != null))
  const fresh = saved.options.filter((o) => !known.has(o.id)).map((o) => o.id)
  let n = 0
  const uploads: { id: number; name: string; file: File }[] = []
  for (const row of values.options) {
    const optionId = row.id ?? fresh[n++]
    if (row.file && optionId != null) uploads.push({ id: optionId, name: row.name.trim(), file: row.file })
  }
  if (uploads.length) {
    try {
      const form = new FormData()
      form.append('fileId', String(saved.id))
      form.append('typeArch', 'fileList')
      for (const u of uploads) {
        form.append('files', u.file, u.file.name)
        form.append('mediaType', u.file.type)
        form.append('name', u.name)
        form.append('id', String(u.id))
      }
      saved = await api.post<FileListDto>(`/files/uploadList/${saved.id}`, form)
    } catch (err) {
      toastError(err)
      toast.error(t('files.attachFailed'))
    }
  }
  return saved
}

function OptionRow({
  row,
  invalid,
  onChange,
  onRemove,
}: {
  row: FileOptionRow
  invalid: boolean
  onChange: (row: FileOptionRow) => void
  onRemove: () => void
}) {
  const { t } = useTranslation()
  const attached = row.file?.name ?? row.mediaName
  return (
    <li className="flex flex-col gap-2 rounded-lg border border-border p-3" data-testid="file-option">
      <div className="flex items-center gap-2">
        <Input
          aria-label={t('files.optionName')}
          placeholder={t('files.optionName')}
          value={row.name}
          invalid={invalid && !row.name.trim()}
          maxLength={FILE_OPTION_NAME_MAX + 10}
          onChange={(e) => onChange({ ...row, name: e.target.value })}
        />
        <IconButton
          size="sm"
          variant="danger-ghost"
          label={t('files.removeOption')}
          icon={<Trash2 className="size-4" />}
          onClick={onRemove}
        />
      </div>
      <div className="flex min-h-9 flex-wrap items-center gap-2">
        {attached ? (
          <AttachmentChip
            name={attached}
            removeLabel={t('files.removeAttachment')}
            onRemove={() => onChange({ ...row, file: null, mediaName: null })}
            compact
          />
        ) : (
          <span className="text-muted text-sm">{t('files.noAttachment')}</span>
        )}
        <label className="inline-flex cursor-pointer items-center gap-1.5 rounded-lg border border-border px-2.5 py-1 text-sm hover:bg-surface-2">
          <Paperclip className="size-4" aria-hidden />
          {attached ? t('files.replaceAttachment') : t('files.attach')}
          <input
            type="file"
            hidden
            data-testid="file-option-input"
            onChange={(e) => {
              const file = e.target.files?.[0]
              if (file) onChange({ ...row, file })
              e.target.value = ''
            }}
          />
        </label>
      </div>
    </li>
  )
}

/** The file list dialog (spec 3): name, message and options, each with a name and an optional file. */
export function FileListDialog({ open, recordId, onClose, onSaved }: RecordDialogProps<FileListDto>) {
  const { t } = useTranslation()
  const creating = recordId == null
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY_FILE_LIST,
    load: loadRecord('/files', recordId, formOf),
    loadKey: recordId,
    validate: (v) => validateFileList(v, t),
    save: (v, initial) => saveFileList(recordId, v, initial, t),
    savedMessage: creating ? t('files.created') : t('files.saved'),
  })
  const { values, errors, set } = form
  const setOption = (uid: number, row: FileOptionRow) =>
    set(
      'options',
      values.options.map((o) => (o.uid === uid ? row : o)),
    )
  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('files.addTitle') : t('files.editTitle')}
      size="md"
      skeleton={<FormSkeleton bars={['h-10 w-full', 'h-28 w-full']} />}
    >
      <div className="flex flex-col gap-5">
        <Field label={t('files.name')} error={errors.name} required>
          <Input
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
            autoFocus
            autoComplete="off"
            maxLength={FILE_NAME_MAX + 10}
          />
        </Field>
        <Field label={t('files.message')} error={errors.message} required>
          <Textarea value={values.message} onChange={(e) => set('message', e.target.value)} rows={4} />
        </Field>
        <Field label={t('files.options')} as="group" error={errors.options} hint={t('files.optionsHint')}>
          {values.options.length === 0 ? (
            <p className="text-muted text-sm">{t('files.noOptions')}</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {values.options.map((row) => (
                <OptionRow
                  key={row.uid}
                  row={row}
                  invalid={!!errors.options}
                  onChange={(next) => setOption(row.uid, next)}
                  onRemove={() =>
                    set(
                      'options',
                      values.options.filter((o) => o.uid !== row.uid),
                    )
                  }
                />
              ))}
            </ul>
          )}
          <div>
            <Button
              type="button"
              variant="secondary"
              size="sm"
              icon={<Plus className="size-4" />}
              disabled={values.options.length >= FILE_OPTIONS_MAX}
              onClick={() =>
                set('options', [...values.options, { uid: nextUid++, name: '', mediaName: null, file: null }])
              }
            >
              {t('files.addOption')}
            </Button>
          </div>
        </Field>
      </div>
    </FormDialog>
  )
}
