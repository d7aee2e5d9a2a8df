import { Plus, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { ContactDto } from '../../../shared/api'
import { api } from '../../api/client'
import { IconButton } from '../../components/ui/Button'
import { Field, Input } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Switch } from '../../components/ui/Switch'
import { useFormDialog } from '../../components/ui/useFormDialog'
import {
  type ContactForm,
  contactBodyOf,
  EMPTY_CONTACT,
  type ExtraInfoRow,
  extraInfoRowErrors,
  formFromContact,
  validateContact,
} from './validation'

export type ContactDialogProps = {
  open: boolean
  /** The contact to edit; absent: a new contact. */
  contactId?: number | null
  /** A new contact's first values (a number typed elsewhere). */
  initial?: Partial<ContactForm>
  onClose: () => void
  onSaved?: (contact: ContactDto) => void
}

/** The contact dialog: name, number, e-mail, the bot switch and the extra-info name/value list. */
export function ContactDialog({ open, contactId, initial, onClose, onSaved }: ContactDialogProps) {
  const { t } = useTranslation()
  const editing = contactId != null
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: { ...EMPTY_CONTACT, ...initial },
    load: editing
      ? (signal) => api.get<ContactDto>(`/contacts/${contactId}`, { signal }).then(formFromContact)
      : null,
    loadKey: contactId,
    validate: (v) => validateContact(v, t),
    save: (v) =>
      editing
        ? api.put<ContactDto>(`/contacts/${contactId}`, contactBodyOf(v))
        : api.post<ContactDto>('/contacts', contactBodyOf(v)),
    savedMessage: t('contacts.saved'),
    codeFields: { ERR_DUPLICATED_CONTACT: 'number' },
  })
  const { values, errors, set } = form
  const rowErrors = errors.extraInfo ? extraInfoRowErrors(values.extraInfo, t) : {}
  const setRow = (index: number, patch: Partial<ExtraInfoRow>) =>
    set(
      'extraInfo',
      values.extraInfo.map((row, i) => (i === index ? { ...row, ...patch } : row)),
    )

  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={editing ? t('contacts.editTitle') : t('contacts.addTitle')}
    >
      <div className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('contacts.name')} error={errors.name} required className="sm:col-span-2">
            <Input
              name="name"
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              autoComplete="off"
              autoFocus
              maxLength={80}
            />
          </Field>
          <Field label={t('contacts.number')} error={errors.number} hint={t('contacts.numberHint')}>
            <Input
              name="number"
              value={values.number}
              onChange={(e) => set('number', e.target.value)}
              inputMode="tel"
              autoComplete="off"
              className="tnum"
              placeholder="5511999999999"
            />
          </Field>
          <Field label={t('contacts.email')} error={errors.email}>
            <Input
              name="email"
              type="email"
              value={values.email}
              onChange={(e) => set('email', e.target.value)}
              inputMode="email"
              autoComplete="off"
            />
          </Field>
        </div>
        <Switch
          label={t('contacts.disableBot')}
          description={t('contacts.disableBotHint')}
          checked={values.disableBot}
          onChange={(on) => set('disableBot', on)}
        />
        <fieldset className="min-w-0">
          <legend className="mb-2 font-semibold text-[12px] text-subtle uppercase tracking-wider">
            {t('contacts.extraInfo')}
          </legend>
          {values.extraInfo.length === 0 && (
            <p className="mb-2 text-muted text-sm">{t('contacts.extraInfoEmpty')}</p>
          )}
          <ul className="flex flex-col gap-2">
            {values.extraInfo.map((row, i) => (
              <li
                // biome-ignore lint/suspicious/noArrayIndexKey: rows have no ids until saved
                key={i}
                className="flex items-start gap-2"
              >
                <div className="grid min-w-0 flex-1 gap-2 sm:grid-cols-2">
                  <Field
                    label={<span className="sr-only">{t('contacts.extraName')}</span>}
                    error={rowErrors[i]}
                  >
                    <Input
                      value={row.name}
                      onChange={(e) => setRow(i, { name: e.target.value })}
                      placeholder={t('contacts.extraName')}
                      aria-label={t('contacts.extraName')}
                    />
                  </Field>
                  <Field label={<span className="sr-only">{t('contacts.extraValue')}</span>}>
                    <Input
                      value={row.value}
                      onChange={(e) => setRow(i, { value: e.target.value })}
                      placeholder={t('contacts.extraValue')}
                      aria-label={t('contacts.extraValue')}
                    />
                  </Field>
                </div>
                <IconButton
                  variant="danger-ghost"
                  label={t('contacts.removeExtra')}
                  icon={<Trash2 className="size-4" />}
                  onClick={() =>
                    set(
                      'extraInfo',
                      values.extraInfo.filter((_, j) => j !== i),
                    )
                  }
                  className="mt-0.5"
                />
              </li>
            ))}
          </ul>
          <button
            type="button"
            onClick={() => set('extraInfo', [...values.extraInfo, { name: '', value: '' }])}
            className="mt-2 inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 font-medium text-link text-sm hover:bg-surface-2 max-sm:min-h-11"
          >
            <Plus className="size-4" aria-hidden />
            {t('contacts.addExtra')}
          </button>
        </fieldset>
      </div>
    </FormDialog>
  )
}
