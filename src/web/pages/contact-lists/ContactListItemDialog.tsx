import { useTranslation } from 'react-i18next'
import type { ContactListItemDto } from '../../../shared/contact-lists'
import { contactListItemBody } from '../../../shared/schemas/contact-lists'
import { api } from '../../api/client'
import { loadRecord } from '../../components/recordDialog'
import { Field, Input } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Skeleton } from '../../components/ui/Skeleton'
import { schemaErrors } from '../../components/ui/schemaErrors'
import { useFormDialog } from '../../components/ui/useFormDialog'

type Form = { name: string; number: string; email: string }

const bodyOf = (v: Form) => ({ name: v.name.trim(), number: v.number.trim(), email: v.email.trim() })

/** The item dialog: name (2 to 50), number (8 to 50), email (valid when given). */
export function ContactListItemDialog({
  open,
  contactListId,
  recordId,
  onClose,
  onSaved,
}: {
  open: boolean
  contactListId: number
  recordId?: number
  onClose: () => void
  onSaved?: (record: ContactListItemDto) => void
}) {
  const { t } = useTranslation()
  const creating = recordId == null
  const form = useFormDialog<Form, ContactListItemDto>({
    open,
    onClose,
    onSaved,
    empty: { name: '', number: '', email: '' },
    load: loadRecord('/contact-list-items', recordId, (i: ContactListItemDto) => ({
      name: i.name,
      number: i.number,
      email: i.email,
    })),
    loadKey: recordId,
    validate: (v) => schemaErrors<keyof Form & string>(contactListItemBody(bodyOf(v)), t),
    save: (v) =>
      creating
        ? api.post<ContactListItemDto>('/contact-list-items', { ...bodyOf(v), contactListId })
        : api.put<ContactListItemDto>(`/contact-list-items/${recordId}`, bodyOf(v)),
    savedMessage: creating ? t('contactLists.itemCreated') : t('contactLists.itemSaved'),
  })
  const { values, errors, set } = form
  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('contactLists.addItemTitle') : t('contactLists.editItemTitle')}
      size="sm"
      skeleton={<Skeleton className="h-32 w-full" />}
    >
      <div className="flex flex-col gap-4">
        <Field label={t('contactLists.name')} error={errors.name} required>
          <Input value={values.name} onChange={(e) => set('name', e.target.value)} autoFocus maxLength={60} />
        </Field>
        <Field label={t('contactLists.number')} error={errors.number} required>
          <Input
            value={values.number}
            onChange={(e) => set('number', e.target.value)}
            inputMode="tel"
            maxLength={60}
          />
        </Field>
        <Field label={t('contactLists.email')} error={errors.email}>
          <Input
            type="email"
            value={values.email}
            onChange={(e) => set('email', e.target.value)}
            maxLength={130}
          />
        </Field>
      </div>
    </FormDialog>
  )
}
