import { Paperclip, Trash2 } from 'lucide-react'
import { useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/Button'
import { Field } from '../../components/ui/Field'

/** The schedule's image: choose a PNG or JPEG, see its name (the new one or the saved one), remove it. */
export function AttachmentField({
  name,
  error,
  locked,
  onPick,
  onRemove,
}: {
  /** The chosen file's name, else the saved image's. */
  name: string | null | undefined
  error?: string
  locked: boolean
  onPick: (file: File | null) => void
  onRemove: () => void
}) {
  const { t } = useTranslation()
  const fileInput = useRef<HTMLInputElement>(null)
  return (
    <Field label={t('schedules.attachment')} error={error} hint={t('schedules.attachmentHint')} as="group">
      <div className="flex items-center gap-2">
        <input
          ref={fileInput}
          type="file"
          accept=".png,.jpg,.jpeg,image/png,image/jpeg"
          className="sr-only"
          aria-label={t('schedules.attachment')}
          onChange={(e) => onPick(e.target.files?.[0] ?? null)}
        />
        <Button
          variant="secondary"
          size="sm"
          icon={<Paperclip className="size-4" />}
          onClick={() => fileInput.current?.click()}
          disabled={locked}
        >
          {t('schedules.chooseFile')}
        </Button>
        {name && (
          <span className="flex min-w-0 items-center gap-1 text-sm">
            <span className="truncate">{name}</span>
            {!locked && (
              <button
                type="button"
                className="rounded p-1 text-muted hover:text-danger"
                aria-label={t('schedules.removeFile')}
                title={t('schedules.removeFile')}
                onClick={() => {
                  onRemove()
                  if (fileInput.current) fileInput.current.value = ''
                }}
              >
                <Trash2 className="size-4" />
              </button>
            )}
          </span>
        )}
      </div>
    </Field>
  )
}
