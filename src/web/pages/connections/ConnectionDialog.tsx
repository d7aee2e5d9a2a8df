import { Copy, KeyRound } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { QueueDto, WhatsappDto } from '../../../shared/api'
import { ApiError, api } from '../../api/client'
import { errorMessage, fieldMessage, toastError } from '../../api/errors'
import { Badge } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { Dialog } from '../../components/ui/Dialog'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormActions } from '../../components/ui/FormActions'
import { MultiSelect, Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { Switch } from '../../components/ui/Switch'
import { Tabs } from '../../components/ui/Tabs'
import { toast } from '../../state/toast'
import { randomToken } from './format'
import { upsertConnection } from './store'
import {
  type ConnectionErrors,
  type ConnectionField,
  type ConnectionForm,
  EMPTY_CONNECTION,
  FIELD_TAB,
  firstErrorTab,
  fromDto,
  TAB_KEYS,
  type TabKey,
  toBody,
  validateConnection,
} from './validation'

const VARIABLES = '{{firstName}}, {{name}}, {{ms}}, {{protocol}}'

function Section({ title, hint, children }: { title?: ReactNode; hint?: ReactNode; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 space-y-4">
      {title && <legend className="mb-3 font-semibold text-fg text-sm">{title}</legend>}
      {hint && <p className="-mt-1 text-muted text-sm">{hint}</p>}
      {children}
    </fieldset>
  )
}

/** Maps a 400 answer onto the form's fields; codes that belong to a field land there too. */
export function serverErrors(err: ApiError): ConnectionErrors {
  const errors: ConnectionErrors = {}
  for (const f of err.fields)
    if (f.field in EMPTY_CONNECTION) errors[f.field as ConnectionField] = fieldMessage(err, f)
  if (err.code === 'ERR_WAPP_GREETING_REQUIRED') errors.greetingMessage = errorMessage(err)
  if (err.code === 'ERR_NO_OTHER_WHATSAPP') errors.isDefault = errorMessage(err)
  return errors
}

/**
 * Create or edit a connection: every field, grouped in tabs. Client checks first (the spec's cross-field
 * rules), then the server's field errors land on their field and the dialog shows the tab of the first one.
 */
export function ConnectionDialog({
  open,
  connectionId,
  onClose,
  onSaved,
}: {
  open: boolean
  connectionId?: number
  onClose: () => void
  onSaved?: (connection: WhatsappDto, created: boolean) => void
}) {
  const { t } = useTranslation()
  const creating = connectionId == null
  const [form, setForm] = useState<ConnectionForm>(EMPTY_CONNECTION)
  const [errors, setErrors] = useState<ConnectionErrors>({})
  const [queues, setQueues] = useState<QueueDto[]>([])
  const [loading, setLoading] = useState(!creating)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [submitted, setSubmitted] = useState(false)
  const [tab, setTab] = useState(0)
  const [regenerating, setRegenerating] = useState(false)

  useEffect(() => {
    if (!open) return
    setErrors({})
    setSubmitted(false)
    setLoadError(null)
    setTab(0)
    const ctrl = new AbortController()
    api
      .get<QueueDto[]>('/queue', { signal: ctrl.signal })
      .then(setQueues)
      .catch(() => {})
    if (connectionId == null) {
      setForm(EMPTY_CONNECTION)
      setLoading(false)
    } else {
      setLoading(true)
      api
        .get<WhatsappDto>(`/whatsapp/${connectionId}`, { signal: ctrl.signal })
        .then((w) => setForm(fromDto(w)))
        .catch((err) => {
          if ((err as Error)?.name !== 'AbortError') setLoadError(errorMessage(err))
        })
        .finally(() => setLoading(false))
    }
    return () => ctrl.abort()
  }, [open, connectionId])

  const set = <K extends ConnectionField>(key: K, value: ConnectionForm[K]) => {
    const next = { ...form, [key]: value }
    setForm(next)
    if (submitted) setErrors(validateConnection(next, t))
    else if (errors[key]) setErrors({ ...errors, [key]: undefined })
  }

  const showErrors = (found: ConnectionErrors) => {
    setErrors(found)
    const first = firstErrorTab(found)
    if (first) setTab(TAB_KEYS.indexOf(first))
  }

  const submit = async () => {
    setSubmitted(true)
    const found = validateConnection(form, t)
    if (Object.keys(found).length) {
      showErrors(found)
      return
    }
    setErrors({})
    setSaving(true)
    try {
      const saved = creating
        ? await api.post<WhatsappDto>('/whatsapp', toBody(form, true))
        : await api.put<WhatsappDto>(`/whatsapp/${connectionId}`, toBody(form, false))
      upsertConnection(saved)
      toast.success(t('connections.toasts.saved'))
      onSaved?.(saved, creating)
      onClose()
    } catch (err) {
      const found = err instanceof ApiError ? serverErrors(err) : {}
      if (Object.keys(found).length) showErrors(found)
      toastError(err)
    } finally {
      setSaving(false)
    }
  }

  const regenerate = async () => {
    if (connectionId == null) return
    const token = randomToken()
    try {
      const saved = await api.put<WhatsappDto>(`/whatsapp/${connectionId}`, { token })
      upsertConnection(saved)
      setForm((f) => ({ ...f, token: saved.token ?? token }))
      toast.success(t('connections.toasts.tokenRegenerated'))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const copyToken = async () => {
    try {
      await navigator.clipboard.writeText(form.token)
      toast.success(t('connections.toasts.tokenCopied'))
    } catch {
      toast.error(t('connections.toasts.copyFailed'))
    }
  }

  const queueOptions = queues.map((q) => ({ value: q.id, label: q.name, color: q.color }))
  const d = (k: string) => t(`connections.dialog.${k}`)
  const text = (
    key: ConnectionField & keyof ConnectionForm,
    opts: { rows?: number; hint?: ReactNode; required?: boolean } = {},
  ) => (
    <Field label={d(key)} error={errors[key]} hint={opts.hint} required={opts.required}>
      <Textarea
        name={key}
        value={form[key] as string}
        onChange={(e) => set(key, e.target.value as never)}
        rows={opts.rows ?? 3}
        maxLength={4000}
      />
    </Field>
  )
  const number = (key: ConnectionField, opts: { hint?: ReactNode; max?: number } = {}) => (
    <Field label={d(key)} error={errors[key]} hint={opts.hint}>
      <Input
        name={key}
        type="number"
        inputMode="numeric"
        min={0}
        max={opts.max ?? 525600}
        step={1}
        value={form[key] as string}
        onChange={(e) => set(key, e.target.value as never)}
        className="tnum"
      />
    </Field>
  )
  const date = (key: ConnectionField) => (
    <Field label={d(key)} error={errors[key]}>
      <Input
        name={key}
        type="date"
        value={form[key] as string}
        onChange={(e) => set(key, e.target.value as never)}
        className="tnum"
      />
    </Field>
  )

  const general = (
    <div className="grid gap-5 sm:grid-cols-2">
      <Field
        label={t('connections.name')}
        error={errors.name}
        required
        className={creating ? '' : 'sm:col-span-2'}
      >
        <Input
          name="name"
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
          autoFocus
          autoComplete="off"
          maxLength={60}
        />
      </Field>
      {creating && (
        <Field label={d('provider')} error={errors.provider} hint={d('providerHint')}>
          <Select
            name="provider"
            value={form.provider}
            onChange={(v) => set('provider', v)}
            options={[
              { value: 'beta', label: d('providers.beta') },
              { value: 'sandbox', label: d('providers.sandbox') },
            ]}
          />
        </Field>
      )}
      <div className="sm:col-span-2">
        <Switch
          label={d('isDefault')}
          description={d('isDefaultHint')}
          checked={form.isDefault}
          onChange={(v) => set('isDefault', v)}
        />
        {errors.isDefault && (
          <p className="text-[12.5px] text-danger" role="alert">
            {errors.isDefault}
          </p>
        )}
      </div>
      <Field
        label={d('queues')}
        error={errors.queueIds}
        hint={d('queuesHint')}
        as="group"
        className="sm:col-span-2"
      >
        <MultiSelect
          value={form.queueIds}
          onChange={(v) => set('queueIds', v)}
          options={queueOptions}
          placeholder={d('noQueue')}
        />
      </Field>
      <div className="sm:col-span-2">
        {text('greetingMessage', {
          rows: 4,
          required: form.queueIds.length > 1,
          hint: t('connections.dialog.variablesHint', { vars: VARIABLES }),
        })}
      </div>
      {text('complationMessage')}
      {text('outOfHoursMessage')}
      <div className="sm:col-span-2">
        <Switch
          label={d('allowGroup')}
          description={d('allowGroupHint')}
          checked={form.allowGroup}
          onChange={(v) => set('allowGroup', v)}
        />
      </div>
    </div>
  )

  const queuesTab = (
    <div className="space-y-7">
      <Section title={d('redirectTitle')} hint={d('redirectHint')}>
        <div className="grid gap-5 sm:grid-cols-2">
          {number('timeSendQueue')}
          <Field label={d('sendIdQueue')} error={errors.sendIdQueue}>
            <Select
              name="sendIdQueue"
              value={form.sendIdQueue ?? 0}
              onChange={(v) => set('sendIdQueue', v === 0 ? null : v)}
              options={[{ value: 0, label: d('noQueue') }, ...queueOptions]}
            />
          </Field>
        </div>
      </Section>
      <Section title={d('botTitle')}>
        <div className="grid gap-5 sm:grid-cols-2">
          {number('timeUseBotQueues')}
          {number('maxUseBotQueues', { max: 100 })}
        </div>
      </Section>
      <Section title={d('inactiveTitle')}>
        <div className="grid gap-5 sm:grid-cols-2">
          {number('expiresTicket', { hint: d('expiresTicketHint') })}
          <div className="sm:col-span-2">{text('expiresInactiveMessage')}</div>
        </div>
      </Section>
    </div>
  )

  const npsTab = (
    <Section hint={d('npsIntro')}>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="sm:col-span-2">{text('ratingMessage', { rows: 4, hint: d('ratingHint') })}</div>
        {number('expiresTicketNPS')}
        {number('maxUseBotQueuesNPS', { max: 100 })}
      </div>
    </Section>
  )

  const vacationTab = (
    <Section hint={d('vacationIntro')}>
      <div className="grid gap-5 sm:grid-cols-2">
        {date('collectiveVacationStart')}
        {date('collectiveVacationEnd')}
        <div className="sm:col-span-2">{text('collectiveVacationMessage', { rows: 4 })}</div>
      </div>
    </Section>
  )

  const importTab = (
    <Section hint={d('importIntro')}>
      <div className="grid gap-5 sm:grid-cols-2">
        {date('importOldMessages')}
        {date('importRecentMessages')}
        <div className="sm:col-span-2">
          <Switch
            label={d('importOldMessagesGroups')}
            checked={form.importOldMessagesGroups}
            onChange={(v) => set('importOldMessagesGroups', v)}
          />
          <Switch
            label={d('closedTicketsPostImported')}
            checked={form.closedTicketsPostImported}
            onChange={(v) => set('closedTicketsPostImported', v)}
          />
        </div>
      </div>
    </Section>
  )

  const integrationTab = (
    <div className="grid gap-5">
      {creating ? (
        <p className="text-muted text-sm">{d('tokenOnCreate')}</p>
      ) : (
        <Field label={d('token')} error={errors.token} hint={d('tokenHint')}>
          <div className="flex gap-2">
            <Input
              name="token"
              value={form.token}
              readOnly
              className="font-mono text-[13px]"
              onFocus={(e) => e.target.select()}
            />
            <IconButton
              variant="secondary"
              label={d('copyToken')}
              icon={<Copy className="size-4" />}
              onClick={copyToken}
              className="size-10 max-sm:size-11"
            />
          </div>
        </Field>
      )}
      {!creating && (
        <Button
          variant="secondary"
          icon={<KeyRound className="size-4" />}
          onClick={() => setRegenerating(true)}
          className="self-start justify-self-start"
        >
          {d('regenerate')}
        </Button>
      )}
      {!creating && (
        <div className="flex flex-col gap-1.5">
          <span className="font-medium text-[13px] text-fg">{d('provider')}</span>
          <span>
            <Badge tone={form.provider === 'sandbox' ? 'brand' : 'neutral'}>
              {d(`providers.${form.provider}`)}
            </Badge>
          </span>
        </div>
      )}
      <ConfirmDialog
        open={regenerating}
        onClose={() => setRegenerating(false)}
        onConfirm={regenerate}
        title={d('regenerateTitle')}
        message={d('regenerateText')}
        confirmLabel={d('regenerateConfirm')}
      />
    </div>
  )

  const contents: Record<TabKey, ReactNode> = {
    general,
    queues: queuesTab,
    nps: npsTab,
    vacation: vacationTab,
    import: importTab,
    integration: integrationTab,
  }
  const invalidTabs = new Set(
    (Object.keys(errors) as ConnectionField[]).filter((k) => errors[k]).map((k) => FIELD_TAB[k]),
  )

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={creating ? d('addTitle') : d('editTitle')}
      onSubmit={submit}
      size="lg"
      footer={<FormActions onCancel={onClose} saving={saving} disabled={loading || !!loadError} />}
    >
      {loading ? (
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-9 w-2/3" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      ) : loadError ? (
        <p role="alert" className="text-danger text-sm">
          {loadError}
        </p>
      ) : (
        <Tabs
          selectedIndex={tab}
          onChange={setTab}
          panelClassName="pt-5"
          listClassName="-mx-5 px-4"
          tabs={TAB_KEYS.map((key) => ({
            key,
            label: d(`tabs.${key}`),
            content: contents[key],
            invalid: invalidTabs.has(key),
          }))}
        />
      )}
    </Dialog>
  )
}
