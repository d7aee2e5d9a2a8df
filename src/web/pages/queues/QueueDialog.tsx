import { useSignals } from '@preact/signals-react/runtime'
import { Check } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { QueueDto } from '../../../shared/api'
import { ApiError, api } from '../../api/client'
import { errorMessage, fieldMessage, toastError } from '../../api/errors'
import { Dialog } from '../../components/ui/Dialog'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormActions } from '../../components/ui/FormActions'
import { Skeleton } from '../../components/ui/Skeleton'
import { Tabs } from '../../components/ui/Tabs'
import { cn } from '../../lib/cn'
import { scheduleEnabled } from '../../state/settings'
import { toast } from '../../state/toast'

/** Distinct, mid-tone colours that read on both themes. */
export const QUEUE_PALETTE = [
  '#3284FE',
  '#0EA5E9',
  '#14B8A6',
  '#22C55E',
  '#84CC16',
  '#EAB308',
  '#F59E0B',
  '#F97316',
  '#EF4444',
  '#EC4899',
  '#D946EF',
  '#8B5CF6',
  '#6366F1',
  '#64748B',
  '#A16207',
  '#0F766E',
]

export type QueueForm = {
  name: string
  color: string
  orderQueue: string
  greetingMessage: string
  outOfHoursMessage: string
}
type Errors = Partial<Record<keyof QueueForm, string>>

const EMPTY: QueueForm = { name: '', color: '', orderQueue: '', greetingMessage: '', outOfHoursMessage: '' }
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/

export function validateQueue(form: QueueForm, t: (k: string) => string): Errors {
  const errors: Errors = {}
  const name = form.name.trim()
  if (!name) errors.name = t('validation.required')
  else if (name.length < 2) errors.name = t('validation.tooShort')
  else if (name.length > 50) errors.name = t('validation.tooLong')
  const color = form.color.trim()
  if (!color) errors.color = t('validation.required')
  else if (!HEX.test(color)) errors.color = t('queues.invalidColor')
  if (form.orderQueue !== '' && !/^\d{1,4}$/.test(form.orderQueue))
    errors.orderQueue = t('validation.tooLong')
  return errors
}

function ColorPicker({
  value,
  onChange,
  invalid,
}: {
  value: string
  onChange: (v: string) => void
  invalid: boolean
}) {
  const { t } = useTranslation()
  const normalized = value.trim().toUpperCase()
  return (
    <div className="flex flex-col gap-3">
      <div
        role="radiogroup"
        aria-label={t('queues.colorPalette')}
        className="flex max-w-[312px] flex-wrap gap-2 max-sm:max-w-none"
      >
        {QUEUE_PALETTE.map((c) => {
          const selected = normalized === c
          return (
            // biome-ignore lint/a11y/useSemanticElements: a swatch grid reads better as buttons with radio semantics
            <button
              key={c}
              type="button"
              role="radio"
              aria-checked={selected}
              aria-label={c}
              title={c}
              onClick={() => onChange(c)}
              className={cn(
                'flex size-8 items-center justify-center rounded-full ring-offset-2 ring-offset-surface transition-shadow duration-150 max-sm:size-10',
                selected ? 'ring-2 ring-fg' : 'hover:ring-2 hover:ring-border-strong',
              )}
              style={{ background: c }}
            >
              {selected && <Check className="size-4 text-white drop-shadow" strokeWidth={3} aria-hidden />}
            </button>
          )
        })}
      </div>
      <div className="flex items-center gap-2">
        <span
          className="size-10 shrink-0 rounded-lg border border-border-strong max-sm:size-11"
          style={{ background: HEX.test(normalized) ? normalized : 'transparent' }}
          aria-hidden
        />
        <Input
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder="#3284FE"
          maxLength={9}
          aria-label={t('queues.colorHex')}
          invalid={invalid}
          className="max-w-40 font-mono uppercase"
          spellCheck={false}
        />
      </div>
    </div>
  )
}

export function QueueDialog({
  open,
  queueId,
  onClose,
  onSaved,
}: {
  open: boolean
  queueId?: number
  onClose: () => void
  onSaved?: (queue: QueueDto) => void
}) {
  useSignals()
  const { t } = useTranslation()
  const creating = queueId == null
  const [form, setForm] = useState<QueueForm>(EMPTY)
  const [errors, setErrors] = useState<Errors>({})
  const [loading, setLoading] = useState(!creating)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [submitted, setSubmitted] = useState(false)
  const showOutOfHours = scheduleEnabled.value

  useEffect(() => {
    if (!open) return
    setErrors({})
    setSubmitted(false)
    setLoadError(null)
    if (queueId == null) {
      setForm(EMPTY)
      setLoading(false)
      return
    }
    const ctrl = new AbortController()
    setLoading(true)
    api
      .get<QueueDto>(`/queue/${queueId}`, { signal: ctrl.signal })
      .then((q) =>
        setForm({
          name: q.name,
          color: q.color,
          orderQueue: q.orderQueue == null ? '' : String(q.orderQueue),
          greetingMessage: q.greetingMessage ?? '',
          outOfHoursMessage: q.outOfHoursMessage ?? '',
        }),
      )
      .catch((err) => {
        if ((err as Error)?.name !== 'AbortError') setLoadError(errorMessage(err))
      })
      .finally(() => setLoading(false))
    return () => ctrl.abort()
  }, [open, queueId])

  const set = <K extends keyof QueueForm>(key: K, value: QueueForm[K]) => {
    const next = { ...form, [key]: value }
    setForm(next)
    if (submitted) setErrors(validateQueue(next, t))
  }

  const submit = async () => {
    setSubmitted(true)
    const found = validateQueue(form, t)
    setErrors(found)
    if (Object.keys(found).length) return
    const body = {
      name: form.name.trim(),
      color: form.color.trim().toUpperCase(),
      orderQueue: form.orderQueue === '' ? null : Number(form.orderQueue),
      greetingMessage: form.greetingMessage,
      outOfHoursMessage: form.outOfHoursMessage,
    }
    setSaving(true)
    try {
      const saved = creating
        ? await api.post<QueueDto>('/queue', body)
        : await api.put<QueueDto>(`/queue/${queueId}`, body)
      toast.success(t('queues.saved'))
      onSaved?.(saved)
      onClose()
    } catch (err) {
      if (err instanceof ApiError) {
        const fieldErrors: Errors = {}
        for (const f of err.fields)
          if (f.field in EMPTY) fieldErrors[f.field as keyof QueueForm] = fieldMessage(err, f)
        if (err.code === 'ERR_QUEUE_COLOR_ALREADY_EXISTS') fieldErrors.color = errorMessage(err)
        if (err.code === 'ERR_QUEUE_NAME_ALREADY_EXISTS') fieldErrors.name = errorMessage(err)
        setErrors(fieldErrors)
      }
      toastError(err)
    } finally {
      setSaving(false)
    }
  }

  const dataTab = loading ? (
    <div className="space-y-4 pt-4" aria-busy>
      <Skeleton className="h-10 w-full" />
      <Skeleton className="h-24 w-full" />
      <Skeleton className="h-24 w-full" />
    </div>
  ) : loadError ? (
    <p role="alert" className="pt-4 text-danger text-sm">
      {loadError}
    </p>
  ) : (
    <div className="grid gap-5 pt-4 sm:grid-cols-[1fr_140px]">
      <Field label={t('queues.name')} error={errors.name} required>
        <Input value={form.name} onChange={(e) => set('name', e.target.value)} autoFocus autoComplete="off" />
      </Field>
      <Field label={t('queues.order')} error={errors.orderQueue}>
        <Input
          type="number"
          min={0}
          max={9999}
          inputMode="numeric"
          value={form.orderQueue}
          onChange={(e) => set('orderQueue', e.target.value)}
          className="tnum"
        />
      </Field>
      <Field label={t('queues.color')} error={errors.color} required as="group" className="sm:col-span-2">
        <ColorPicker value={form.color} onChange={(v) => set('color', v)} invalid={!!errors.color} />
      </Field>
      <Field label={t('queues.greeting')} className="sm:col-span-2">
        <Textarea
          value={form.greetingMessage}
          onChange={(e) => set('greetingMessage', e.target.value)}
          rows={4}
          maxLength={4000}
        />
      </Field>
      {showOutOfHours && (
        <Field label={t('queues.outOfHours')} className="sm:col-span-2">
          <Textarea
            value={form.outOfHoursMessage}
            onChange={(e) => set('outOfHoursMessage', e.target.value)}
            rows={4}
            maxLength={4000}
          />
        </Field>
      )}
    </div>
  )

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={creating ? t('queues.addTitle') : t('queues.editTitle')}
      onSubmit={submit}
      size="md"
      footer={<FormActions onCancel={onClose} saving={saving} disabled={loading || !!loadError} />}
    >
      <Tabs tabs={[{ key: 'data', label: t('queues.tabData'), content: dataTab }]} />
    </Dialog>
  )
}
