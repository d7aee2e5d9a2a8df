import { AlertCircle } from 'lucide-react'
import type { ReactNode } from 'react'
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
