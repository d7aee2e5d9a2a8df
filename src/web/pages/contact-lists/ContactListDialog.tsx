import { useTranslation } from 'react-i18next'
import type { ContactListDto } from '../../../shared/contact-lists'
import { contactListBody } from '../../../shared/schemas/contact-lists'
import { loadRecord, type RecordDialogProps, saveRecord } from '../../components/recordDialog'
import { Field, Input } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Skeleton } from '../../components/ui/Skeleton'
import { schemaErrors } from '../../components/ui/schemaErrors'
import { useFormDialog } from '../../components/ui/useFormDialog'

type Form = { name: string }

/** The list dialog: only a name, 2 to 50 characters (spec 2). */
export function ContactListDialog({ open, recordId, onClose, onSaved }: RecordDialogProps<ContactListDto>) {
  const { t } = useTranslation()
  const creating = recordId == null
  const form = useFormDialog<Form, ContactListDto>({
    open,
    onClose,
    onSaved,
    empty: { name: '' },
    load: loadRecord('/contact-lists', recordId, (l: ContactListDto) => ({ name: l.name })),
    loadKey: recordId,
    validate: (v) => schemaErrors<keyof Form & string>(contactListBody({ name: v.name }), t),
    save: (v) => saveRecord<ContactListDto>('/contact-lists', recordId, { name: v.name.trim() }),
    savedMessage: creating ? t('contactLists.created') : t('contactLists.saved'),
  })
  const { values, errors, set } = form
  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('contactLists.addTitle') : t('contactLists.editTitle')}
      size="sm"
      skeleton={<Skeleton className="h-10 w-full" />}
    >
      <Field label={t('contactLists.name')} error={errors.name} required>
        <Input value={values.name} onChange={(e) => set('name', e.target.value)} autoFocus maxLength={60} />
      </Field>
    </FormDialog>
  )
}
