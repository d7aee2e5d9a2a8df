import { useTranslation } from 'react-i18next'
import type { PlanDto } from '../../../shared/api'
import { PLAN_FLAGS, PLAN_LIMITS, type PlanFlags, type PlanLimit } from '../../../shared/plans'
import { planBody } from '../../../shared/schemas/companies'
import { ApiError, api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import type { RecordEditDialogProps } from '../../components/recordDialog'
import { Field, Input } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Switch } from '../../components/ui/Switch'
import { schemaErrors } from '../../components/ui/schemaErrors'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { toast } from '../../state/toast'
import { brlInput, parseBrl } from './money'

export type PlanForm = PlanFlags & {
  name: string
  /** As typed: '99,90'. */
  value: string
  users: string
  connections: string
  queues: string
}

/** The spec's defaults: every flag on, numbers 0 (0 is unlimited). */
export const EMPTY_PLAN: PlanForm = {
  name: '',
  value: '0,00',
  users: '0',
  connections: '0',
  queues: '0',
  ...(Object.fromEntries(PLAN_FLAGS.map((f) => [f, true])) as PlanFlags),
}

export const LIMIT_MAX = 100_000

export function formOfPlan(plan: PlanDto): PlanForm {
  return {
    name: plan.name,
    value: brlInput(plan.value),
    users: String(plan.users),
    connections: String(plan.connections),
    queues: String(plan.queues),
    ...(Object.fromEntries(PLAN_FLAGS.map((f) => [f, plan[f] !== false])) as PlanFlags),
  }
}

function limitOf(text: string): number | null {
  const s = text.trim()
  if (!/^\d{1,6}$/.test(s)) return null
  const n = Number(s)
  return n <= LIMIT_MAX ? n : null
}

/** The body of POST /api/plans and PUT /api/plans/{id}. */
export function planBodyOf(form: PlanForm): Record<string, unknown> {
  return {
    name: form.name.trim(),
    value: parseBrl(form.value) ?? -1,
    ...Object.fromEntries(PLAN_LIMITS.map((k) => [k, limitOf(form[k]) ?? -1])),
    ...Object.fromEntries(PLAN_FLAGS.map((f) => [f, form[f]])),
  }
}

export function validatePlan(form: PlanForm, t: (key: string) => string): FieldErrors<PlanForm> {
  const errors = schemaErrors<keyof PlanForm & string>(planBody(planBodyOf(form)), t)
  if (parseBrl(form.value) == null)
    errors.value = form.value.trim() ? t('plans.invalidValue') : t('validation.required')
  for (const k of PLAN_LIMITS) if (limitOf(form[k]) == null) errors[k] = t('plans.invalidNumber')
  return errors
}

/** Already told to the user (the spec's toast): the form shows its fields and adds no toast of its own. */
class Reported extends Error {
  override name = 'AbortError'
}

async function savePlan(
  id: number | undefined,
  form: PlanForm,
  t: (key: string) => string,
): Promise<PlanDto> {
  const body = planBodyOf(form)
  try {
    return id == null ? await api.post<PlanDto>('/plans', body) : await api.put<PlanDto>(`/plans/${id}`, body)
  } catch (err) {
    toast.error(t('plans.saveFailed'))
    if (err instanceof ApiError && err.code === 'ERR_PLAN_NAME_ALREADY_EXISTS') {
      const message = t('plans.nameTaken')
      throw new ApiError(err.status, 'ERR_VALIDATION', message, [{ field: 'name', message }])
    }
    if (err instanceof ApiError && err.fields.length) throw err
    throw new Reported(errorMessage(err))
  }
}

export function PlanDialog({ open, record, onClose, onSaved }: RecordEditDialogProps<PlanDto>) {
  const { t } = useTranslation()
  const creating = !record
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: record ? formOfPlan(record) : EMPTY_PLAN,
    loadKey: record?.id,
    validate: (v) => validatePlan(v, t),
    save: (v) => savePlan(record?.id, v, t),
    savedMessage: creating ? t('plans.created') : t('plans.saved'),
  })
  const { values, errors, set } = form
  const limit = (key: PlanLimit) => (
    <Field key={key} label={t(`plans.${key}`)} error={errors[key]} hint={t('plans.limitHint')}>
      <Input
        inputMode="numeric"
        value={values[key]}
        onChange={(e) => set(key, e.target.value)}
        onFocus={(e) => e.target.select()}
        className="tnum"
        maxLength={7}
      />
    </Field>
  )
  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('plans.addTitle') : t('plans.editTitle')}
      size="lg"
    >
      <div className="flex flex-col gap-6">
        <div className="grid gap-4 sm:grid-cols-[1fr_200px]">
          <Field label={t('plans.name')} error={errors.name} required>
            <Input
              value={values.name}
              onChange={(e) => set('name', e.target.value)}
              autoFocus
              autoComplete="off"
              maxLength={60}
            />
          </Field>
          <Field label={t('plans.value')} error={errors.value} hint={t('plans.valueHint')} required>
            <div className="relative">
              <span className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 text-muted text-sm">
                R$
              </span>
              <Input
                inputMode="decimal"
                value={values.value}
                onChange={(e) => set('value', e.target.value)}
                onFocus={(e) => e.target.select()}
                className="pl-9 tnum"
                maxLength={16}
              />
            </div>
          </Field>
        </div>
        <fieldset className="min-w-0">
          <legend className="mb-3 font-semibold text-[12px] text-subtle uppercase tracking-wider">
            {t('plans.limitsTitle')}
          </legend>
          <div className="grid gap-4 sm:grid-cols-3">{PLAN_LIMITS.map(limit)}</div>
        </fieldset>
        <fieldset className="min-w-0">
          <legend className="mb-2 font-semibold text-[12px] text-subtle uppercase tracking-wider">
            {t('plans.features')}
          </legend>
          <div className="grid gap-x-8 sm:grid-cols-2">
            {PLAN_FLAGS.map((flag) => (
              <Switch
                key={flag}
                checked={values[flag]}
                onChange={(v) => set(flag, v)}
                label={t(`plans.flags.${flag}`)}
              />
            ))}
          </div>
        </fieldset>
      </div>
    </FormDialog>
  )
}
