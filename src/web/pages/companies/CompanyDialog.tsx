import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { CompanyDto } from '../../../shared/api'
import { RECURRENCES, type Recurrence, realDueDate } from '../../../shared/plans'
import { createCompanyBody, updateCompanyBody } from '../../../shared/schemas/companies'
import { ApiError, api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { Field, Input } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Select } from '../../components/ui/Select'
import { Switch } from '../../components/ui/Switch'
import { schemaErrors } from '../../components/ui/schemaErrors'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { useLiveList } from '../../state/liveList'
import { toast } from '../../state/toast'
import { formatBrl } from '../plans/money'
import { EMPTY_USER, validateUser } from '../users/validation'
import { allPlansList } from './companiesList'

export type CompanyForm = {
  name: string
  email: string
  phone: string
  /** 0: none chosen yet. */
  planId: number
  status: boolean
  /** YYYY-MM-DD from the date input; empty for no due date. */
  dueDate: string
  recurrence: Recurrence
  document: string
  /** The first admin (only when adding): its name and password; its e-mail is the company's. */
  userName: string
  password: string
}

export const EMPTY_COMPANY: CompanyForm = {
  name: '',
  email: '',
  phone: '',
  planId: 0,
  status: true,
  dueDate: '',
  recurrence: 'MENSAL',
  document: '',
  userName: '',
  password: '',
}

export function formOfCompany(company: CompanyDto): CompanyForm {
  return {
    ...EMPTY_COMPANY,
    name: company.name,
    email: company.email ?? '',
    phone: company.phone ?? '',
    planId: company.planId,
    status: company.status,
    dueDate: realDueDate(company.dueDate) ?? '',
    recurrence: company.recurrence,
    document: company.document ?? '',
  }
}

/** The body of POST /api/companies (with the first user) or PUT /api/companies/{id}. */
export function companyBodyOf(form: CompanyForm, creating: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: form.name.trim(),
    email: form.email.trim(),
    phone: form.phone.trim() || null,
    planId: form.planId,
    status: form.status,
    // The spec: an empty (or invalid) due date becomes null.
    dueDate: form.dueDate || null,
    recurrence: form.recurrence,
    document: form.document.trim() || null,
  }
  if (creating) Object.assign(body, { userName: form.userName.trim(), password: form.password })
  return body
}

/**
 * The server's schemas with the spec's messages; the first user's name and password are checked as the user
 * dialog checks them (name 2 to 50, the one password rule).
 */
export function validateCompany(
  form: CompanyForm,
  creating: boolean,
  t: (key: string) => string,
): FieldErrors<CompanyForm> {
  const body = companyBodyOf(form, creating)
  const schema = creating ? createCompanyBody : updateCompanyBody
  const errors = schemaErrors<keyof CompanyForm & string>(schema(body), t)
  if (!form.planId) errors.planId = t('validation.required')
  if (creating) {
    const user = validateUser(
      { ...EMPTY_USER, name: form.userName, email: form.email, password: form.password, profile: 'admin' },
      {
        creating: true,
        limited: false,
        canEditProfile: false,
        canEditQueues: false,
        askCurrentPassword: false,
      },
      t,
    )
    errors.userName = user.name
    errors.password = user.password
  }
  return errors
}

/** Already told to the user (the spec's toast): the form shows its fields and adds no toast of its own. */
class Reported extends Error {
  override name = 'AbortError'
}

/** A failed save: the spec's company message, and what belongs to a field shown under it. */
async function saveCompany(
  id: number | undefined,
  form: CompanyForm,
  t: (key: string) => string,
): Promise<CompanyDto> {
  const body = companyBodyOf(form, id == null)
  try {
    return id == null
      ? await api.post<CompanyDto>('/companies', body)
      : await api.put<CompanyDto>(`/companies/${id}`, body)
  } catch (err) {
    toast.error(t('companies.saveFailed'))
    if (err instanceof ApiError) {
      const field =
        err.code === 'ERR_COMPANY_NAME_ALREADY_EXISTS'
          ? { field: 'name', message: t('companies.nameTaken') }
          : err.code === 'ERR_EMAIL_ALREADY_EXISTS'
            ? { field: 'email', message: t('companies.emailTaken') }
            : null
      if (field) throw new ApiError(err.status, 'ERR_VALIDATION', field.message, [field])
      if (err.fields.length) throw err
    }
    throw new Reported(errorMessage(err))
  }
}

function Section({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-3 font-semibold text-[12px] text-subtle uppercase tracking-wider">{title}</legend>
      {hint && <p className="-mt-2 mb-3 text-muted text-xs">{hint}</p>}
      {children}
    </fieldset>
  )
}

export function CompanyDialog({
  open,
  companyId,
  platformCompanyId,
  onClose,
  onSaved,
}: {
  open: boolean
  /** The company to edit; left out to add one (with its first user). */
  companyId?: number
  /** The super user's own company: it cannot be deactivated. */
  platformCompanyId?: number
  onClose: () => void
  onSaved?: (company: CompanyDto) => void
}) {
  const { t } = useTranslation()
  const creating = companyId == null
  const plans = useLiveList(allPlansList, undefined, { enabled: open })
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY_COMPANY,
    load: creating
      ? null
      : (signal) => api.get<CompanyDto>(`/companies/${companyId}`, { signal }).then(formOfCompany),
    loadKey: companyId,
    validate: (v) => validateCompany(v, creating, t),
    save: (v) => saveCompany(companyId, v, t),
    savedMessage: creating ? t('companies.created') : t('companies.saved'),
  })
  const { values, errors, set } = form
  const planOptions = plans.items.map((p) => ({
    value: p.id,
    label: p.name,
    hint: `${formatBrl(p.value)}${t('plans.perMonth')}`,
  }))
  const isPlatform = companyId != null && companyId === platformCompanyId

  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('companies.addTitle') : t('companies.editTitle')}
      size="lg"
    >
      <div className="flex flex-col gap-6">
        <Section title={t('companies.sectionCompany')}>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={t('companies.name')} error={errors.name} required>
              <Input
                value={values.name}
                onChange={(e) => set('name', e.target.value)}
                autoFocus
                autoComplete="off"
                maxLength={120}
              />
            </Field>
            <Field label={t('companies.document')} error={errors.document}>
              <Input
                value={values.document}
                onChange={(e) => set('document', e.target.value)}
                autoComplete="off"
                inputMode="numeric"
                maxLength={30}
              />
            </Field>
            <Field
              label={t('companies.email')}
              error={errors.email}
              hint={creating ? t('companies.emailHint') : undefined}
              required
            >
              <Input
                type="email"
                value={values.email}
                onChange={(e) => set('email', e.target.value)}
                autoComplete="off"
              />
            </Field>
            <Field label={t('companies.phone')} error={errors.phone}>
              <Input
                type="tel"
                value={values.phone}
                onChange={(e) => set('phone', e.target.value)}
                autoComplete="off"
                maxLength={30}
              />
            </Field>
          </div>
        </Section>
        <Section title={t('companies.sectionBilling')}>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label={t('companies.plan')}
              error={errors.planId}
              hint={!plans.loading && !plans.items.length ? t('companies.noPlans') : undefined}
              required
            >
              <Select
                value={values.planId || null}
                onChange={(v) => set('planId', v)}
                options={planOptions}
                placeholder={t('companies.selectPlan')}
              />
            </Field>
            <Field label={t('companies.recurrence')} error={errors.recurrence}>
              <Select
                value={values.recurrence}
                onChange={(v) => set('recurrence', v)}
                options={RECURRENCES.map((r) => ({ value: r, label: t(`companies.recurrences.${r}`) }))}
              />
            </Field>
            <Field label={t('companies.dueDate')} error={errors.dueDate} hint={t('companies.dueDateHint')}>
              <Input type="date" value={values.dueDate} onChange={(e) => set('dueDate', e.target.value)} />
            </Field>
            <div className="flex items-end">
              <div className="w-full">
                <Switch
                  checked={values.status}
                  onChange={(v) => set('status', v)}
                  label={t('companies.statusLabel')}
                  description={t('companies.statusHint')}
                  disabled={isPlatform}
                />
              </div>
            </div>
          </div>
        </Section>
        {creating && (
          <Section title={t('companies.firstUser')} hint={t('companies.firstUserHint')}>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t('companies.userName')} error={errors.userName} required>
                <Input
                  value={values.userName}
                  onChange={(e) => set('userName', e.target.value)}
                  autoComplete="off"
                  maxLength={60}
                />
              </Field>
              <Field label={t('companies.password')} error={errors.password} required>
                <Input
                  type="password"
                  value={values.password}
                  onChange={(e) => set('password', e.target.value)}
                  autoComplete="new-password"
                  maxLength={60}
                />
              </Field>
            </div>
          </Section>
        )}
      </div>
    </FormDialog>
  )
}
