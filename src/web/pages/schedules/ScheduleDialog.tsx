import { Paperclip, Search, Trash2, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ContactDto, QueueDto } from '../../../shared/api'
import {
  type RepeatFrequency,
  SCHEDULE_BODY_MIN,
  SCHEDULE_DEFAULT_AHEAD_MS,
  type ScheduleDto,
} from '../../../shared/scheduled-messages'
import { instantOf, localInputValue, parseWallTime } from '../../../shared/timezone'
import { ApiError, api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { Spinner } from '../../components/ui/Spinner'
import { Switch } from '../../components/ui/Switch'
import { connectionsList } from '../../state/connections'
import { useLiveList } from '../../state/liveList'
import { toast } from '../../state/toast'
import { searchContacts } from '../contacts/state'

export type ContactRef = { id: number; name: string }

export type ScheduleForm = {
  contact: ContactRef | null
  body: string
  /** YYYY-MM-DDTHH:mm in the company's zone. */
  sendAt: string
  repeat: 'none' | RepeatFrequency
  weekdays: number[]
  until: string
  openTicket: boolean
  ticketUserId: number | null
  queueId: number | null
  statusTicket: 'open' | 'closed'
  /** The connection it is sent through; null: the company's default. */
  whatsappId: number | null
}

const SEARCH_MIN = 3
const IMAGE_TYPES = ['image/png', 'image/jpeg']

/** A new schedule: now + 1 hour, openTicket on, statusTicket closed (the spec's defaults). */
export function emptySchedule(
  now: number,
  timeZone: string,
  contact: ContactRef | null = null,
  whatsappId: number | null = null,
): ScheduleForm {
  return {
    contact,
    body: '',
    sendAt: localInputValue(now + SCHEDULE_DEFAULT_AHEAD_MS, timeZone),
    repeat: 'none',
    weekdays: [],
    until: '',
    openTicket: true,
    ticketUserId: null,
    queueId: null,
    statusTicket: 'closed',
    whatsappId,
  }
}

function formOf(s: ScheduleDto, timeZone: string): ScheduleForm {
  return {
    contact: { id: s.contact.id, name: s.contact.name },
    body: s.body,
    sendAt: localInputValue(Date.parse(s.sendAt), timeZone),
    repeat: s.repeat?.freq ?? 'none',
    weekdays: s.repeat?.weekdays ?? [],
    until: s.repeat?.until ?? '',
    openTicket: s.openTicket === 'enabled',
    ticketUserId: s.ticketUserId,
    queueId: s.queueId,
    statusTicket: s.statusTicket,
    whatsappId: s.whatsappId,
  }
}

type Errors = Partial<Record<'contact' | 'body' | 'sendAt' | 'until' | 'weekdays' | 'file', string>>

/** The client's check, with the spec's message for a short body. */
export function validateSchedule(f: ScheduleForm, timeZone: string, t: (k: string) => string): Errors {
  const errors: Errors = {}
  if (!f.contact) errors.contact = t('schedules.contactRequired')
  if ([...f.body.trim()].length < SCHEDULE_BODY_MIN) errors.body = t('schedules.bodyTooShort')
  const wall = parseWallTime(f.sendAt)
  if (!wall) errors.sendAt = t('schedules.sendAtRequired')
  if (f.repeat !== 'none') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(f.until)) errors.until = t('schedules.untilRequired')
    else if (
      wall &&
      instantOf({ ...parseWallTime(`${f.until}T23:59`)!, second: 59 }, timeZone) < instantOf(wall, timeZone)
    )
      errors.until = t('schedules.untilBeforeStart')
    if (f.repeat === 'weekly' && !f.weekdays.length) errors.weekdays = t('schedules.weekdaysRequired')
  }
  return errors
}

/** The body of POST / PUT /api/schedules: the send time as an instant of the company's zone. */
export function scheduleBodyOf(f: ScheduleForm, timeZone: string) {
  const wall = parseWallTime(f.sendAt)!
  return {
    contactId: f.contact!.id,
    body: f.body.trim(),
    sendAt: new Date(instantOf(wall, timeZone)).toISOString(),
    openTicket: f.openTicket ? 'enabled' : 'disabled',
    ticketUserId: f.openTicket ? f.ticketUserId : null,
    queueId: f.openTicket ? f.queueId : null,
    statusTicket: f.openTicket ? f.statusTicket : 'closed',
    // The spec's list of connections; the server sends through the first (none: the company's default).
    whatsappIds: f.whatsappId == null ? [] : [f.whatsappId],
    repeat:
      f.repeat === 'none'
        ? null
        : { freq: f.repeat, until: f.until, ...(f.repeat === 'weekly' ? { weekdays: f.weekdays } : {}) },
  }
}

function ContactField({
  value,
  onChange,
  invalid,
  disabled,
}: {
  value: ContactRef | null
  onChange: (c: ContactRef | null) => void
  invalid: boolean
  disabled: boolean
}) {
  const { t } = useTranslation()
  const [text, setText] = useState('')
  const [hits, setHits] = useState<ContactDto[]>([])
  const [loading, setLoading] = useState(false)
  const term = text.trim()
  useEffect(() => {
    if (term.length < SEARCH_MIN) {
      setHits([])
      return
    }
    const ctrl = new AbortController()
    setLoading(true)
    const timer = setTimeout(() => {
      searchContacts(term, ctrl.signal)
        .then((list) => setHits(list.slice(0, 8)))
        .catch(() => setHits([]))
        .finally(() => !ctrl.signal.aborted && setLoading(false))
    }, 250)
    return () => {
      clearTimeout(timer)
      ctrl.abort()
    }
  }, [term])
  if (value)
    return (
      <div className="flex h-10 items-center justify-between gap-2 rounded-lg border border-border bg-surface px-3">
        <span className="truncate font-medium text-fg text-sm">{value.name}</span>
        {!disabled && (
          <button
            type="button"
            className="rounded p-1 text-muted hover:text-fg"
            aria-label={t('schedules.changeContact')}
            title={t('schedules.changeContact')}
            onClick={() => onChange(null)}
          >
            <X className="size-4" />
          </button>
        )}
      </div>
    )
  return (
    <div className="space-y-1">
      <div className="relative">
        <Search
          className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-subtle"
          aria-hidden
        />
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('schedules.contactPlaceholder')}
          aria-label={t('schedules.contact')}
          invalid={invalid}
          className="pl-9"
          autoComplete="off"
        />
        {loading && (
          <span className="-translate-y-1/2 absolute top-1/2 right-3 text-muted">
            <Spinner />
          </span>
        )}
      </div>
      {term.length > 0 && term.length < SEARCH_MIN && (
        <p className="text-muted text-xs">{t('schedules.typeMore', { count: SEARCH_MIN })}</p>
      )}
      {hits.length > 0 && (
        <ul className="max-h-48 overflow-auto rounded-lg border border-border bg-surface p-1">
          {hits.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="w-full rounded-md px-2.5 py-2 text-left text-fg text-sm hover:bg-surface-2"
                onClick={() => {
                  onChange({ id: c.id, name: c.name })
                  setText('')
                }}
              >
                {c.name}
                {c.number && <span className="ml-2 text-muted text-xs tnum">{c.number}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

type Loaded =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; record: ScheduleDto | null }

export function ScheduleDialog({
  open,
  scheduleId,
  initialContact = null,
  initialWhatsappId = null,
  timeZone,
  now,
  onClose,
  onSaved,
}: {
  open: boolean
  scheduleId?: number
  initialContact?: ContactRef | null
  /** A new schedule's connection (the ticket's, from the conversation). */
  initialWhatsappId?: number | null
  timeZone: string
  now: number
  onClose: () => void
  onSaved?: (s: ScheduleDto) => void
}) {
  const { t } = useTranslation()
  const creating = scheduleId == null
  const [loaded, setLoaded] = useState<Loaded>(
    creating ? { status: 'ready', record: null } : { status: 'loading' },
  )
  const [form, setForm] = useState<ScheduleForm>(() =>
    emptySchedule(now, timeZone, initialContact, initialWhatsappId),
  )
  const [submitted, setSubmitted] = useState(false)
  const [serverErrors, setServerErrors] = useState<Errors>({})
  const [saving, setSaving] = useState(false)
  const [file, setFile] = useState<File | null>(null)
  const [dropMedia, setDropMedia] = useState(false)
  const [users, setUsers] = useState<{ id: number; name: string }[]>([])
  const [queues, setQueues] = useState<QueueDto[]>([])
  const connections = useLiveList(connectionsList, undefined, { enabled: open })
  const fileInput = useRef<HTMLInputElement>(null)

  useEffect(() => {
    if (!open) return
    const ctrl = new AbortController()
    api
      .get<{ id: number; name: string }[]>('/users/list', { signal: ctrl.signal })
      .then((list) => setUsers(Array.isArray(list) ? list : []))
      .catch(() => {})
    api
      .get<QueueDto[]>('/queue', { signal: ctrl.signal })
      .then((list) => setQueues(Array.isArray(list) ? list : []))
      .catch(() => {})
    if (!creating) {
      api
        .get<ScheduleDto>(`/schedules/${scheduleId}`, { signal: ctrl.signal })
        .then((record) => {
          setForm(formOf(record, timeZone))
          setLoaded({ status: 'ready', record })
        })
        .catch((err) => {
          if (!ctrl.signal.aborted) setLoaded({ status: 'error', message: errorMessage(err) })
        })
    }
    return () => ctrl.abort()
  }, [open, creating, scheduleId, timeZone])

  const record = loaded.status === 'ready' ? loaded.record : null
  const locked = !!record?.sentAt
  const clientErrors = submitted ? validateSchedule(form, timeZone, t) : {}
  const errors: Errors = { ...serverErrors, ...clientErrors }
  const set = <K extends keyof ScheduleForm>(key: K, value: ScheduleForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }))
    setServerErrors((e) => ({ ...e, [key]: undefined }))
  }

  const pickFile = (f: File | null) => {
    if (f && !IMAGE_TYPES.includes(f.type) && !/\.(png|jpe?g)$/i.test(f.name)) {
      setServerErrors((e) => ({ ...e, file: t('schedules.onlyImages') }))
      return
    }
    setServerErrors((e) => ({ ...e, file: undefined }))
    setFile(f)
    setDropMedia(false)
  }

  const submit = async () => {
    if (locked || saving) return
    setSubmitted(true)
    if (Object.values(validateSchedule(form, timeZone, t)).some(Boolean)) return
    setSaving(true)
    try {
      const body = scheduleBodyOf(form, timeZone)
      let saved = creating
        ? await api.post<ScheduleDto>('/schedules', body)
        : await api.put<ScheduleDto>(`/schedules/${scheduleId}`, body)
      if (file) {
        const data = new FormData()
        data.append('file', file)
        saved = await api.post<ScheduleDto>(`/schedules/${saved.id}/media-upload`, data)
      } else if (dropMedia && saved.mediaPath) {
        saved = await api.delete<ScheduleDto>(`/schedules/${saved.id}/media-upload`)
      }
      toast.success(creating ? t('schedules.created') : t('schedules.saved'))
      onSaved?.(saved)
      onClose()
    } catch (err) {
      if (err instanceof ApiError && err.fields.length) {
        const next: Errors = {}
        for (const f of err.fields) {
          const key = f.field === 'contactId' ? 'contact' : f.field.startsWith('repeat') ? 'until' : f.field
          if (['contact', 'body', 'sendAt', 'until', 'weekdays', 'file'].includes(key))
            next[key as keyof Errors] = f.field === 'body' ? t('schedules.bodyTooShort') : f.message
        }
        if (Object.keys(next).length) setServerErrors(next)
        else toastError(err)
      } else toastError(err)
    } finally {
      setSaving(false)
    }
  }

  const weekdayNames = t('schedules.weekdayShort', { returnObjects: true }) as unknown as string[]
  const currentMedia = !dropMedia && !file ? record?.mediaName : null

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={
        creating ? t('schedules.addTitle') : locked ? t('schedules.viewTitle') : t('schedules.editTitle')
      }
      size="md"
      onSubmit={locked ? undefined : () => void submit()}
      footer={
        locked ? (
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose} disabled={saving}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={saving} disabled={loaded.status !== 'ready'}>
              {t('common.save')}
            </Button>
          </>
        )
      }
    >
      {loaded.status === 'loading' ? (
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : loaded.status === 'error' ? (
        <p role="alert" className="text-danger text-sm">
          {loaded.message}
        </p>
      ) : (
        <fieldset disabled={locked} className="flex flex-col gap-4">
          {locked && (
            <p className="rounded-lg bg-surface-2 px-3 py-2 text-muted text-sm">
              {t('schedules.lockedHint')}
            </p>
          )}
          <Field label={t('schedules.contact')} error={errors.contact} required as="group">
            <ContactField
              value={form.contact}
              onChange={(c) => set('contact', c)}
              invalid={!!errors.contact}
              disabled={locked}
            />
          </Field>
          <Field label={t('schedules.body')} error={errors.body} required>
            <Textarea
              value={form.body}
              onChange={(e) => set('body', e.target.value)}
              rows={4}
              maxLength={4096}
            />
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field
              label={t('schedules.sendAt')}
              error={errors.sendAt}
              hint={t('schedules.timeZoneHint', { zone: timeZone })}
              required
            >
              <Input
                type="datetime-local"
                value={form.sendAt}
                onChange={(e) => set('sendAt', e.target.value)}
              />
            </Field>
            <Field label={t('schedules.repeat')} as="group">
              <Select
                aria-label={t('schedules.repeat')}
                value={form.repeat}
                onChange={(v) => set('repeat', v)}
                disabled={locked}
                options={(['none', 'daily', 'weekly', 'monthly'] as const).map((v) => ({
                  value: v,
                  label: t(`schedules.repeatOptions.${v}`),
                }))}
              />
            </Field>
          </div>
          {form.repeat === 'weekly' && (
            <Field label={t('schedules.weekdays')} error={errors.weekdays} as="group">
              <div className="flex flex-wrap gap-1.5">
                {weekdayNames.map((name, day) => {
                  const on = form.weekdays.includes(day)
                  return (
                    <button
                      key={name}
                      type="button"
                      aria-pressed={on}
                      onClick={() =>
                        set('weekdays', on ? form.weekdays.filter((d) => d !== day) : [...form.weekdays, day])
                      }
                      className={`h-9 min-w-11 rounded-lg border px-2 text-sm ${on ? 'border-primary bg-primary text-white' : 'border-border bg-surface text-fg'}`}
                    >
                      {name}
                    </button>
                  )
                })}
              </div>
            </Field>
          )}
          {form.repeat !== 'none' && (
            <Field label={t('schedules.until')} error={errors.until} required>
              <Input type="date" value={form.until} onChange={(e) => set('until', e.target.value)} />
            </Field>
          )}
          <Field label={t('schedules.connection')} hint={t('schedules.connectionHint')} as="group">
            <Select
              aria-label={t('schedules.connection')}
              value={form.whatsappId ?? 0}
              onChange={(v) => set('whatsappId', v || null)}
              disabled={locked}
              options={[
                { value: 0, label: t('schedules.defaultConnection') },
                ...connections.items.map((c) => ({ value: c.id, label: c.name })),
              ]}
            />
          </Field>
          <Switch
            checked={form.openTicket}
            onChange={(v) => set('openTicket', v)}
            label={t('schedules.openTicket')}
            description={t('schedules.openTicketHint')}
          />
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label={t('schedules.ticketUser')} as="group">
              <Select
                aria-label={t('schedules.ticketUser')}
                value={form.ticketUserId ?? 0}
                onChange={(v) => set('ticketUserId', v || null)}
                disabled={!form.openTicket || locked}
                options={[
                  { value: 0, label: t('schedules.none') },
                  ...users.map((u) => ({ value: u.id, label: u.name })),
                ]}
              />
            </Field>
            <Field label={t('schedules.queue')} as="group">
              <Select
                aria-label={t('schedules.queue')}
                value={form.queueId ?? 0}
                onChange={(v) => set('queueId', v || null)}
                disabled={!form.openTicket || locked}
                options={[
                  { value: 0, label: t('schedules.none') },
                  ...queues.map((q) => ({ value: q.id, label: q.name, color: q.color })),
                ]}
              />
            </Field>
            <Field label={t('schedules.statusTicket')} as="group">
              <Select
                aria-label={t('schedules.statusTicket')}
                value={form.statusTicket}
                onChange={(v) => set('statusTicket', v)}
                disabled={!form.openTicket || locked}
                options={[
                  { value: 'closed', label: t('schedules.ticketClosed') },
                  { value: 'open', label: t('schedules.ticketOpen') },
                ]}
              />
            </Field>
          </div>
          <Field
            label={t('schedules.attachment')}
            error={errors.file}
            hint={t('schedules.attachmentHint')}
            as="group"
          >
            <div className="flex items-center gap-2">
              <input
                ref={fileInput}
                type="file"
                accept=".png,.jpg,.jpeg,image/png,image/jpeg"
                className="sr-only"
                aria-label={t('schedules.attachment')}
                onChange={(e) => pickFile(e.target.files?.[0] ?? null)}
              />
              <Button
                variant="secondary"
                size="sm"
                icon={<Paperclip className="size-4" />}
                onClick={() => fileInput.current?.click()}
                disabled={locked}
              >
                {t('schedules.chooseFile')}
              </Button>
              {(file?.name ?? currentMedia) && (
                <span className="flex min-w-0 items-center gap-1 text-sm">
                  <span className="truncate">{file?.name ?? currentMedia}</span>
                  {!locked && (
                    <button
                      type="button"
                      className="rounded p-1 text-muted hover:text-danger"
                      aria-label={t('schedules.removeFile')}
                      title={t('schedules.removeFile')}
                      onClick={() => {
                        setFile(null)
                        setDropMedia(true)
                        if (fileInput.current) fileInput.current.value = ''
                      }}
                    >
                      <Trash2 className="size-4" />
                    </button>
                  )}
                </span>
              )}
            </div>
          </Field>
        </fieldset>
      )}
    </Dialog>
  )
}
