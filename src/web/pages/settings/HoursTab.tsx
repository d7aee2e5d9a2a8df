import { useSignals } from '@preact/signals-react/runtime'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ScheduleEntry } from '../../../shared/schedules'
import { api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { Button } from '../../components/ui/Button'
import { LoadError } from '../../components/ui/EmptyState'
import { Skeleton } from '../../components/ui/Skeleton'
import { Spinner } from '../../components/ui/Spinner'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { ScheduleEditor, schedulesValid } from '../queues/ScheduleEditor'

type Answer = { id: number; schedules: ScheduleEntry[] }

/**
 * The company's service hours (Settings, shown when scheduleType is 'company'): edited in place, saved with
 * PUT /companies/{id}/schedules. After a change the spec's hint asks to save; success shows the spec's toast.
 */
export function HoursTab() {
  useSignals()
  const { t } = useTranslation()
  const companyId = currentUser.value?.companyId
  const [schedules, setSchedules] = useState<ScheduleEntry[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [dirty, setDirty] = useState(false)
  const [saving, setSaving] = useState(false)
  const [showErrors, setShowErrors] = useState(false)

  const load = useCallback(async () => {
    if (companyId == null) return
    setError(null)
    try {
      const answer = await api.get<Answer>(`/companies/${companyId}/schedules`)
      setSchedules(answer.schedules)
      setDirty(false)
    } catch (err) {
      setError(errorMessage(err))
    }
  }, [companyId])

  useEffect(() => {
    void load()
  }, [load])

  const save = async () => {
    if (!schedules || companyId == null) return
    if (!schedulesValid(schedules)) {
      setShowErrors(true)
      return
    }
    setSaving(true)
    try {
      const answer = await api.put<Answer>(`/companies/${companyId}/schedules`, { schedules })
      setSchedules(answer.schedules)
      setDirty(false)
      setShowErrors(false)
      toast.success(t('chatbot.hours.saved'))
    } catch (err) {
      toastError(err)
    } finally {
      setSaving(false)
    }
  }

  if (error) return <LoadError error={error} onRetry={() => void load()} />

  return (
    <form
      className="space-y-4 px-5 py-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <p className="text-muted text-sm">{t('chatbot.hours.intro')}</p>
      {schedules ? (
        <div className="max-w-xl">
          <ScheduleEditor
            value={schedules}
            onChange={(next) => {
              setSchedules(next)
              setDirty(true)
            }}
            showErrors={showErrors}
            disabled={saving}
          />
        </div>
      ) : (
        <div className="max-w-xl space-y-2" aria-busy>
          {Array.from({ length: 7 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
            <Skeleton key={i} className="h-11 w-full" />
          ))}
        </div>
      )}
      <div className="flex max-w-xl flex-wrap items-center justify-end gap-3">
        {dirty && (
          <p role="status" className="mr-auto text-sm text-warning">
            {t('chatbot.hours.unsaved')}
          </p>
        )}
        <Button type="submit" disabled={!schedules || saving}>
          {saving && <Spinner className="size-4" />}
          {t('chatbot.hours.save')}
        </Button>
      </div>
    </form>
  )
}
