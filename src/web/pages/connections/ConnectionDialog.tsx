import { Check, Copy, KeyRound } from 'lucide-react'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WhatsappDto } from '../../../shared/api'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { Badge } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { MultiSelect, Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { Switch } from '../../components/ui/Switch'
import { Tabs } from '../../components/ui/Tabs'
import { useFormDialog } from '../../components/ui/useFormDialog'
import { connectionsList } from '../../state/connections'
import { useSandboxServer } from '../../state/health'
import { useLiveList } from '../../state/liveList'
import { queuesList } from '../../state/queues'
import { toast } from '../../state/toast'
import { usePromptOptions } from '../prompts/usePromptOptions'
import { useIntegrationOptions } from '../queue-integration/useIntegrationOptions'
import { ScheduleEditor } from '../queues/ScheduleEditor'
import {
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

/** A token shown as its last four characters: enough to recognise it, not to use it. */
export function maskToken(token: string): string {
  return token.length <= 4 ? '••••' : `${'•'.repeat(12)}${token.slice(-4)}`
}

async function copy(text: string, t: (k: string) => string) {
  try {
    await navigator.clipboard.writeText(text)
    toast.success(t('connections.toasts.tokenCopied'))
  } catch {
    toast.error(t('connections.toasts.copyFailed'))
  }
}

/**
 * The API token of a saved connection. The server makes tokens: 'Gerar novo token' asks first (integrations
 * using the old one stop working), then shows the new token in full with a copy button.
 */
function TokenSection({ connectionId, token }: { connectionId: number; token: string | null }) {
  const { t } = useTranslation()
  const d = (k: string) => t(`connections.dialog.${k}`)
  const connections = useLiveList(connectionsList)
  const [asking, setAsking] = useState(false)
  const [fresh, setFresh] = useState<string | null>(null)

  const generate = async () => {
    try {
      const saved = await api.post<WhatsappDto>(`/whatsapp/${connectionId}/token`)
      connections.upsert(saved)
      setFresh(saved.token ?? '')
      toast.success(t('connections.toasts.tokenRegenerated'))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <span className="font-medium text-[13px] text-fg">{d('token')}</span>
      {fresh ? (
        <div
          className="flex flex-col gap-2 rounded-lg border border-success/40 bg-success-soft p-3"
          data-testid="new-token"
        >
          <p className="inline-flex items-center gap-1.5 font-medium text-on-success-soft text-sm">
            <Check className="size-4" aria-hidden />
            {d('tokenNew')}
          </p>
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 select-all break-all rounded-md bg-surface px-2.5 py-2 font-mono text-[13px] text-fg">
              {fresh}
            </code>
            <IconButton
              variant="secondary"
              label={d('copyToken')}
              icon={<Copy className="size-4" />}
              onClick={() => copy(fresh, t)}
              className="size-10 max-sm:size-11"
            />
          </div>
          <p className="text-[12.5px] text-on-success-soft">{d('tokenNewHint')}</p>
        </div>
      ) : token ? (
        <div className="flex items-center gap-2">
          <code
            className="min-w-0 flex-1 truncate rounded-md border border-border bg-surface-2 px-2.5 py-2 font-mono text-[13px] text-muted"
            data-testid="token-masked"
          >
            {maskToken(token)}
          </code>
          <IconButton
            variant="secondary"
            label={d('copyToken')}
            icon={<Copy className="size-4" />}
            onClick={() => copy(token, t)}
            className="size-10 max-sm:size-11"
          />
        </div>
      ) : null}
      <p className="text-[12.5px] text-muted">{d('tokenHint')}</p>
      <Button
        variant="secondary"
        icon={<KeyRound className="size-4" />}
        onClick={() => setAsking(true)}
        className="self-start"
      >
        {d('regenerate')}
      </Button>
      <ConfirmDialog
        open={asking}
        onClose={() => setAsking(false)}
        onConfirm={generate}
        tone="warning"
        icon={<KeyRound />}
        title={d('regenerateTitle')}
        message={d('regenerateText')}
        confirmLabel={d('regenerateConfirm')}
      />
    </div>
  )
}

/**
 * Create or edit a connection: every field, grouped in tabs that share one height. The client checks first
 * (the shared schema and the spec's rules between fields), then the server's field errors land on their field;
 * either way the dialog shows the tab of the first error.
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
  const sandbox = useSandboxServer()
  const queues = useLiveList(queuesList, undefined, { enabled: open }).items
  const [tab, setTab] = useState(0)
  const [token, setToken] = useState<string | null>(null)
  const providerTouched = useRef(false)

  const form = useFormDialog<ConnectionForm, WhatsappDto>({
    open,
    onClose,
    onSaved: (saved: WhatsappDto) => onSaved?.(saved, creating),
    empty: { ...EMPTY_CONNECTION, provider: sandbox ? 'sandbox' : 'beta' },
    load: creating
      ? null
      : (signal) =>
          api.get<WhatsappDto>(`/whatsapp/${connectionId}`, { signal }).then((w) => {
            setToken(w.token)
            return fromDto(w)
          }),
    loadKey: connectionId,
    validate: (v) => validateConnection(v, creating, t),
    save: (v) =>
      creating
        ? api.post<WhatsappDto>('/whatsapp', toBody(v, true))
        : api.put<WhatsappDto>(`/whatsapp/${connectionId}`, toBody(v, false)),
    savedMessage: t('connections.toasts.saved'),
    codeFields: {
      ERR_WAPP_GREETING_REQUIRED: 'greetingMessage',
      ERR_NO_OTHER_WHATSAPP: 'isDefault',
      ERR_WAPP_NAME_ALREADY_EXISTS: 'name',
      ERR_SANDBOX_DISABLED: 'provider',
    },
    onInvalid: (errors) => {
      const first = firstErrorTab(errors)
      if (first) setTab(TAB_KEYS.indexOf(first))
    },
  })
  const { values, errors, set: setField } = form

  useEffect(() => {
    if (open) setTab(0)
  }, [open])

  // A --sandbox server: a new connection is a sandbox one unless the person chose otherwise.
  const provider = values.provider
  useEffect(() => {
    if (creating && sandbox && provider === 'beta' && !providerTouched.current)
      setField('provider', 'sandbox')
  }, [creating, sandbox, provider, setField])

  const set = <K extends ConnectionField>(key: K, value: ConnectionForm[K]) => {
    if (key === 'provider') providerTouched.current = true
    setField(key, value)
  }

  const queueOptions = queues.map((q) => ({ value: q.id, label: q.name, color: q.color }))
  const integrations = useIntegrationOptions(open)
  const prompts = usePromptOptions(open)
  const d = (k: string) => t(`connections.dialog.${k}`)
  const text = (
    key: ConnectionField & keyof ConnectionForm,
    opts: { rows?: number; hint?: ReactNode; required?: boolean } = {},
  ) => (
    <Field label={d(key)} error={errors[key]} hint={opts.hint} required={opts.required}>
      <Textarea
        name={key}
        value={values[key] as string}
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
        value={values[key] as string}
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
        value={values[key] as string}
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
          value={values.name}
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
            value={values.provider}
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
          checked={values.isDefault}
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
          value={values.queueIds}
          onChange={(v) => set('queueIds', v)}
          options={queueOptions}
          placeholder={d('noQueue')}
        />
      </Field>
      <div className="sm:col-span-2">
        {text('greetingMessage', {
          rows: 4,
          required: values.queueIds.length > 1,
          hint: t('connections.dialog.variablesHint', { vars: VARIABLES }),
        })}
      </div>
      {text('complationMessage')}
      {text('outOfHoursMessage')}
      <div className="sm:col-span-2">
        <Switch
          label={d('allowGroup')}
          description={d('allowGroupHint')}
          checked={values.allowGroup}
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
              value={values.sendIdQueue ?? 0}
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
          <Field
            label={d('integrationId')}
            hint={d('integrationIdHint')}
            error={errors.integrationId}
            className="sm:col-span-2"
          >
            <Select
              name="integrationId"
              value={values.integrationId ?? 0}
              onChange={(v) => set('integrationId', v === 0 ? null : v)}
              options={[
                { value: 0, label: d('noIntegration') },
                ...integrations.map((i) => ({ value: i.id, label: i.name })),
              ]}
            />
          </Field>
          <Field
            label={t('prompts.connectionPrompt')}
            hint={t('prompts.connectionPromptHint')}
            error={errors.promptId}
            className="sm:col-span-2"
          >
            <Select
              name="promptId"
              value={values.promptId ?? 0}
              onChange={(v) => set('promptId', v === 0 ? null : v)}
              options={[
                { value: 0, label: t('prompts.selectorNone') },
                ...prompts.map((p) => ({ value: p.id, label: p.name })),
              ]}
            />
          </Field>
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

  const lgpdTab = (
    <Section hint={d('lgpdIntro')}>
      <div className="grid gap-5 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <Switch
            label={d('enableLGPD')}
            description={d('enableLGPDHint')}
            checked={values.enableLGPD}
            onChange={(v) => set('enableLGPD', v)}
          />
          <Switch
            label={d('lgpdConsent')}
            description={d('lgpdConsentHint')}
            checked={values.lgpdConsent}
            disabled={!values.enableLGPD}
            onChange={(v) => set('lgpdConsent', v)}
          />
        </div>
        <div className="sm:col-span-2">
          {text('lgpdMessage', { rows: 4, required: values.enableLGPD && values.lgpdConsent })}
        </div>
        <Field
          label={d('lgpdLink')}
          error={errors.lgpdLink}
          hint={d('lgpdLinkHint')}
          className="sm:col-span-2"
        >
          <Input
            name="lgpdLink"
            type="url"
            inputMode="url"
            placeholder="https://"
            value={values.lgpdLink}
            onChange={(e) => set('lgpdLink', e.target.value)}
            maxLength={500}
          />
        </Field>
      </div>
    </Section>
  )

  const hoursTab = (
    <Section hint={d('hoursIntro')}>
      <ScheduleEditor
        value={values.schedules}
        onChange={(v) => set('schedules', v)}
        showErrors={!!errors.schedules}
      />
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
            checked={values.importOldMessagesGroups}
            onChange={(v) => set('importOldMessagesGroups', v)}
          />
          <Switch
            label={d('closedTicketsPostImported')}
            checked={values.closedTicketsPostImported}
            onChange={(v) => set('closedTicketsPostImported', v)}
          />
        </div>
      </div>
    </Section>
  )

  const integrationTab = (
    <div className="grid gap-6">
      {creating || connectionId == null ? (
        <p className="text-muted text-sm">{d('tokenOnCreate')}</p>
      ) : (
        <TokenSection connectionId={connectionId} token={token} />
      )}
      {!creating && (
        <div className="flex flex-col gap-1.5">
          <span className="font-medium text-[13px] text-fg">{d('provider')}</span>
          <span>
            <Badge tone={values.provider === 'sandbox' ? 'brand' : 'neutral'}>
              {d(`providers.${values.provider}`)}
            </Badge>
          </span>
        </div>
      )}
    </div>
  )

  const contents: Record<TabKey, ReactNode> = {
    general,
    queues: queuesTab,
    nps: npsTab,
    vacation: vacationTab,
    lgpd: lgpdTab,
    hours: hoursTab,
    import: importTab,
    integration: integrationTab,
  }
  const invalidTabs = new Set(
    (Object.keys(errors) as ConnectionField[]).filter((k) => errors[k]).map((k) => FIELD_TAB[k]),
  )

  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? d('addTitle') : d('editTitle')}
      size="lg"
      // One height whatever the tab: the dialog does not jump when the person moves between tabs.
      fixedHeight
      skeleton={
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-9 w-2/3" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      }
    >
      <Tabs
        selectedIndex={tab}
        onChange={setTab}
        panelClassName="pt-5"
        // The strip stays at the top while a long tab scrolls (-top-4 / -mt-4: over the body's padding).
        listClassName="sticky -top-4 z-20 -mx-5 -mt-4 bg-surface px-4"
        tabs={TAB_KEYS.map((key) => ({
          key,
          label: d(`tabs.${key}`),
          content: contents[key],
          invalid: invalidTabs.has(key),
        }))}
      />
    </FormDialog>
  )
}
