import { useTranslation } from 'react-i18next'
import type { QueueDto } from '../../../shared/api'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { Select } from '../../components/ui/Select'
import { Switch } from '../../components/ui/Switch'
import type { OptionRef } from '../../state/options'
import { AttachmentField } from './AttachmentField'
import { ContactField } from './ContactField'
import type { ScheduleErrors, ScheduleForm } from './scheduleForm'

/** The schedule's fields: contact, text, time and repetition, connection, the ticket it opens, its image. */
export function ScheduleFields({
  form,
  set,
  errors,
  locked,
  timeZone,
  connections,
  users,
  queues,
  attachment,
  onPickFile,
  onRemoveFile,
}: {
  form: ScheduleForm
  set: <K extends keyof ScheduleForm>(key: K, value: ScheduleForm[K]) => void
  errors: ScheduleErrors
  locked: boolean
  timeZone: string
  connections: OptionRef[]
  users: OptionRef[]
  queues: QueueDto[]
  /** The chosen image's name, else the saved one's. */
  attachment: string | null | undefined
  onPickFile: (file: File | null) => void
  onRemoveFile: () => void
}) {
  const { t } = useTranslation()
  const weekdayNames = t('schedules.weekdayShort', { returnObjects: true }) as unknown as string[]
  return (
    <fieldset disabled={locked} className="flex flex-col gap-4">
      {locked && (
        <p className="rounded-lg bg-surface-2 px-3 py-2 text-muted text-sm">{t('schedules.lockedHint')}</p>
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
        <Textarea value={form.body} onChange={(e) => set('body', e.target.value)} rows={4} maxLength={4096} />
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label={t('schedules.sendAt')}
          error={errors.sendAt}
          hint={t('schedules.timeZoneHint', { zone: timeZone })}
          required
        >
          <Input type="datetime-local" value={form.sendAt} onChange={(e) => set('sendAt', e.target.value)} />
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
            ...connections.map((c) => ({ value: c.id, label: c.name })),
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
      <AttachmentField
        name={attachment}
        error={errors.file}
        locked={locked}
        onPick={onPickFile}
        onRemove={onRemoveFile}
      />
    </fieldset>
  )
}
