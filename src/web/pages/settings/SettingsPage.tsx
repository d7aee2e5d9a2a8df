import { useSignals } from '@preact/signals-react/runtime'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { SettingItem } from '../../../shared/api'
import { SETTING_KEYS, SETTINGS, type SettingKey } from '../../../shared/settings'
import { api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { onReconnect } from '../../api/live'
import { Card, Page } from '../../components/layout/Page'
import { LoadError } from '../../components/ui/EmptyState'
import { Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { Spinner } from '../../components/ui/Spinner'
import { Tabs } from '../../components/ui/Tabs'
import { currentUser } from '../../state/session'
import { setSettings, settings, settingValue, upsertSetting } from '../../state/settings'
import { toast } from '../../state/toast'
import { CompaniesTab } from '../companies/CompaniesTab'
import { PlansTab } from '../plans/PlansTab'
import { PlatformTab } from '../platform/PlatformTab'
import { HelpTab } from './HelpTab'
import { HoursTab } from './HoursTab'

function OptionsTab() {
  useSignals()
  const { t } = useTranslation()
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState<SettingKey | null>(null)

  const load = useCallback(async () => {
    setLoading(true)
    setError(null)
    try {
      setSettings(await api.get<SettingItem[]>('/settings'))
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setLoading(false)
    }
  }, [])

  useEffect(() => {
    void load()
    return onReconnect(() => void load())
  }, [load])

  const change = async (key: SettingKey, value: string) => {
    const previous = settingValue(key)
    if (previous === value) return
    upsertSetting({ key, value })
    setSaving(key)
    try {
      const saved = await api.put<SettingItem>(`/settings/${key}`, { key, value })
      if (saved?.key) upsertSetting(saved)
      toast.success(t('settings.saved'))
    } catch (err) {
      upsertSetting({ key, value: previous })
      toastError(err)
    } finally {
      setSaving(null)
    }
  }

  if (error) return <LoadError error={error} onRetry={() => void load()} />

  const list = settings.value
  return (
    <div>
      <p className="px-5 pt-4 pb-2 text-muted text-sm">{t('settings.optionsIntro')}</p>
      <ul className="divide-y divide-border">
        {SETTING_KEYS.map((key) => (
          <li key={key} className="grid items-center gap-3 px-5 py-4 sm:grid-cols-[1fr_240px] sm:gap-6">
            {loading ? (
              <>
                <div className="space-y-2">
                  <Skeleton className="w-40" />
                  <Skeleton className="h-3 w-64 max-w-full" />
                </div>
                <Skeleton className="h-10 w-full" />
              </>
            ) : (
              <>
                <div className="min-w-0">
                  <div className="flex items-center gap-2 font-medium text-fg text-sm">
                    {t(`settings.items.${key}.label`, {
                      defaultValue: key === 'timezone' ? t('schedules.timezoneLabel') : key,
                    })}
                    {saving === key && (
                      <Spinner className="size-3.5 text-muted" label={t('common.loading')} />
                    )}
                  </div>
                  <p className="mt-0.5 text-muted text-[13px]">
                    {t(`settings.items.${key}.help`, {
                      defaultValue: key === 'timezone' ? t('schedules.timezoneHelp') : '',
                    })}
                  </p>
                </div>
                <Select
                  aria-label={t(`settings.items.${key}.label`, {
                    defaultValue: key === 'timezone' ? t('schedules.timezoneLabel') : key,
                  })}
                  value={settingValue(key, list)}
                  onChange={(v) => void change(key, v)}
                  disabled={saving === key}
                  options={SETTINGS[key].values.map((v) => ({
                    value: v as string,
                    label: t(`settings.values.${v}`, { defaultValue: v }),
                  }))}
                />
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  )
}

export function SettingsPage() {
  useSignals()
  const { t } = useTranslation()
  // The Hours tab exists only while the company's hours decide (scheduleType 'company').
  const companyHours = settingValue('scheduleType') === 'company'
  return (
    <Page title={t('settings.title')}>
      <Card>
        <Tabs
          listClassName="px-3"
          tabs={[
            { key: 'options', label: t('settings.tabOptions'), content: <OptionsTab /> },
            ...(companyHours
              ? [{ key: 'hours', label: t('chatbot.hours.settingsTab'), content: <HoursTab /> }]
              : []),
            // Companies and plans are the platform's: only super users manage them.
            ...(currentUser.value?.super
              ? [
                  { key: 'companies', label: t('companies.tab'), content: <CompaniesTab /> },
                  { key: 'plans', label: t('plans.tab'), content: <PlansTab /> },
                ]
              : []),
            // Help videos are the platform's: only super users manage them.
            ...(currentUser.value?.super
              ? [{ key: 'helps', label: t('helps.tab'), content: <HelpTab /> }]
              : []),
            // The platform's own mail, Pix and payment settings, and sign-up codes: super users only.
            ...(currentUser.value?.super
              ? [{ key: 'platform', label: t('platform.tab'), content: <PlatformTab /> }]
              : []),
          ]}
        />
      </Card>
    </Page>
  )
}
