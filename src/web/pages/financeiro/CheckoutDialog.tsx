import { useSignals } from '@preact/signals-react/runtime'
import { Check, CheckCircle2, Copy, QrCode as QrIcon } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import type { CheckoutResponse, InvoiceDto } from '../../../shared/invoices'
import { type CHECKOUT_COUNTRIES, PAYMENT_REDIRECT_MS } from '../../../shared/invoices'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { liveChannel, subscribe } from '../../api/live'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Field, Input } from '../../components/ui/Field'
import { QrCode } from '../../components/ui/QrCode'
import { Select } from '../../components/ui/Select'
import { Spinner } from '../../components/ui/Spinner'
import { cn } from '../../lib/cn'
import { formatDueDate } from '../../lib/dates'
import { currentUser, patchCurrentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { formatBrl } from '../plans/money'

/** The spec's three steps; the dialog opens on the plan step (index 1). */
const STEPS = ['data', 'plan', 'review'] as const
export const CHECKOUT_START_STEP = 1

type Country = (typeof CHECKOUT_COUNTRIES)[number]

export type BillingForm = {
  firstName: string
  address2: string
  city: string
  state: string
  zipcode: string
  country: Country | ''
}

type BillingErrors = Partial<Record<keyof BillingForm, string>>

/** Step 1's rules (spec 3): full name, address, city, zip code and country are required. */
export function billingErrors(form: BillingForm): BillingErrors {
  const errors: BillingErrors = {}
  if (!form.firstName.trim()) errors.firstName = 'billing.checkout.fullNameRequired'
  if (!form.address2.trim()) errors.address2 = 'billing.checkout.addressRequired'
  if (!form.city.trim()) errors.city = 'billing.checkout.cityRequired'
  if (!form.zipcode.trim()) errors.zipcode = 'billing.checkout.zipRequired'
  if (!form.country) errors.country = 'billing.checkout.countryRequired'
  return errors
}

function Stepper({ step }: { step: number }) {
  const { t } = useTranslation()
  return (
    <ol
      className="flex items-center gap-2 border-border border-b px-5 pb-3"
      aria-label={t('billing.checkout.steps')}
    >
      {STEPS.map((key, index) => {
        const done = index < step
        const current = index === step
        return (
          <li
            key={key}
            className="flex min-w-0 flex-1 items-center gap-2"
            aria-current={current ? 'step' : undefined}
          >
            <span
              className={cn(
                'inline-flex size-6 shrink-0 items-center justify-center rounded-full font-semibold text-xs tnum',
                current && 'bg-primary text-on-primary',
                done && 'bg-success-soft text-on-success-soft',
                !current && !done && 'bg-surface-2 text-muted',
              )}
              aria-hidden
            >
              {done ? <Check className="size-3.5" /> : index + 1}
            </span>
            <span className={cn('truncate text-sm', current ? 'font-medium text-fg' : 'text-muted')}>
              {t(`billing.checkout.step.${key}`)}
            </span>
            {index < STEPS.length - 1 && <span className="h-px min-w-3 flex-1 bg-border" aria-hidden />}
          </li>
        )
      })}
    </ol>
  )
}

function Summary({ rows }: { rows: [string, string][] }) {
  return (
    <dl className="divide-y divide-border rounded-lg border border-border">
      {rows.map(([label, value]) => (
        <div key={label} className="flex items-baseline justify-between gap-4 px-3 py-2 text-sm">
          <dt className="text-muted">{label}</dt>
          <dd className="min-w-0 truncate text-right font-medium text-fg">{value}</dd>
        </div>
      ))}
    </dl>
  )
}

/** The Pix screen: the QR image drawn from the BR Code, the amount, the code to copy, and the wait for payment. */
function PixScreen({ pix, renewedUntil }: { pix: CheckoutResponse; renewedUntil: string | null }) {
  const { t } = useTranslation()
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(pix.qrcode.qrcode)
      toast.success(t('billing.checkout.copied'))
    } catch {
      toast.error(t('billing.checkout.copyFailed'))
    }
  }
  if (renewedUntil) {
    return (
      <div className="flex flex-col items-center gap-3 py-6 text-center" role="status">
        <CheckCircle2 className="size-12 text-success" aria-hidden />
        <p className="font-semibold text-fg text-lg">
          {t('billing.checkout.renewed', { date: formatDueDate(renewedUntil) })}
        </p>
        <p className="text-muted text-sm">{t('billing.checkout.redirecting')}</p>
      </div>
    )
  }
  return (
    <div className="flex flex-col items-center gap-4">
      <p className="text-center text-muted text-sm">{t('billing.checkout.pixIntro')}</p>
      <QrCode
        value={pix.qrcode.qrcode}
        label={t('billing.checkout.qrLabel')}
        className="size-56 border border-border"
      />
      <div className="text-center">
        <div className="text-muted text-xs uppercase tracking-wide">{t('billing.checkout.amount')}</div>
        <div className="font-semibold text-2xl text-fg tnum">{formatBrl(Number(pix.valor.original))}</div>
      </div>
      <div className="w-full">
        <label className="font-medium text-[13px] text-fg" htmlFor="pix-code">
          {t('billing.checkout.code')}
        </label>
        <textarea
          id="pix-code"
          readOnly
          rows={4}
          value={pix.qrcode.qrcode}
          onFocus={(e) => e.currentTarget.select()}
          className="mt-1.5 w-full resize-none break-all rounded-lg border border-border bg-surface-2 px-3 py-2 font-mono text-fg text-xs"
        />
      </div>
      <Button icon={<Copy className="size-4" />} onClick={copy} className="w-full sm:w-auto">
        {t('billing.checkout.copy')}
      </Button>
      <p className="flex items-center gap-2 text-muted text-sm" role="status">
        <Spinner />
        {t('billing.checkout.waiting')}
      </p>
    </div>
  )
}

/**
 * The checkout (spec 3): Dados (billing data), Personalizar (the plan) and Revisar, starting on the plan step;
 * PAGAR posts /subscription and shows the Pix code. A live `company-{id}-payment` CONCLUIDA shows the new due
 * date and goes to / after 4 s. Card fields of the spec's payload are not collected: the payment is Pix only.
 */
export function CheckoutDialog({ invoice, onClose }: { invoice: InvoiceDto; onClose: () => void }) {
  useSignals()
  const { t } = useTranslation()
  const navigate = useNavigate()
  const me = currentUser.value
  const [step, setStep] = useState<number>(CHECKOUT_START_STEP)
  const [form, setForm] = useState<BillingForm>({
    firstName: me?.name ?? '',
    address2: '',
    city: '',
    state: '',
    zipcode: '',
    country: 'BR',
  })
  const [errors, setErrors] = useState<BillingErrors>({})
  const [busy, setBusy] = useState(false)
  const [pix, setPix] = useState<CheckoutResponse | null>(null)
  const [renewedUntil, setRenewedUntil] = useState<string | null>(null)
  const redirect = useRef<ReturnType<typeof setTimeout> | null>(null)

  const companyId = me?.companyId
  useEffect(() => {
    if (companyId == null) return
    return subscribe(liveChannel(companyId, 'payment'), (data) => {
      if (data.action !== 'CONCLUIDA') return
      const date = data.company.dueDate
      setRenewedUntil(date)
      const company = currentUser.peek()?.company
      if (company) patchCurrentUser({ company: { ...company, dueDate: date } })
      toast.success(t('billing.checkout.renewed', { date: formatDueDate(date) }), PAYMENT_REDIRECT_MS)
      if (redirect.current) clearTimeout(redirect.current)
      redirect.current = setTimeout(() => navigate('/'), PAYMENT_REDIRECT_MS)
    })
  }, [companyId, navigate, t])
  useEffect(
    () => () => {
      if (redirect.current) clearTimeout(redirect.current)
    },
    [],
  )

  const set = <K extends keyof BillingForm>(key: K, value: BillingForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }))
  }

  const validate = () => {
    const found = billingErrors(form)
    setErrors(found)
    return Object.keys(found).length === 0
  }

  const next = () => {
    if (step === 0 && !validate()) return
    setStep((s) => Math.min(s + 1, STEPS.length - 1))
  }

  const pay = async () => {
    if (!validate()) {
      setStep(0)
      return
    }
    setBusy(true)
    try {
      const res = await api.post<CheckoutResponse>('/subscription', {
        firstName: form.firstName.trim(),
        address2: form.address2.trim(),
        city: form.city.trim(),
        state: form.state.trim(),
        zipcode: form.zipcode.trim(),
        country: form.country,
        invoiceId: invoice.id,
      })
      setPix(res)
      toast.success(t('billing.checkout.subscribed'))
    } catch (err) {
      toastError(err)
    } finally {
      setBusy(false)
    }
  }

  const last = step === STEPS.length - 1
  const err = (key: keyof BillingForm) => (errors[key] ? t(errors[key] as string) : null)
  const months = invoice.plan.value > 0 ? Math.round(invoice.value / invoice.plan.value) : 1
  const countryOptions = [
    { value: 'BR' as const, label: t('billing.checkout.countryBR') },
    { value: 'usa' as const, label: t('billing.checkout.countryUSA') },
  ]

  if (pix) {
    return (
      <Dialog
        open
        onClose={onClose}
        size="sm"
        title={t('billing.checkout.pixTitle')}
        description={invoice.detail}
        footer={
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
        }
      >
        <PixScreen pix={pix} renewedUntil={renewedUntil} />
      </Dialog>
    )
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={t('billing.checkout.title')}
      description={t('billing.checkout.invoiceLine', {
        id: invoice.id,
        date: formatDueDate(invoice.dueDate),
      })}
      header={<Stepper step={step} />}
      onSubmit={last ? pay : next}
      fixedHeight
      footer={
        <>
          {step > 0 && (
            <Button variant="secondary" onClick={() => setStep((s) => s - 1)} disabled={busy}>
              {t('billing.checkout.back')}
            </Button>
          )}
          {last ? (
            <Button type="submit" loading={busy} icon={<QrIcon className="size-4" />}>
              {t('billing.checkout.pay')}
            </Button>
          ) : (
            <Button type="submit">{t('billing.checkout.next')}</Button>
          )}
        </>
      }
    >
      {step === 0 && (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label={t('billing.checkout.fullName')}
            error={err('firstName')}
            required
            className="sm:col-span-2"
          >
            <Input
              value={form.firstName}
              onChange={(e) => set('firstName', e.target.value)}
              autoComplete="name"
            />
          </Field>
          <Field
            label={t('billing.checkout.address')}
            error={err('address2')}
            required
            className="sm:col-span-2"
          >
            <Input
              value={form.address2}
              onChange={(e) => set('address2', e.target.value)}
              autoComplete="street-address"
            />
          </Field>
          <Field label={t('billing.checkout.city')} error={err('city')} required>
            <Input
              value={form.city}
              onChange={(e) => set('city', e.target.value)}
              autoComplete="address-level2"
            />
          </Field>
          <Field label={t('billing.checkout.state')}>
            <Input
              value={form.state}
              onChange={(e) => set('state', e.target.value)}
              autoComplete="address-level1"
            />
          </Field>
          <Field label={t('billing.checkout.zip')} error={err('zipcode')} required>
            <Input
              value={form.zipcode}
              onChange={(e) => set('zipcode', e.target.value)}
              autoComplete="postal-code"
            />
          </Field>
          <Field label={t('billing.checkout.country')} error={err('country')} required>
            <Select
              value={form.country || null}
              onChange={(v) => set('country', v)}
              options={countryOptions}
              placeholder={t('billing.checkout.countryPlaceholder')}
            />
          </Field>
          <p className="text-muted text-xs sm:col-span-2">{t('billing.checkout.pixOnly')}</p>
        </div>
      )}
      {step === 1 && (
        <div className="space-y-3">
          <p className="text-muted text-sm">{t('billing.checkout.planIntro')}</p>
          <div className="flex items-center gap-3 rounded-lg border-2 border-primary bg-selected p-4">
            <span className="inline-flex size-5 items-center justify-center rounded-full bg-primary text-on-primary">
              <Check className="size-3.5" aria-hidden />
            </span>
            <div className="min-w-0 flex-1">
              <div className="truncate font-semibold text-fg">{invoice.plan.name}</div>
              <div className="text-muted text-sm">
                {t('billing.checkout.perMonth', { value: formatBrl(invoice.plan.value) })}
                {' · '}
                {t(`billing.recurrence.${invoice.recurrence}`)}
              </div>
            </div>
            <div className="text-right font-semibold text-fg tnum">{formatBrl(invoice.value)}</div>
          </div>
          <p className="text-muted text-xs">{t('billing.checkout.planHint')}</p>
        </div>
      )}
      {step === 2 && (
        <div className="space-y-4">
          <Summary
            rows={[
              [t('billing.checkout.fullName'), form.firstName],
              [t('billing.checkout.address'), form.address2],
              [t('billing.checkout.city'), [form.city, form.state].filter(Boolean).join(' / ')],
              [t('billing.checkout.zip'), form.zipcode],
              [
                t('billing.checkout.country'),
                countryOptions.find((o) => o.value === form.country)?.label ?? '',
              ],
            ]}
          />
          <Summary
            rows={[
              [t('billing.checkout.plan'), invoice.plan.name],
              [t('billing.checkout.period'), t('billing.checkout.months', { count: months })],
              [t('billing.invoices.dueDate'), formatDueDate(invoice.dueDate)],
              [t('billing.checkout.total'), formatBrl(invoice.value)],
            ]}
          />
          {Object.keys(errors).length > 0 && (
            <p className="text-danger text-sm" role="alert">
              {t('billing.checkout.fixData')}
            </p>
          )}
        </div>
      )}
    </Dialog>
  )
}
