import { type } from 'arktype'
import { Check, MessageCircle, RefreshCw } from 'lucide-react'
import { type FormEvent, useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import type { PlanDto } from '../../../shared/api'
import { PHONE_MAX, signupBody, signupPhone } from '../../../shared/schemas/signup'
import { ApiError, api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { Button } from '../../components/ui/Button'
import { Field, Input } from '../../components/ui/Field'
import { Skeleton } from '../../components/ui/Skeleton'
import { schemaErrors } from '../../components/ui/schemaErrors'
import { cn } from '../../lib/cn'
import { toast } from '../../state/toast'
import { AuthLayout } from '../login/AuthLayout'
import {
  AuthError,
  AuthFooterLink,
  AuthSubmit,
  CodeInput,
  EmailInput,
  NewPasswordInput,
} from '../login/AuthParts'
import { formatBrl } from '../plans/money'

type SignupField = 'name' | 'companyName' | 'email' | 'password' | 'phone' | 'planId' | 'code'
type Values = Record<Exclude<SignupField, 'planId'>, string> & { planId: number | null }
type Errors = Partial<Record<SignupField, string>>

const EMPTY: Values = {
  name: '',
  companyName: '',
  email: '',
  password: '',
  phone: '',
  planId: null,
  code: '',
}
const ORDER: SignupField[] = ['name', 'companyName', 'email', 'password', 'phone', 'planId', 'code']
const TEXT_MAX: Partial<Record<SignupField, number>> = { name: 50, companyName: 50, password: 50 }

type Translate = (key: string) => string

/** The spec's sign-up rules and messages, on the server's own schema. */
export function signupErrors(values: Values, t: Translate): Errors {
  const body = { ...values, planId: values.planId ?? undefined }
  const errors: Errors = schemaErrors<SignupField>(signupBody(body), t, {
    email: 'signup.invalidEmail',
    password: 'validation.passwordRule',
    phone: 'signup.phoneInvalid',
    code: 'signup.invalidCode',
  })
  for (const [field, max] of Object.entries(TEXT_MAX) as [SignupField, number][]) {
    const value = String(values[field] ?? '')
    if (errors[field] && (field === 'password' ? value : value.trim()).length > max)
      errors[field] = t('signup.tooLong')
  }
  if (!values.phone.trim()) errors.phone = t('signup.phoneRequired')
  if (values.planId == null) errors.planId = t('signup.planRequired')
  if (!values.code.trim()) errors.code = t('signup.codeRequired')
  return errors
}

/** What a plan offers, in one line: '5 usuários · 2 conexões · 4 filas' (0 means no limit). */
function PlanLimits({ plan }: { plan: PlanDto }) {
  const { t } = useTranslation()
  const part = (key: 'users' | 'connections' | 'queues') =>
    plan[key] > 0 ? t(`signup.limits.${key}`, { count: plan[key] }) : t(`signup.limits.${key}Unlimited`)
  return <>{[part('users'), part('connections'), part('queues')].join(' · ')}</>
}

type PlansState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; plans: PlanDto[] }

function PlanChoice({
  state,
  value,
  onChange,
  onRetry,
  error,
}: {
  state: PlansState
  value: number | null
  onChange: (id: number) => void
  onRetry: () => void
  error?: string
}) {
  const { t } = useTranslation()
  return (
    <fieldset
      className="flex min-w-0 flex-col gap-1.5"
      aria-describedby={error ? 'signup-plan-error' : undefined}
    >
      <legend className="mb-1.5 font-medium text-[13px] text-fg">{t('signup.plan')}</legend>
      {state.status === 'loading' && (
        <div className="flex flex-col gap-2" aria-busy="true">
          <Skeleton className="h-[62px] w-full rounded-lg" />
          <Skeleton className="h-[62px] w-full rounded-lg" />
        </div>
      )}
      {state.status === 'error' && (
        <div className="flex items-center justify-between gap-3 rounded-lg border border-border-strong px-3 py-2.5 text-sm">
          <span className="text-muted">{t('signup.plansError')}</span>
          <Button
            size="sm"
            variant="secondary"
            icon={<RefreshCw className="size-3.5" aria-hidden />}
            onClick={onRetry}
          >
            {t('signup.retry')}
          </Button>
        </div>
      )}
      {state.status === 'ready' && state.plans.length === 0 && (
        <p className="rounded-lg border border-border-strong border-dashed px-3 py-3 text-muted text-sm">
          {t('signup.noPlans')}
        </p>
      )}
      {state.status === 'ready' && state.plans.length > 0 && (
        <div className="flex flex-col gap-2" role="radiogroup" aria-label={t('signup.plan')}>
          {state.plans.map((plan) => {
            const checked = plan.id === value
            return (
              <label
                key={plan.id}
                className={cn(
                  'relative flex cursor-pointer items-start gap-3 rounded-lg border px-3 py-2.5 transition-colors duration-150',
                  'has-[:focus-visible]:ring-3 has-[:focus-visible]:ring-focus/25',
                  checked
                    ? 'border-primary bg-primary/5'
                    : error
                      ? 'border-danger hover:bg-surface-2'
                      : 'border-border-strong hover:bg-surface-2',
                )}
              >
                <input
                  type="radio"
                  name="planId"
                  value={plan.id}
                  checked={checked}
                  onChange={() => onChange(plan.id)}
                  className="sr-only"
                />
                <span
                  className={cn(
                    'mt-0.5 flex size-4 shrink-0 items-center justify-center rounded-full border',
                    checked ? 'border-primary bg-primary text-on-primary' : 'border-border-strong',
                  )}
                  aria-hidden
                >
                  {checked && <Check className="size-3" strokeWidth={3} />}
                </span>
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="flex items-baseline justify-between gap-3">
                    <span className="min-w-0 break-words font-medium text-fg text-sm">{plan.name}</span>
                    <span className="shrink-0 text-fg text-sm tabular-nums">
                      {formatBrl(plan.value)}
                      <span className="text-muted text-xs">{t('signup.perMonth')}</span>
                    </span>
                  </span>
                  <span className="mt-0.5 text-muted text-xs">
                    <PlanLimits plan={plan} />
                  </span>
                </span>
              </label>
            )
          })}
        </div>
      )}
      {error && (
        <p id="signup-plan-error" className="text-[12.5px] text-danger" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  )
}

export function SignupPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [values, setValues] = useState<Values>(EMPTY)
  const [touched, setTouched] = useState(false)
  const [serverErrors, setServerErrors] = useState<Errors>({})
  const [plans, setPlans] = useState<PlansState>({ status: 'loading' })
  const [codeState, setCodeState] = useState<'idle' | 'sending' | 'sent'>('idle')
  const [phoneError, setPhoneError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)

  const loadPlans = useCallback(() => {
    setPlans({ status: 'loading' })
    api
      .get<PlanDto[]>('/plans/list', { anonymous: true })
      .then((list) => {
        setPlans({ status: 'ready', plans: list })
        if (list.length === 1) setValues((v) => (v.planId == null ? { ...v, planId: list[0]!.id } : v))
      })
      .catch(() => setPlans({ status: 'error' }))
  }, [])
  useEffect(() => loadPlans(), [loadPlans])

  const errors: Errors = { ...(touched ? signupErrors(values, t) : {}), ...serverErrors }
  if (phoneError && !errors.phone) errors.phone = phoneError

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }))
    setServerErrors(({ [key]: _gone, ...rest }) => rest)
    if (key === 'phone') setPhoneError(null)
  }

  const requestCode = async () => {
    const phone = values.phone.trim()
    if (!phone) return setPhoneError(t('signup.phoneRequired'))
    if (signupPhone(phone) instanceof type.errors) return setPhoneError(t('signup.phoneInvalid'))
    setCodeState('sending')
    try {
      await api.post('/signup/code', { phone }, { anonymous: true })
      setCodeState('sent')
    } catch (err) {
      setCodeState('idle')
      toast.error(errorMessage(err))
    }
  }

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setTouched(true)
    const form = e.currentTarget
    const found = signupErrors(values, t)
    const first = ORDER.find((f) => found[f])
    if (first) {
      form.querySelector<HTMLInputElement>(`[name=${first}]`)?.focus()
      return
    }
    setBusy(true)
    setError(null)
    try {
      await api.post(
        '/companies/cadastro',
        {
          name: values.name.trim(),
          companyName: values.companyName.trim(),
          email: values.email.trim(),
          password: values.password,
          phone: values.phone.trim(),
          planId: values.planId,
          code: values.code.trim(),
        },
        { anonymous: true },
      )
      toast.success(t('signup.success'))
      navigate('/login', { replace: true })
    } catch (err) {
      setBusy(false)
      const byCode: Record<string, SignupField> = {
        ERR_SIGNUP_INVALID_CODE: 'code',
        ERR_EMAIL_ALREADY_EXISTS: 'email',
        ERR_COMPANY_NAME_ALREADY_EXISTS: 'companyName',
        ERR_NO_PLAN_FOUND: 'planId',
      }
      const field = err instanceof ApiError && err.code ? byCode[err.code] : undefined
      if (field) {
        setServerErrors({ [field]: t(`signup.serverErrors.${err instanceof ApiError ? err.code : ''}`) })
        form.querySelector<HTMLInputElement>(`[name=${field}]`)?.focus()
        if (field === 'planId') loadPlans()
      } else setError(errorMessage(err))
    }
  }

  return (
    <AuthLayout title={t('signup.title')} subtitle={t('signup.subtitle')}>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {error && <AuthError message={error} />}
        <Field label={t('signup.name')} error={errors.name}>
          <Input
            name="name"
            autoComplete="name"
            autoFocus
            value={values.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <Field label={t('signup.companyName')} error={errors.companyName}>
          <Input
            name="companyName"
            autoComplete="organization"
            value={values.companyName}
            onChange={(e) => set('companyName', e.target.value)}
          />
        </Field>
        <Field label={t('signup.email')} error={errors.email}>
          <EmailInput
            autoComplete="email"
            value={values.email}
            onChange={(e) => set('email', e.target.value)}
          />
        </Field>
        <Field label={t('signup.password')} error={errors.password} hint={t('signup.passwordHint')}>
          <NewPasswordInput name="password" value={values.password} onChange={(v) => set('password', v)} />
        </Field>
        <Field label={t('signup.phone')} error={errors.phone} hint={t('signup.phoneHint')}>
          <Input
            type="tel"
            name="phone"
            autoComplete="tel"
            inputMode="tel"
            maxLength={PHONE_MAX}
            placeholder="(11) 91234-5678"
            value={values.phone}
            onChange={(e) => set('phone', e.target.value)}
          />
        </Field>
        <PlanChoice
          state={plans}
          value={values.planId}
          onChange={(id) => set('planId', id)}
          onRetry={loadPlans}
          error={errors.planId}
        />
        <div className="flex flex-col gap-2 rounded-lg bg-surface-2 p-3">
          <Field label={t('signup.code')} error={errors.code}>
            <div className="flex gap-2">
              <CodeInput value={values.code} onChange={(code) => set('code', code)} className="min-w-0" />
              <Button
                variant="secondary"
                onClick={requestCode}
                loading={codeState === 'sending'}
                className="h-10 max-sm:h-11"
              >
                {codeState === 'sent' ? t('signup.requestAgain') : t('signup.requestCode')}
              </Button>
            </div>
          </Field>
          {codeState === 'sent' ? (
            <p className="flex gap-2 text-[12.5px] text-fg" role="status">
              <MessageCircle className="mt-0.5 size-3.5 shrink-0 text-success" aria-hidden />
              <span>{t('signup.codeSent')}</span>
            </p>
          ) : (
            <p className="text-[12.5px] text-muted">{t('signup.codeHint')}</p>
          )}
        </div>
        <AuthSubmit busy={busy}>{t('signup.submit')}</AuthSubmit>
      </form>
      <AuthFooterLink question={t('signup.haveAccount')} to="/login">
        {t('signup.toLogin')}
      </AuthFooterLink>
    </AuthLayout>
  )
}
