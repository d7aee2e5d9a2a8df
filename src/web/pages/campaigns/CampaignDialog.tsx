import type { TFunction } from 'i18next'
import { CalendarClock, Lock } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { CampaignDto, CampaignStatus } from '../../../shared/api'
import { isCampaignEditable } from '../../../shared/campaign-editable'
import { localInputValue, parseWallTime } from '../../../shared/timezone'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { AttachmentPicker } from '../../components/AttachmentField'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormActions } from '../../components/ui/FormActions'
import { type Option, Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { Switch } from '../../components/ui/Switch'
import { Tabs } from '../../components/ui/Tabs'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { toast } from '../../state/toast'

export const MESSAGE_SLOTS = [1, 2, 3, 4, 5] as const
type Slot = (typeof MESSAGE_SLOTS)[number]
type MessageKey = `message${Slot}`
type ConfirmationKey = `confirmationMessage${Slot}`

export const NAME_MIN = 2
export const NAME_MAX = 50
/** The variables every campaign message may use. */
export const BASE_VARIABLES = ['nome', 'numero', 'email'] as const
/** 'None' in a select (contact list, tag list, connection, file list): sent as null. */
const NONE = 0

export type CampaignForm = {
  name: string
  confirmation: boolean
  contactListId: number
  tagListId: number
  whatsappId: number
  fileListId: number
  /** YYYY-MM-DDTHH:mm in the company's zone, or '' for no schedule. */
  scheduledAt: string
  /** The saved attachment's name (null once removed). */
  mediaName: string | null
  /** A file chosen to attach (uploaded after the save). */
  file: File | null
} & Record<MessageKey | ConfirmationKey, string>

export const EMPTY_CAMPAIGN: CampaignForm = {
  name: '',
  confirmation: false,
  contactListId: NONE,
  tagListId: NONE,
  whatsappId: NONE,
  fileListId: NONE,
  scheduledAt: '',
  mediaName: null,
  file: null,
  message1: '',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  confirmationMessage1: '',
  confirmationMessage2: '',
  confirmationMessage3: '',
  confirmationMessage4: '',
  confirmationMessage5: '',
}

export function campaignFormOf(c: CampaignDto, timeZone: string): CampaignForm {
  const form: CampaignForm = {
    ...EMPTY_CAMPAIGN,
    name: c.name,
    confirmation: !!c.confirmation,
    contactListId: c.contactListId ?? NONE,
    tagListId: c.tagListId ?? NONE,
    whatsappId: c.whatsappId ?? NONE,
    fileListId: c.fileListId ?? NONE,
    scheduledAt: c.scheduledAt ? localInputValue(Date.parse(c.scheduledAt), timeZone) : '',
    mediaName: c.mediaName,
  }
  for (const n of MESSAGE_SLOTS) {
    form[`message${n}`] = c[`message${n}`] ?? ''
    form[`confirmationMessage${n}`] = c[`confirmationMessage${n}`] ?? ''
  }
  return form
}

/** '2026-11-21T12:00' -> '2026-11-21 12:00:00' (the spec's YYYY-MM-DD HH:mm:ss, in the company's zone). */
export function scheduledAtBody(value: string): string | null {
  const w = parseWallTime(value)
  if (!w) return null
  const p = (n: number) => String(n).padStart(2, '0')
  return `${w.year}-${p(w.month)}-${p(w.day)} ${p(w.hour)}:${p(w.minute)}:00`
}

/** The body of POST / PUT /api/campaigns: empty strings (and 'none' choices) become null. */
export function campaignBodyOf(f: CampaignForm): Record<string, unknown> {
  const id = (v: number) => (v && v > 0 ? v : null)
  const text = (v: string) => (v.trim() === '' ? null : v)
  const body: Record<string, unknown> = {
    name: f.name.trim(),
    confirmation: f.confirmation,
    contactListId: id(f.contactListId),
    tagListId: id(f.tagListId),
    whatsappId: id(f.whatsappId),
    fileListId: id(f.fileListId),
    scheduledAt: f.scheduledAt ? scheduledAtBody(f.scheduledAt) : null,
  }
  for (const n of MESSAGE_SLOTS) {
    body[`message${n}`] = text(f[`message${n}`])
    body[`confirmationMessage${n}`] = text(f[`confirmationMessage${n}`])
  }
  return body
}

export function validateCampaign(f: CampaignForm, t: TFunction): FieldErrors<CampaignForm> {
  const errors: FieldErrors<CampaignForm> = {}
  const name = [...f.name.trim()].length
  if (name === 0) errors.name = t('campaigns.nameRequired')
  else if (name < NAME_MIN) errors.name = t('campaigns.nameTooShort', { count: NAME_MIN })
  else if (name > NAME_MAX) errors.name = t('campaigns.nameTooLong', { count: NAME_MAX })
  if (f.scheduledAt && !parseWallTime(f.scheduledAt)) errors.scheduledAt = t('campaigns.scheduledAtInvalid')
  return errors
}

type Named = { id: number; name: string }

/** A `{ id, name }` list from an answer that is the list itself or wraps it (`{ records }`, `{ files }`…). */
export function namedList(res: unknown): Named[] {
  const raw = Array.isArray(res)
    ? res
    : res && typeof res === 'object'
      ? (Object.values(res as Record<string, unknown>).find(Array.isArray) ?? [])
      : []
  return (raw as { id?: unknown; name?: unknown }[])
    .filter((x) => x && typeof x.id === 'number')
    .map((x) => ({ id: x.id as number, name: String(x.name ?? x.id) }))
}

/** The custom variables' keys of GET /campaign-settings (items with a key and a JSON value). */
export function customVariables(res: unknown): string[] {
  const items = Array.isArray(res) ? res : namedEntries(res)
  const entry = (items as { key?: string; value?: unknown }[]).find((i) => i?.key === 'variables')
  let value = entry?.value
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      value = []
    }
  }
  if (!Array.isArray(value)) return []
  const keys = value
    .map((v: { key?: unknown }) => (typeof v?.key === 'string' ? v.key.trim() : ''))
    .filter(Boolean)
  return [...new Set(keys)]
}

function namedEntries(res: unknown): unknown[] {
  if (res && typeof res === 'object') {
    const found = Object.values(res as Record<string, unknown>).find(Array.isArray)
    if (found) return found
    // { variables: [...] }
    return Object.entries(res as Record<string, unknown>).map(([key, value]) => ({ key, value }))
  }
  return []
}

/** The pickers' choices, loaded when the dialog opens; a list that fails to load is just empty. */
function useChoices(open: boolean) {
  const [lists, setLists] = useState<{
    contactLists: Named[]
    tags: Named[]
    whatsapps: Named[]
    files: Named[]
    variables: string[]
  }>({ contactLists: [], tags: [], whatsapps: [], files: [], variables: [] })
  useEffect(() => {
    if (!open) return
    const ctrl = new AbortController()
    const get = (path: string) => api.get<unknown>(path, { signal: ctrl.signal }).catch(() => [])
    void Promise.all([
      get('/contact-lists/list'),
      get('/tags/list'),
      get('/whatsapp'),
      get('/files/list'),
      get('/campaign-settings'),
    ]).then(([contactLists, tags, whatsapps, files, settings]) => {
      if (ctrl.signal.aborted) return
      setLists({
        contactLists: namedList(contactLists),
        tags: namedList(tags),
        whatsapps: namedList(whatsapps),
        files: namedList(files),
        variables: customVariables(settings),
      })
    })
    return () => ctrl.abort()
  }, [open])
  return lists
}

/**
 * Saves the campaign, then its attachment: a new file is uploaded (POST /campaigns/{id}/media-upload), a removed
 * one deleted. A failed upload keeps the saved campaign and says so.
 */
async function saveCampaign(
  id: number | undefined,
  values: CampaignForm,
  initial: CampaignForm,
  t: (k: string) => string,
): Promise<CampaignDto> {
  let saved =
    id == null
      ? await api.post<CampaignDto>('/campaigns', campaignBodyOf(values))
      : await api.put<CampaignDto>(`/campaigns/${id}`, campaignBodyOf(values))
  try {
    if (values.file) {
      const form = new FormData()
      form.append('file', values.file, values.file.name)
      saved = await api.post<CampaignDto>(`/campaigns/${saved.id}/media-upload`, form)
    } else if (!values.mediaName && initial.mediaName) {
      saved = await api.delete<CampaignDto>(`/campaigns/${saved.id}/media-upload`)
    }
  } catch (err) {
    toastError(err)
    toast.error(t('campaigns.attachFailed'))
  }
  return saved
}

/** The variables hint: each chip adds its variable to the message being edited. */
function VariablesHint({
  variables,
  onPick,
  disabled,
}: {
  variables: string[]
  onPick: (v: string) => void
  disabled: boolean
}) {
  const { t } = useTranslation()
  return (
    <div className="flex flex-wrap items-center gap-1.5 text-muted text-xs">
      <span>{t('campaigns.variablesHint')}</span>
      {variables.map((v) => (
        <button
          key={v}
          type="button"
          disabled={disabled}
          onClick={() => onPick(`{${v}}`)}
          title={t('campaigns.insertVariable', { name: `{${v}}` })}
          className="rounded-md border border-border bg-surface-2 px-1.5 py-0.5 font-mono text-[12px] text-fg hover:bg-surface-3 disabled:cursor-default disabled:opacity-70"
        >
          {`{${v}}`}
        </button>
      ))}
    </div>
  )
}

export function CampaignDialog({
  open,
  campaignId,
  timeZone,
  onClose,
  onSaved,
}: {
  open: boolean
  campaignId?: number
  timeZone: string
  onClose: () => void
  onSaved?: (c: CampaignDto) => void
}) {
  const { t } = useTranslation()
  const creating = campaignId == null
  const [record, setRecord] = useState<{ status: CampaignStatus; scheduledAt: string | null } | null>(null)
  const [messageTab, setMessageTab] = useState(0)
  const [confirmationTab, setConfirmationTab] = useState(0)
  const [lastArea, setLastArea] = useState<'message' | 'confirmation'>('message')
  const choices = useChoices(open)
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY_CAMPAIGN,
    load: creating
      ? null
      : (signal) =>
          api.get<CampaignDto>(`/campaigns/${campaignId}`, { signal }).then((c) => {
            setRecord({ status: c.status, scheduledAt: c.scheduledAt })
            return campaignFormOf(c, timeZone)
          }),
    loadKey: campaignId,
    validate: (v) => validateCampaign(v, t),
    save: (v, initial) => saveCampaign(campaignId, v, initial, t),
    savedMessage: t('campaigns.saved'),
  })
  const { values, errors, set } = form
  const editable = creating || (record != null && isCampaignEditable(record))
  const readOnly = !creating && !form.loading && !editable
  // Save only where the server accepts the PUT (spec 2 §4, src/shared/campaign-editable.ts): a read-only form
  // has just Close (so does a record still loading: nothing to submit yet). A cancelled one saves: spec 2 says so.
  const canSave = editable
  const cancelled = !creating && record?.status === 'CANCELADA'
  const variables = [
    ...BASE_VARIABLES,
    ...choices.variables.filter((v) => !(BASE_VARIABLES as readonly string[]).includes(v)),
  ]

  const insert = (variable: string) => {
    const key: MessageKey | ConfirmationKey =
      lastArea === 'confirmation' && values.confirmation
        ? `confirmationMessage${(confirmationTab + 1) as Slot}`
        : `message${(messageTab + 1) as Slot}`
    const current = values[key]
    set(key, current && !/\s$/.test(current) ? `${current} ${variable}` : `${current}${variable}`)
  }

  const select = (
    label: string,
    key: 'contactListId' | 'tagListId' | 'whatsappId' | 'fileListId',
    list: Named[],
    noneLabel: string,
  ) => {
    const options: Option<number>[] = [
      { value: NONE, label: noneLabel },
      ...list.map((x) => ({ value: x.id, label: x.name })),
    ]
    return (
      <Field label={label} as="group" error={errors[key]}>
        <Select<number>
          aria-label={label}
          value={values[key]}
          onChange={(v) => set(key, v)}
          options={options}
          disabled={readOnly}
        />
      </Field>
    )
  }

  const messageTabs = (kind: 'message' | 'confirmation') =>
    MESSAGE_SLOTS.map((n) => {
      const key: MessageKey | ConfirmationKey = kind === 'message' ? `message${n}` : `confirmationMessage${n}`
      const label =
        kind === 'message' ? t('campaigns.messageTab', { n }) : t('campaigns.confirmationTab', { n })
      return {
        key,
        label,
        content: (
          <Field label={label} className="pt-3">
            <Textarea
              value={values[key]}
              onChange={(e) => set(key, e.target.value)}
              onFocus={() => setLastArea(kind)}
              rows={5}
              readOnly={readOnly}
              maxLength={4096}
              placeholder={t('campaigns.messagePlaceholder')}
            />
          </Field>
        ),
      }
    })

  const title = creating
    ? t('campaigns.addTitle')
    : readOnly
      ? t('campaigns.readOnlyTitle')
      : t('campaigns.editTitle')

  return (
    <Dialog
      open={form.open}
      onClose={onClose}
      title={title}
      size="lg"
      onSubmit={canSave ? form.submit : undefined}
      footer={
        canSave ? (
          <FormActions
            onCancel={onClose}
            saving={form.submitting}
            disabled={form.loading || !!form.loadError}
          />
        ) : (
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
        )
      }
    >
      {form.loading ? (
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-10 w-full" />
          <div className="grid gap-4 sm:grid-cols-2">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
          <Skeleton className="h-32 w-full" />
        </div>
      ) : form.loadError ? (
        <p role="alert" className="text-danger text-sm">
          {form.loadError}
        </p>
      ) : (
        <div className="flex flex-col gap-5">
          {readOnly && (
            <p
              role="status"
              className="flex items-center gap-2 rounded-lg bg-warning-soft px-3 py-2 text-on-warning-soft text-sm"
            >
              <Lock className="size-4 shrink-0" aria-hidden />
              {t('campaigns.readOnlyText')}
            </p>
          )}
          {cancelled && (
            <p
              role="status"
              className="flex items-center gap-2 rounded-lg bg-info-soft px-3 py-2 text-on-info-soft text-sm"
            >
              <CalendarClock className="size-4 shrink-0" aria-hidden />
              {t('campaigns.cancelledText')}
            </p>
          )}
          <div className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end">
            <Field label={t('campaigns.name')} error={errors.name} required>
              <Input
                value={values.name}
                onChange={(e) => set('name', e.target.value)}
                readOnly={readOnly}
                autoFocus={!readOnly}
                autoComplete="off"
                maxLength={NAME_MAX + 10}
              />
            </Field>
            <div className="sm:min-w-56">
              <Switch
                checked={values.confirmation}
                onChange={(v) => set('confirmation', v)}
                label={t('campaigns.confirmation')}
                disabled={readOnly}
              />
            </div>
          </div>
          <div className="grid gap-4 sm:grid-cols-2">
            {select(
              t('campaigns.contactList'),
              'contactListId',
              choices.contactLists,
              t('campaigns.noneFem'),
            )}
            {select(t('campaigns.tagList'), 'tagListId', choices.tags, t('campaigns.noneFem'))}
            {select(t('campaigns.connection'), 'whatsappId', choices.whatsapps, t('campaigns.notDefined'))}
            {select(t('campaigns.fileList'), 'fileListId', choices.files, t('campaigns.noneFem'))}
            <Field
              label={t('campaigns.scheduledAt')}
              error={errors.scheduledAt}
              hint={t('campaigns.scheduledAtHint')}
            >
              <Input
                type="datetime-local"
                value={values.scheduledAt}
                onChange={(e) => set('scheduledAt', e.target.value)}
                readOnly={readOnly}
              />
            </Field>
            <Field label={t('campaigns.attachment')} as="group">
              <AttachmentPicker
                name={values.file?.name ?? values.mediaName}
                onPick={(file) => set('file', file)}
                onRemove={() => {
                  set('file', null)
                  set('mediaName', null)
                }}
                labels={{
                  none: t('campaigns.noAttachment'),
                  attach: t('campaigns.attach'),
                  replace: t('campaigns.replaceAttachment'),
                  remove: t('campaigns.removeAttachment'),
                }}
                testId="campaign-file"
                readOnly={readOnly}
                wrap
              />
            </Field>
          </div>
          <VariablesHint variables={variables} onPick={insert} disabled={readOnly} />
          <div className={values.confirmation ? 'grid gap-4 lg:grid-cols-2' : ''}>
            <section aria-label={t('campaigns.messages')}>
              <h3 className="font-medium text-[13px] text-fg">{t('campaigns.messages')}</h3>
              <Tabs
                tabs={messageTabs('message')}
                selectedIndex={messageTab}
                onChange={(i) => {
                  setMessageTab(i)
                  setLastArea('message')
                }}
              />
            </section>
            {values.confirmation && (
              <section aria-label={t('campaigns.confirmationMessages')}>
                <h3 className="font-medium text-[13px] text-fg">{t('campaigns.confirmationMessages')}</h3>
                <Tabs
                  tabs={messageTabs('confirmation')}
                  selectedIndex={confirmationTab}
                  onChange={(i) => {
                    setConfirmationTab(i)
                    setLastArea('confirmation')
                  }}
                />
              </section>
            )}
          </div>
        </div>
      )}
    </Dialog>
  )
}
