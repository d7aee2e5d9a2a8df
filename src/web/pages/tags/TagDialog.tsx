import { useTranslation } from 'react-i18next'
import type { TagDto } from '../../../shared/api'
import { tagBody } from '../../../shared/schemas/tags'
import { FormSkeleton } from '../../components/FormSkeleton'
import { loadRecord, saveRecord } from '../../components/recordDialog'
import { Field, Input } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Switch } from '../../components/ui/Switch'
import { schemaErrors } from '../../components/ui/schemaErrors'
import { useFormDialog } from '../../components/ui/useFormDialog'
import { ColorPicker, QUEUE_PALETTE } from '../queues/QueueDialog'

export type TagForm = { name: string; color: string; kanban: boolean }

/** A new tag starts with the spec's primary colour. */
export const EMPTY_TAG: TagForm = { name: '', color: QUEUE_PALETTE[0] ?? '#3284FE', kanban: false }
const LANE_TAG: TagForm = { ...EMPTY_TAG, kanban: true }

/** The body of POST / PUT /api/tags. */
export function tagBodyOf(form: TagForm) {
  return { name: form.name.trim(), color: form.color.trim().toUpperCase(), kanban: form.kanban ? 1 : 0 }
}

function formOf(tag: TagDto): TagForm {
  return { name: tag.name, color: tag.color, kanban: tag.kanban === 1 }
}

/** The server's schema, with the spec's message for a short name ('Mensagem muito curta'). */
export function validateTag(form: TagForm, t: (k: string) => string) {
  const errors = schemaErrors<keyof TagForm>(tagBody(tagBodyOf(form)), t, {
    name: 'tags.nameTooShort',
    color: 'tags.invalidColor',
  })
  // Over 50 characters is "too long", not "too short".
  if (errors.name && form.name.trim().length > 50) errors.name = t('validation.tooLong')
  return errors
}

export function TagDialog({
  open,
  tagId,
  onClose,
  onSaved,
  lane = false,
  mayChooseLane = true,
}: {
  open: boolean
  tagId?: number
  onClose: () => void
  onSaved?: (tag: TagDto) => void
  /** The Kanban lanes screen: a new tag starts as a lane (kanban 1). */
  lane?: boolean
  /** Only admins make or change lanes: for attendants the switch is not offered (a new tag is ordinary). */
  mayChooseLane?: boolean
}) {
  const { t } = useTranslation()
  const creating = tagId == null
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: lane ? LANE_TAG : EMPTY_TAG,
    load: loadRecord('/tags', tagId, formOf),
    loadKey: tagId,
    validate: (v) => validateTag(v, t),
    save: (v) => saveRecord<TagDto>('/tags', tagId, tagBodyOf(v)),
    savedMessage: creating ? t('tags.created') : t('tags.saved'),
    codeFields: { ERR_TAG_NAME_ALREADY_EXISTS: 'name' },
  })
  const { values, errors, set } = form
  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('tags.addTitle') : t('tags.editTitle')}
      size="sm"
      skeleton={<FormSkeleton bars={['h-10 w-full', 'h-24 w-full']} />}
    >
      <div className="flex flex-col gap-5">
        <Field label={t('tags.name')} error={errors.name} required>
          <Input
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
            autoFocus
            autoComplete="off"
            maxLength={60}
          />
        </Field>
        <Field label={t('tags.color')} error={errors.color} required as="group">
          <ColorPicker value={values.color} onChange={(v) => set('color', v)} invalid={!!errors.color} />
        </Field>
        {mayChooseLane && (
          <Switch
            checked={values.kanban}
            onChange={(v) => set('kanban', v)}
            label={t('tags.kanban')}
            description={t('tags.kanbanHint')}
          />
        )}
      </div>
    </FormDialog>
  )
}
