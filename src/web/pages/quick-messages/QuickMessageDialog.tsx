import { FileText, Paperclip, X } from 'lucide-react'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import type { QuickMessageDto } from '../../../shared/api'
import { quickMessageBody, SHORTCODE_MAX } from '../../../shared/schemas/quick-messages'
import { ApiError, api } from '../../api/client'
import { toastError } from '../../api/errors'
import { Button } from '../../components/ui/Button'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Skeleton } from '../../components/ui/Skeleton'
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
    saved =
      id == null
        ? await api.post<QuickMessageDto>('/quick-messages', quickMessageBodyOf(values))
        : await api.put<QuickMessageDto>(`/quick-messages/${id}`, quickMessageBodyOf(values))
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
}: {
  open: boolean
  recordId?: number
  onClose: () => void
  onSaved?: (record: QuickMessageDto) => void
}) {
  const { t } = useTranslation()
  const creating = recordId == null
  const fileInput = useRef<HTMLInputElement>(null)
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY_QUICK_MESSAGE,
    load: creating
      ? null
      : (signal) => api.get<QuickMessageDto>(`/quick-messages/${recordId}`, { signal }).then(formOf),
    loadKey: recordId,
    validate: (v) => validateQuickMessage(v, t),
    save: (v, initial) => saveQuickMessage(recordId, v, initial, t),
    savedMessage: creating ? t('quickMessages.created') : t('quickMessages.saved'),
  })
  const { values, errors, set } = form
  const attachedName = values.file?.name ?? values.mediaName
  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('quickMessages.addTitle') : t('quickMessages.editTitle')}
      size="md"
      skeleton={
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-28 w-full" />
          <Skeleton className="h-10 w-1/2" />
        </div>
      }
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
          <div className="flex min-h-10 items-center gap-2">
            {attachedName ? (
              <span className="inline-flex min-w-0 items-center gap-2 rounded-lg border border-border bg-surface-2 px-2.5 py-1.5 text-sm">
                <FileText className="size-4 shrink-0 text-muted" aria-hidden />
                <span className="truncate" title={attachedName}>
                  {attachedName}
                </span>
                <button
                  type="button"
                  onClick={() => {
                    set('file', null)
                    set('mediaName', null)
                  }}
                  className="flex size-6 shrink-0 items-center justify-center rounded-full text-muted hover:bg-surface-3 hover:text-fg"
                  aria-label={t('quickMessages.removeAttachment')}
                  title={t('quickMessages.removeAttachment')}
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </span>
            ) : (
              <span className="text-muted text-sm">{t('quickMessages.noAttachment')}</span>
            )}
            <Button
              type="button"
              variant="secondary"
              size="sm"
              icon={<Paperclip className="size-4" />}
              onClick={() => fileInput.current?.click()}
            >
              {attachedName ? t('quickMessages.replaceAttachment') : t('quickMessages.attach')}
            </Button>
            <input
              ref={fileInput}
              type="file"
              hidden
              data-testid="quick-message-file"
              onChange={(e) => {
                const file = e.target.files?.[0]
                if (file) set('file', file)
                e.target.value = ''
              }}
            />
          </div>
        </Field>
        <div className="flex flex-col gap-1">
          <Switch
            checked={values.geral}
            onChange={(v) => set('geral', v)}
            label={t('quickMessages.geral')}
            description={t('quickMessages.geralHint')}
          />
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
