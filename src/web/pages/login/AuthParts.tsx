import { AlertCircle, Eye, EyeOff } from 'lucide-react'
import { type ComponentProps, type InputHTMLAttributes, type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { Button } from '../../components/ui/Button'
import { Input } from '../../components/ui/Field'
import { cn } from '../../lib/cn'

/** A public page's error that belongs to no field, above the form. */
export function AuthError({ message }: { message: string }) {
  return (
    <div
      role="alert"
      className="flex gap-2.5 rounded-lg border border-danger/30 bg-danger-soft px-3 py-2.5 text-on-danger-soft text-sm"
    >
      <AlertCircle className="mt-px size-4 shrink-0" aria-hidden />
      <span>{message}</span>
    </div>
  )
}

/** A public form's full-width submit button. */
export function AuthSubmit({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <Button type="submit" size="lg" loading={busy} className="w-full">
      {children}
    </Button>
  )
}

/** The line under a public page's card body: a link to another public page. */
export function AuthFooter({ children }: { children: ReactNode }) {
  return <p className="mt-6 border-border border-t pt-5 text-center text-muted text-sm">{children}</p>
}

/** The footer's question and its link to another public page ('Não tem conta? Criar conta'). */
export function AuthFooterLink({
  question,
  to,
  children,
}: {
  question: string
  to: string
  children: ReactNode
}) {
  return (
    <AuthFooter>
      {question}{' '}
      <Link to={to} className="font-medium text-link hover:underline">
        {children}
      </Link>
    </AuthFooter>
  )
}

/** A public form's e-mail input (the keyboard and the browser's autofill know it as one). */
export function EmailInput(props: Omit<ComponentProps<typeof Input>, 'type' | 'name' | 'inputMode'>) {
  return <Input type="email" name="email" inputMode="email" {...props} />
}

/** A password input with a show/hide button. */
export function PasswordInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const { t } = useTranslation()
  const [show, setShow] = useState(false)
  const label = show ? t('auth.hidePassword') : t('auth.showPassword')
  return (
    <div className="relative">
      <Input {...props} type={show ? 'text' : 'password'} className="pr-11" />
      <button
        type="button"
        onClick={() => setShow((s) => !s)}
        aria-label={label}
        title={label}
        className="absolute inset-y-0 right-0 flex w-11 items-center justify-center rounded-r-lg text-muted hover:text-fg"
      >
        {show ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </button>
    </div>
  )
}

/** A password being chosen (sign-up, password recovery): the browser may offer a strong one. */
export function NewPasswordInput({
  name,
  value,
  onChange,
}: {
  name: string
  value: string
  onChange: (value: string) => void
}) {
  return (
    <PasswordInput
      name={name}
      autoComplete="new-password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  )
}

/** The six-digit code sent by WhatsApp or e-mail: digits only, spaced out. */
export function CodeInput({
  value,
  onChange,
  autoFocus,
  className,
}: {
  value: string
  onChange: (digits: string) => void
  autoFocus?: boolean
  className?: string
}) {
  return (
    <Input
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      autoFocus={autoFocus}
      maxLength={6}
      placeholder="000000"
      value={value}
      onChange={(e) => onChange(e.target.value.replace(/\D/g, ''))}
      className={cn(className, 'font-medium tabular-nums tracking-[0.3em]')}
    />
  )
}
