import { type } from 'arktype'
import { ArrowLeft, MailCheck } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router-dom'
import { email as emailRule } from '../../../shared/schemas/common'
import { RESET_PASSWORD, RESET_TOKEN } from '../../../shared/schemas/signup'
import { ApiError, api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { Field } from '../../components/ui/Field'
import { toast } from '../../state/toast'
import { AuthLayout } from '../login/AuthLayout'
import {
  AuthError,
  AuthFooter,
  AuthSubmit,
  CodeInput,
  EmailInput,
  NewPasswordInput,
} from '../login/AuthParts'

type Translate = (key: string) => string

/** Step 1: the spec's e-mail rule ('E-mail inválido'). */
export function emailError(email: string, t: Translate): string | undefined {
  if (!email.trim()) return t('forgetpsw.required')
  return emailRule(email) instanceof type.errors ? t('forgetpsw.invalidEmail') : undefined
}

type ResetField = 'code' | 'password' | 'confirm'

/** Step 2: the code, then the spec's password rule and its confirmation. */
export function resetErrors(
  values: { code: string; password: string; confirm: string },
  t: Translate,
): Partial<Record<ResetField, string>> {
  const errors: Partial<Record<ResetField, string>> = {}
  if (!values.code.trim()) errors.code = t('forgetpsw.required')
  else if (!RESET_TOKEN.test(values.code.trim())) errors.code = t('forgetpsw.codeFormat')
  if (!values.password) errors.password = t('forgetpsw.required')
  else if (!RESET_PASSWORD.test(values.password)) errors.password = t('forgetpsw.passwordRule')
  if (!values.confirm) errors.confirm = t('forgetpsw.required')
  else if (values.confirm !== values.password) errors.confirm = t('forgetpsw.mismatch')
  return errors
}

/** The answer of the forgot-password call as the page shows it: 404 is the spec's 'Email não encontrado'. */
function requestErrorMessage(err: unknown, t: Translate) {
  if (err instanceof ApiError && err.status === 404) return t('forgetpsw.notFound')
  return errorMessage(err)
}

export function ForgetPasswordPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [step, setStep] = useState<1 | 2>(1)
  const [email, setEmail] = useState('')
  const [values, setValues] = useState({ code: '', password: '', confirm: '' })
  const [touched, setTouched] = useState(false)
  const [serverError, setServerError] = useState<{ field?: 'email' | 'code'; message: string } | null>(null)
  const [busy, setBusy] = useState(false)

  const sendCode = async () => {
    setBusy(true)
    setServerError(null)
    try {
      await api.post(`/forgetpassword/${encodeURIComponent(email.trim())}`, undefined, { anonymous: true })
      toast.success(t('forgetpsw.sent'))
      setStep(2)
      setTouched(false)
      setValues({ code: '', password: '', confirm: '' })
    } catch (err) {
      const notFound = err instanceof ApiError && err.status === 404
      setServerError({ field: notFound ? 'email' : undefined, message: requestErrorMessage(err, t) })
      if (step === 2 && notFound) setStep(1)
    } finally {
      setBusy(false)
    }
  }

  const submitEmail = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setTouched(true)
    if (emailError(email, t)) {
      e.currentTarget.querySelector<HTMLInputElement>('input[name=email]')?.focus()
      return
    }
    await sendCode()
  }

  const submitReset = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault()
    setTouched(true)
    const form = e.currentTarget
    const found = resetErrors(values, t)
    const first = (['code', 'password', 'confirm'] as const).find((f) => found[f])
    if (first) {
      form.querySelector<HTMLInputElement>(`input[name=${first}]`)?.focus()
      return
    }
    setBusy(true)
    setServerError(null)
    const path = [email.trim(), values.code.trim(), values.password].map(encodeURIComponent).join('/')
    try {
      await api.post(`/resetpasswords/${path}`, undefined, { anonymous: true })
      toast.success(t('forgetpsw.done'))
      navigate('/login', { replace: true })
    } catch (err) {
      setBusy(false)
      if (err instanceof ApiError && err.code === 'ERR_INVALID_RESET_TOKEN') {
        setServerError({ field: 'code', message: t('forgetpsw.invalidCode') })
        form.querySelector<HTMLInputElement>('input[name=code]')?.focus()
      } else setServerError({ message: errorMessage(err) })
    }
  }

  const backToLogin = (
    <AuthFooter>
      <Link
        to="/login"
        className="inline-flex items-center gap-1.5 font-medium text-link hover:underline max-sm:py-2"
      >
        <ArrowLeft className="size-4" aria-hidden />
        {t('common.backToLogin')}
      </Link>
    </AuthFooter>
  )

  if (step === 1) {
    const error =
      serverError?.field === 'email' ? serverError.message : touched ? emailError(email, t) : undefined
    return (
      <AuthLayout title={t('forgetpsw.title')} subtitle={t('forgetpsw.subtitle')}>
        <form onSubmit={submitEmail} noValidate className="flex flex-col gap-4">
          {serverError && !serverError.field && <AuthError message={serverError.message} />}
          <Field label={t('forgetpsw.email')} error={error}>
            <EmailInput
              autoComplete="username"
              autoFocus
              value={email}
              onChange={(e) => {
                setEmail(e.target.value)
                setServerError(null)
              }}
            />
          </Field>
          <AuthSubmit busy={busy}>{t('forgetpsw.sendCode')}</AuthSubmit>
        </form>
        {backToLogin}
      </AuthLayout>
    )
  }

  const errors = { ...(touched ? resetErrors(values, t) : {}) }
  if (serverError?.field === 'code') errors.code = serverError.message
  const set = (key: ResetField, value: string) => {
    setValues((v) => ({ ...v, [key]: value }))
    if (key === 'code') setServerError(null)
  }
  return (
    <AuthLayout title={t('forgetpsw.title')} subtitle={t('forgetpsw.subtitle2')}>
      <div className="mb-5 flex gap-3 rounded-lg bg-surface-2 px-3.5 py-3 text-sm" role="status">
        <MailCheck className="mt-0.5 size-[18px] shrink-0 text-success" aria-hidden />
        <p className="min-w-0 text-fg">
          {t('forgetpsw.sentTo')} <strong className="break-all font-medium">{email.trim()}</strong>
          <span className="mt-0.5 block text-muted">{t('forgetpsw.sentHint')}</span>
        </p>
      </div>
      <form onSubmit={submitReset} noValidate className="flex flex-col gap-4">
        {serverError && !serverError.field && <AuthError message={serverError.message} />}
        <Field label={t('forgetpsw.code')} error={errors.code}>
          <CodeInput value={values.code} onChange={(code) => set('code', code)} autoFocus />
        </Field>
        <Field label={t('forgetpsw.password')} error={errors.password} hint={t('forgetpsw.passwordHint')}>
          <NewPasswordInput name="password" value={values.password} onChange={(v) => set('password', v)} />
        </Field>
        <Field label={t('forgetpsw.confirm')} error={errors.confirm}>
          <NewPasswordInput name="confirm" value={values.confirm} onChange={(v) => set('confirm', v)} />
        </Field>
        <AuthSubmit busy={busy}>{t('forgetpsw.reset')}</AuthSubmit>
        <div className="-mt-1 flex flex-wrap items-center justify-between gap-x-4 gap-y-1 text-sm">
          <button
            type="button"
            onClick={() => {
              setStep(1)
              setServerError(null)
              setTouched(false)
            }}
            className="text-link hover:underline max-sm:py-2"
          >
            {t('forgetpsw.otherEmail')}
          </button>
          <button
            type="button"
            onClick={sendCode}
            disabled={busy}
            className="text-link hover:underline max-sm:py-2"
          >
            {t('forgetpsw.resend')}
          </button>
        </div>
      </form>
      {backToLogin}
    </AuthLayout>
  )
}
