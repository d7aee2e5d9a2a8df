import { useSignals } from '@preact/signals-react/runtime'
import {
  Building2,
  Clock,
  KeyRound,
  LogOut,
  type LucideIcon,
  MonitorSmartphone,
  ShieldAlert,
  X,
} from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router-dom'
import { loginBody } from '../../../shared/schemas/auth'
import { email as emailRule } from '../../../shared/schemas/common'
import { ApiError } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { Field } from '../../components/ui/Field'
import { schemaErrors } from '../../components/ui/schemaErrors'
import i18n from '../../i18n'
import { formatDueDate } from '../../lib/dates'
import { dismissSignOutReason, login, type SignOutReason, signOutReason } from '../../state/session'
import { AuthLayout } from './AuthLayout'
import { AuthError, AuthFooterLink, AuthSubmit, EmailInput, PasswordInput } from './AuthParts'

/** The server's login body, with the shared e-mail rule: the form refuses a malformed address before sending. */
const loginForm = loginBody.merge({ email: emailRule })

type LoginField = 'email' | 'password'

const reasonIcons: Record<SignOutReason, LucideIcon> = {
  elsewhere: MonitorSmartphone,
  expired: Clock,
  password: KeyRound,
  admin: ShieldAlert,
  company: Building2,
  signedOut: LogOut,
}

/** Why the user is here after a session ended by itself; stays until dismissed or the next sign-in. */
function SignOutNotice() {
  useSignals()
  const { t } = useTranslation()
  const reason = signOutReason.value
  if (!reason) return null
  const Icon = reasonIcons[reason]
  return (
    <div
      role="alert"
      aria-labelledby="sign-out-reason-title"
      data-testid="sign-out-reason"
      className="mb-5 flex gap-3 rounded-lg border border-warning/35 bg-warning-soft py-3 pr-2 pl-3.5 text-on-warning-soft text-sm"
    >
      <Icon className="mt-0.5 size-[18px] shrink-0" aria-hidden />
      <div className="min-w-0 flex-1">
        <p id="sign-out-reason-title" className="font-medium">
          {t(`auth.signOutReasons.${reason}.title`)}
        </p>
        <p className="mt-0.5 opacity-90">{t(`auth.signOutReasons.${reason}.text`)}</p>
      </div>
      <button
        type="button"
        onClick={dismissSignOutReason}
        aria-label={t('common.close')}
        title={t('common.close')}
        className="-my-1 inline-flex size-8 shrink-0 items-center justify-center rounded-md transition-colors duration-150 hover:bg-black/5 max-sm:size-11 dark:hover:bg-white/10"
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  )
}

export function loginErrorMessage(err: unknown): string {
  const t = i18n.t.bind(i18n)
  if (err instanceof ApiError) {
    if (err.code === 'ERR_SUBSCRIPTION_EXPIRED') {
      return t('auth.subscriptionExpired', { date: formatDueDate(String(err.details.dueDate ?? '')) })
    }
    if (err.code === 'ERR_TOO_MANY_ATTEMPTS' || err.status === 429) {
      return err.retryAfter != null && err.retryAfter > 0
        ? t('auth.tooManyAttempts', { seconds: err.retryAfter })
        : t('auth.tooManyAttemptsNoTime')
    }
  }
  return errorMessage(err)
}

export function LoginPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [touched, setTouched] = useState(false)

  const fieldErrors = touched ? schemaErrors<LoginField>(loginForm({ email, password }), t) : {}

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    const errors = schemaErrors<LoginField>(loginForm({ email, password }), t)
    if (errors.email || errors.password) {
      const first = errors.email ? 'email' : 'password'
      ;(e.currentTarget as HTMLFormElement).querySelector<HTMLInputElement>(`input[name=${first}]`)?.focus()
      return
    }
    setBusy(true)
    setError(null)
    try {
      await login(email.trim(), password)
      navigate('/tickets', { replace: true })
    } catch (err) {
      setError(loginErrorMessage(err))
      setBusy(false)
    }
  }

  return (
    <AuthLayout title={t('auth.title')} subtitle={t('auth.subtitle')}>
      <SignOutNotice />
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {error && <AuthError message={error} />}
        <Field label={t('auth.email')} error={fieldErrors.email}>
          <EmailInput
            autoComplete="username"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label={t('auth.password')} error={fieldErrors.password}>
          <PasswordInput
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </Field>
        <div className="-mt-1 flex justify-end">
          <Link to="/forgetpsw" className="text-link text-sm hover:underline max-sm:py-2">
            {t('auth.forgotPassword')}
          </Link>
        </div>
        <AuthSubmit busy={busy}>{t('auth.submit')}</AuthSubmit>
      </form>
      <AuthFooterLink question={t('auth.noAccount')} to="/signup">
        {t('auth.createAccount')}
      </AuthFooterLink>
    </AuthLayout>
  )
}
