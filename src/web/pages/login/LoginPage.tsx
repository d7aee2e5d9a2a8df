import { useSignals } from '@preact/signals-react/runtime'
import {
  AlertCircle,
  Building2,
  Clock,
  Eye,
  EyeOff,
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
import { Button } from '../../components/ui/Button'
import { Field, Input } from '../../components/ui/Field'
import { schemaErrors } from '../../components/ui/schemaErrors'
import i18n from '../../i18n'
import { formatDueDate } from '../../lib/dates'
import { dismissSignOutReason, login, type SignOutReason, signOutReason } from '../../state/session'
import { AuthLayout } from './AuthLayout'

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
  const [showPassword, setShowPassword] = useState(false)
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
        {error && (
          <div
            role="alert"
            className="flex gap-2.5 rounded-lg border border-danger/30 bg-danger-soft px-3 py-2.5 text-on-danger-soft text-sm"
          >
            <AlertCircle className="mt-px size-4 shrink-0" aria-hidden />
            <span>{error}</span>
          </div>
        )}
        <Field label={t('auth.email')} error={fieldErrors.email}>
          <Input
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </Field>
        <Field label={t('auth.password')} error={fieldErrors.password}>
          <div className="relative">
            <Input
              type={showPassword ? 'text' : 'password'}
              name="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              className="pr-11"
            />
            <button
              type="button"
              onClick={() => setShowPassword((s) => !s)}
              aria-label={showPassword ? t('auth.hidePassword') : t('auth.showPassword')}
              title={showPassword ? t('auth.hidePassword') : t('auth.showPassword')}
              className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-muted hover:text-fg"
            >
              {showPassword ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
            </button>
          </div>
        </Field>
        <div className="-mt-1 flex justify-end">
          <Link to="/forgetpsw" className="text-link text-sm hover:underline max-sm:py-2">
            {t('auth.forgotPassword')}
          </Link>
        </div>
        <Button type="submit" size="lg" loading={busy} className="w-full">
          {t('auth.submit')}
        </Button>
      </form>
      <p className="mt-6 border-border border-t pt-5 text-center text-muted text-sm">
        {t('auth.noAccount')}{' '}
        <Link to="/signup" className="font-medium text-link hover:underline">
          {t('auth.createAccount')}
        </Link>
      </p>
    </AuthLayout>
  )
}
