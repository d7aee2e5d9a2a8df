import { useTranslation } from 'react-i18next'
import type { ContactListDto } from '../../../shared/contact-lists'
import { contactListBody } from '../../../shared/schemas/contact-lists'
import { api } from '../../api/client'
import { Field, Input } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Skeleton } from '../../components/ui/Skeleton'
import { schemaErrors } from '../../components/ui/schemaErrors'
import { useFormDialog } from '../../components/ui/useFormDialog'

type Form = { name: string }

/** The list dialog: only a name, 2 to 50 characters (spec 2). */
export function ContactListDialog({
  open,
  recordId,
  onClose,
  onSaved,
}: {
  open: boolean
  recordId?: number
  onClose: () => void
  onSaved?: (record: ContactListDto) => void
}) {
  const { t } = useTranslation()
  const creating = recordId == null
  const form = useFormDialog<Form, ContactListDto>({
    open,
    onClose,
    onSaved,
    empty: { name: '' },
    load: creating
      ? null
      : (signal) =>
          api.get<ContactListDto>(`/contact-lists/${recordId}`, { signal }).then((l) => ({ name: l.name })),
    loadKey: recordId,
    validate: (v) => schemaErrors<keyof Form & string>(contactListBody({ name: v.name }), t),
    save: (v) =>
      creating
        ? api.post<ContactListDto>('/contact-lists', { name: v.name.trim() })
        : api.put<ContactListDto>(`/contact-lists/${recordId}`, { name: v.name.trim() }),
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
