import { useTranslation } from 'react-i18next'
import type { QuickMessageDto } from '../../../shared/api'
import { quickMessageBody, SHORTCODE_MAX } from '../../../shared/schemas/quick-messages'
import { ApiError, api } from '../../api/client'
import { toastError } from '../../api/errors'
import { AttachmentPicker } from '../../components/AttachmentField'
import { FormSkeleton } from '../../components/FormSkeleton'
import { loadRecord, type RecordDialogProps, saveRecord } from '../../components/recordDialog'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Switch } from '../../components/ui/Switch'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { toast } from '../../state/toast'

export type QuickMessageForm = {
  shortcode: string
  message: string
  geral: boolean
  status: boolean
  /** The attachment the record has (its name), until removed. */
  mediaName: string | null
  /** A file chosen to attach (uploaded after the save). */
  file: File | null
}

export const EMPTY_QUICK_MESSAGE: QuickMessageForm = {
  shortcode: '',
  message: '',
  geral: false,
  status: true,
  mediaName: null,
  file: null,
}

/** The body of POST / PUT /api/quick-messages (a leading '/' is the server's to drop, as is the attachment). */
export function quickMessageBodyOf(form: QuickMessageForm) {
  return { shortcode: form.shortcode.trim(), message: form.message, geral: form.geral, status: form.status }
}

function formOf(record: QuickMessageDto): QuickMessageForm {
  return {
    shortcode: record.shortcode,
    message: record.message,
    geral: record.geral,
    status: record.status,
    mediaName: record.mediaName,
    file: null,
  }
}

/** The server's schema, with the spec's 'Obrigatório' for a missing shortcode. */
export function validateQuickMessage(
  form: QuickMessageForm,
  t: (k: string) => string,
): FieldErrors<QuickMessageForm> {
  const errors: FieldErrors<QuickMessageForm> = {}
  const code = form.shortcode.trim().replace(/^\/+/, '')
  if (!code) errors.shortcode = t('quickMessages.required')
  else if (/\s/.test(code)) errors.shortcode = t('quickMessages.shortcodeSpaces')
  else if (code.length > SHORTCODE_MAX) errors.shortcode = t('validation.tooLong')
  const parsed = quickMessageBody(quickMessageBodyOf(form))
  if (!errors.shortcode && parsed instanceof Error) errors.message = t('validation.tooLong')
  return errors
}

/** A taken shortcode, shown under the field in the user's language. */
function withShortcodeMessage(err: unknown, t: (k: string) => string): unknown {
  if (err instanceof ApiError && err.code === 'ERR_QUICK_MESSAGE_SHORTCODE_EXISTS') {
    const message = t('quickMessages.shortcodeTaken')
    return new ApiError(err.status, 'ERR_VALIDATION', message, [{ field: 'shortcode', message }])
  }
  return err
}

/**
 * Saves the record, then its attachment: a new file is uploaded (POST media-upload, `typeArch` quickMessage),
 * a removed one deleted. A failed upload keeps the saved text and says so.
 */
async function saveQuickMessage(
  id: number | undefined,
  values: QuickMessageForm,
  initial: QuickMessageForm,
  t: (k: string) => string,
): Promise<QuickMessageDto> {
  let saved: QuickMessageDto
  try {
    saved = await saveRecord<QuickMessageDto>('/quick-messages', id, quickMessageBodyOf(values))
  } catch (err) {
    throw withShortcodeMessage(err, t)
  }
  try {
    if (values.file) {
      const form = new FormData()
      form.append('typeArch', 'quickMessage')
      form.append('file', values.file, values.file.name)
      saved = await api.post<QuickMessageDto>(`/quick-messages/${saved.id}/media-upload`, form)
    } else if (!values.mediaName && initial.mediaName && saved.isMedia) {
      saved = await api.delete<QuickMessageDto>(`/quick-messages/${saved.id}/media-upload`)
    }
  } catch (err) {
    toastError(err)
    toast.error(t('quickMessages.attachFailed'))
  }
  return saved
}

export function QuickMessageDialog({
  open,
  recordId,
  onClose,
  onSaved,
  mayShare = false,
}: RecordDialogProps<QuickMessageDto> & {
  /** Only admins make a quick message company-wide: the switch is not offered to attendants. */
  mayShare?: boolean
}) {
  const { t } = useTranslation()
  const creating = recordId == null
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY_QUICK_MESSAGE,
    load: loadRecord('/quick-messages', recordId, formOf),
    loadKey: recordId,
    validate: (v) => validateQuickMessage(v, t),
    save: (v, initial) => saveQuickMessage(recordId, v, initial, t),
    savedMessage: creating ? t('quickMessages.created') : t('quickMessages.saved'),
  })
  const { values, errors, set } = form
  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('quickMessages.addTitle') : t('quickMessages.editTitle')}
      size="md"
      skeleton={<FormSkeleton bars={['h-10 w-full', 'h-28 w-full', 'h-10 w-1/2']} />}
    >
      <div className="flex flex-col gap-5">
        <Field
          label={t('quickMessages.shortcode')}
          error={errors.shortcode}
          hint={t('quickMessages.shortcodeHint')}
          required
        >
          <Input
            value={values.shortcode}
            onChange={(e) => set('shortcode', e.target.value)}
            autoFocus
            autoComplete="off"
            maxLength={SHORTCODE_MAX + 10}
          />
        </Field>
        <Field label={t('quickMessages.message')} error={errors.message}>
          <Textarea value={values.message} onChange={(e) => set('message', e.target.value)} rows={5} />
        </Field>
        <Field label={t('quickMessages.attachment')} as="group">
          <AttachmentPicker
            name={values.file?.name ?? values.mediaName}
            onPick={(file) => set('file', file)}
            onRemove={() => {
              set('file', null)
              set('mediaName', null)
            }}
            labels={{
              none: t('quickMessages.noAttachment'),
              attach: t('quickMessages.attach'),
              replace: t('quickMessages.replaceAttachment'),
              remove: t('quickMessages.removeAttachment'),
            }}
            testId="quick-message-file"
          />
        </Field>
        <div className="flex flex-col gap-1">
          {mayShare && (
            <Switch
              checked={values.geral}
              onChange={(v) => set('geral', v)}
              label={t('quickMessages.geral')}
              description={t('quickMessages.geralHint')}
            />
          )}
          <Switch
            checked={values.status}
            onChange={(v) => set('status', v)}
            label={t('quickMessages.status')}
            description={t('quickMessages.statusHint')}
          />
        </div>
      </div>
    </FormDialog>
  )
}
