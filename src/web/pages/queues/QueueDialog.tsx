import { useSignals } from '@preact/signals-react/runtime'
import { Check } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { QueueDto } from '../../../shared/api'
import { defaultSchedules, type ScheduleEntry } from '../../../shared/schedules'
import { queueBody } from '../../../shared/schemas/queues'
import { api } from '../../api/client'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { schemaErrors } from '../../components/ui/schemaErrors'
import { Tabs } from '../../components/ui/Tabs'
import { useFormDialog } from '../../components/ui/useFormDialog'
import { cn } from '../../lib/cn'
import { scheduleEnabled } from '../../state/settings'
import { usePromptOptions } from '../prompts/usePromptOptions'
import { useIntegrationOptions } from '../queue-integration/useIntegrationOptions'
import { OptionTree } from './OptionTree'
import { ScheduleEditor, schedulesValid } from './ScheduleEditor'

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
  /** '' is none; otherwise an integration or an AI prompt of the company. */
  integrationId: string
  promptId: string
  /** '' is none: the file list the chatbot sends when it puts a customer in the queue. */
  fileListId: string
  /** Edited in the hours tab (only when editing a saved queue); a new queue gets the spec's defaults. */
  schedules: ScheduleEntry[]
}

const EMPTY: QueueForm = {
  name: '',
  color: '',
  orderQueue: '',
  greetingMessage: '',
  outOfHoursMessage: '',
  integrationId: '',
  promptId: '',
  fileListId: '',
  schedules: defaultSchedules(),
}
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/

const refOf = (v: string) => (v === '' ? null : Number(v))

/** The body of POST / PUT /api/queue; `withSchedules` when the hours tab was shown (an edit). */
export function queueBodyOf(form: QueueForm, withSchedules = false) {
  return {
    name: form.name.trim(),
    color: form.color.trim().toUpperCase(),
    orderQueue: form.orderQueue.trim() === '' ? null : Number(form.orderQueue),
    greetingMessage: form.greetingMessage,
    outOfHoursMessage: form.outOfHoursMessage,
    integrationId: refOf(form.integrationId),
    promptId: refOf(form.promptId),
    fileListId: refOf(form.fileListId),
    ...(withSchedules ? { schedules: form.schedules } : {}),
  }
}

function formOf(q: QueueDto): QueueForm {
  return {
    name: q.name,
    color: q.color,
    orderQueue: q.orderQueue == null ? '' : String(q.orderQueue),
    greetingMessage: q.greetingMessage ?? '',
    outOfHoursMessage: q.outOfHoursMessage ?? '',
    integrationId: q.integrationId == null ? '' : String(q.integrationId),
    promptId: q.promptId == null ? '' : String(q.promptId),
    fileListId: q.fileListId == null ? '' : String(q.fileListId),
    schedules: q.schedules?.length ? q.schedules : defaultSchedules(),
  }
}

/** The server's schema, with the spec's messages. */
export function validateQueue(form: QueueForm, t: (k: string) => string, withSchedules = false) {
  const errors = schemaErrors<keyof QueueForm>(queueBody(queueBodyOf(form, withSchedules)), t, {
    color: 'queues.invalidColor',
    orderQueue: 'queues.invalidOrder',
  })
  if (withSchedules && !schedulesValid(form.schedules)) errors.schedules = t('chatbot.hours.invalidTime')
  else if (!withSchedules) delete errors.schedules
  return errors
}

export function ColorPicker({
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

/** The company's file lists (GET /files/list), loaded when the dialog opens; a failed load is just empty. */
function useFileLists(open: boolean) {
  const [lists, setLists] = useState<{ id: number; name: string }[]>([])
  useEffect(() => {
    if (!open) return
    const ctrl = new AbortController()
    api
      .get<{ id: number; name: string }[]>('/files/list', { signal: ctrl.signal })
      .then((rows) => {
        if (!ctrl.signal.aborted && Array.isArray(rows)) setLists(rows)
      })
      .catch(() => {})
    return () => ctrl.abort()
  }, [open])
  return lists
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
  const showOutOfHours = scheduleEnabled.value
  const [tab, setTab] = useState(0)
  const fileLists = useFileLists(open)
  const integrations = useIntegrationOptions(open)
  const prompts = usePromptOptions(open)
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY,
    load: creating ? null : (signal) => api.get<QueueDto>(`/queue/${queueId}`, { signal }).then(formOf),
    loadKey: queueId,
    validate: (v) => validateQueue(v, t, !creating),
    save: (v) =>
      creating
        ? api.post<QueueDto>('/queue', queueBodyOf(v))
        : api.put<QueueDto>(`/queue/${queueId}`, queueBodyOf(v, true)),
    savedMessage: t('queues.saved'),
    codeFields: { ERR_QUEUE_COLOR_ALREADY_EXISTS: 'color', ERR_QUEUE_NAME_ALREADY_EXISTS: 'name' },
    // Show the tab of the first error: the hours tab when only the hours are wrong.
    onInvalid: (errors) => {
      const dataFields = Object.keys(errors).filter((k) => k !== 'schedules' && errors[k as keyof QueueForm])
      setTab(dataFields.length === 0 && errors.schedules ? 1 : 0)
    },
  })
  const { values, errors, set } = form

  const dataTab = (
    <div className="grid gap-5 pt-4 sm:grid-cols-[1fr_140px]">
      <Field label={t('queues.name')} error={errors.name} required>
        <Input
          value={values.name}
          onChange={(e) => set('name', e.target.value)}
          autoFocus
          autoComplete="off"
        />
      </Field>
      <Field label={t('queues.order')} error={errors.orderQueue}>
        <Input
          type="number"
          min={0}
          max={9999}
          inputMode="numeric"
          value={values.orderQueue}
          onChange={(e) => set('orderQueue', e.target.value)}
          className="tnum"
        />
      </Field>
      <Field label={t('queues.color')} error={errors.color} required as="group" className="sm:col-span-2">
        <ColorPicker value={values.color} onChange={(v) => set('color', v)} invalid={!!errors.color} />
      </Field>
      <Field label={t('queues.greeting')} error={errors.greetingMessage} className="sm:col-span-2">
        <Textarea
          value={values.greetingMessage}
          onChange={(e) => set('greetingMessage', e.target.value)}
          rows={4}
          maxLength={4000}
        />
      </Field>
      {showOutOfHours && (
        <Field label={t('queues.outOfHours')} error={errors.outOfHoursMessage} className="sm:col-span-2">
          <Textarea
            value={values.outOfHoursMessage}
            onChange={(e) => set('outOfHoursMessage', e.target.value)}
            rows={4}
            maxLength={4000}
          />
        </Field>
      )}
      <Field
        label={t('chatbot.queue.fileList')}
        hint={t('chatbot.queue.fileListHint')}
        error={errors.fileListId}
        as="group"
        className="sm:col-span-2"
      >
        <Select
          aria-label={t('chatbot.queue.fileList')}
          value={values.fileListId}
          onChange={(v) => set('fileListId', v)}
          options={[
            { value: '', label: t('chatbot.queue.fileListNone') },
            ...fileLists.map((f) => ({ value: String(f.id), label: f.name })),
          ]}
        />
      </Field>
      <Field label={t('chatbot.queue.integration')} error={errors.integrationId} as="group">
        <Select
          aria-label={t('chatbot.queue.integration')}
          value={values.integrationId}
          onChange={(v) => set('integrationId', v)}
          options={[
            { value: '', label: t('chatbot.queue.none') },
            ...integrations.map((i) => ({ value: String(i.id), label: i.name })),
          ]}
        />
      </Field>
      <Field label={t('chatbot.queue.prompt')} error={errors.promptId} as="group">
        <Select
          aria-label={t('chatbot.queue.prompt')}
          value={values.promptId}
          onChange={(v) => set('promptId', v)}
          options={[
            { value: '', label: t('chatbot.queue.none') },
            ...prompts.map((p) => ({ value: String(p.id), label: p.name })),
          ]}
        />
      </Field>
    </div>
  )

  const hoursTab = (
    <div className="space-y-4 pt-4">
      <p className="text-muted text-sm">{t('chatbot.hours.intro')}</p>
      <ScheduleEditor
        value={values.schedules}
        onChange={(v) => set('schedules', v)}
        showErrors={!!errors.schedules}
      />
    </div>
  )

  const tabs = [
    {
      key: 'data',
      label: t('queues.tabData'),
      content: dataTab,
      invalid: Object.keys(errors).some((k) => k !== 'schedules' && errors[k as keyof QueueForm]),
    },
    ...(creating
      ? []
      : [
          { key: 'hours', label: t('chatbot.hours.tab'), content: hoursTab, invalid: !!errors.schedules },
          { key: 'options', label: t('chatbot.options.tab'), content: <OptionTree queueId={queueId} /> },
        ]),
  ]

  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('queues.addTitle') : t('queues.editTitle')}
      size="md"
      skeleton={
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-24 w-full" />
        </div>
      }
    >
      <Tabs tabs={tabs} selectedIndex={Math.min(tab, tabs.length - 1)} onChange={setTab} />
    </FormDialog>
  )
}
