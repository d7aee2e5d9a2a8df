import { useSignals } from '@preact/signals-react/runtime'
import { Plus, Save, Trash2 } from 'lucide-react'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  CAMPAIGN_SETTING_DEFAULTS,
  CAMPAIGN_VARIABLE_KEY_MAX,
  CAMPAIGN_VARIABLE_VALUE_MAX,
  CAMPAIGN_VARIABLES_MAX,
  type CampaignSettingItem,
  type CampaignSettings,
  campaignSettingsOf,
  DAILY_LIMIT_MAX,
  DAILY_LIMIT_MIN,
  GREATER_INTERVAL_OPTIONS,
  HHMM,
  LONGER_INTERVAL_OPTIONS,
  MESSAGE_INTERVAL_OPTIONS,
  type SendWindow,
  WARMUP_FIRST_DAY,
  WARMUP_MAX,
  WARMUP_STEP,
} from '../../../shared/campaign-settings'
import { api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { liveChannel, subscribe } from '../../api/live'
import { Card, Page } from '../../components/layout/Page'
import { Button, IconButton } from '../../components/ui/Button'
import { Field, Input } from '../../components/ui/Field'
import { Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { Switch } from '../../components/ui/Switch'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'

/** A variable row as edited: `uid` keeps React's key stable while keys are typed. */
type VariableRow = { uid: number; key: string; value: string }

let nextUid = 1
const rowsOf = (settings: CampaignSettings): VariableRow[] =>
  settings.variables.map((v) => ({ uid: nextUid++, key: v.key, value: v.value }))

/** The daily limit as typed: '' is the warm-up (null); otherwise a whole number in range, or 'invalid'. */
export function parseDailyLimit(text: string): number | null | 'invalid' {
  const v = text.trim()
  if (!v) return null
  if (!/^\d+$/.test(v)) return 'invalid'
  const n = Number(v)
  return n >= DAILY_LIMIT_MIN && n <= DAILY_LIMIT_MAX ? n : 'invalid'
}

/** The window as edited: off is null (any hour); on, two HH:MM that differ (an end before the start crosses midnight). */
export function parseSendWindow(on: boolean, start: string, end: string): SendWindow | null | 'invalid' {
  if (!on) return null
  return HHMM.test(start) && HHMM.test(end) && start !== end ? { start, end } : 'invalid'
}

/** What the window's time fields show when it is switched on with none saved. */
const WINDOW_SUGGESTION: SendWindow = { start: '08:00', end: '20:00' }

/** Each row's problem with its key, if any: empty, not one word, too long, or a key an earlier row has. */
export function variableKeyErrors(
  rows: { key: string }[],
): ('required' | 'invalid' | 'tooLong' | 'taken' | null)[] {
  const seen = new Set<string>()
  return rows.map((row) => {
    const key = row.key.trim()
    if (!key) return 'required'
    if (key.length > CAMPAIGN_VARIABLE_KEY_MAX) return 'tooLong'
    if (!/^[^\s{}]+$/u.test(key)) return 'invalid'
    if (seen.has(key)) return 'taken'
    seen.add(key)
    return null
  })
}

/**
 * The campaign settings screen (spec 2, "Campaign settings"; section 9): the three send intervals with the
 * spec's options and defaults, the number's protection (daily limit per connection, empty for the warm-up; the
 * sending window, off for any hour) and the custom variables (unique keys) used as `{key}` in campaign messages.
 * GET /campaign-settings loads them; POST saves with 'Operação atualizada com sucesso.'.
 */
export function CampaignSettingsPage() {
  useSignals()
  const { t } = useTranslation()
  const companyId = currentUser.value?.companyId
  const [settings, setSettings] = useState<CampaignSettings | null>(null)
  const [rows, setRows] = useState<VariableRow[]>([])
  const [limitText, setLimitText] = useState('')
  const [windowOn, setWindowOn] = useState(false)
  const [hours, setHours] = useState<SendWindow>(WINDOW_SUGGESTION)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [showErrors, setShowErrors] = useState(false)
  const dirty = useRef(false)

  const apply = useCallback((items: CampaignSettingItem[]) => {
    const next = campaignSettingsOf(items)
    setSettings(next)
    setRows(rowsOf(next))
    setLimitText(next.dailyLimit == null ? '' : String(next.dailyLimit))
    setWindowOn(next.sendWindow != null)
    setHours(next.sendWindow ?? WINDOW_SUGGESTION)
    dirty.current = false
  }, [])

  const load = useCallback(
    async (signal?: AbortSignal) => {
      setLoadError(null)
      try {
        apply(await api.get<CampaignSettingItem[]>('/campaign-settings', { signal }))
      } catch (err) {
        if ((err as Error).name === 'AbortError') return
        setLoadError(errorMessage(err))
      }
    },
    [apply],
  )

  useEffect(() => {
    const ctrl = new AbortController()
    void load(ctrl.signal)
    return () => ctrl.abort()
  }, [load])

  // Another admin's save: taken over unless this screen has unsaved changes.
  useEffect(() => {
    if (!companyId) return
    return subscribe(liveChannel(companyId, 'campaignSettings'), (data) => {
      if (data?.action === 'update' && !dirty.current) apply(data.settings)
    })
  }, [companyId, apply])

  const change = (patch: Partial<CampaignSettings>) => {
    dirty.current = true
    setSettings((s) => ({ ...(s ?? CAMPAIGN_SETTING_DEFAULTS), ...patch }))
  }
  const changeRows = (next: VariableRow[]) => {
    dirty.current = true
    setRows(next)
  }

  const keyErrors = variableKeyErrors(rows)
  const valueErrors = rows.map((r) => r.value.length > CAMPAIGN_VARIABLE_VALUE_MAX)
  const dailyLimit = parseDailyLimit(limitText)
  const sendWindow = parseSendWindow(windowOn, hours.start, hours.end)

  const save = async () => {
    if (!settings) return
    if (
      keyErrors.some(Boolean) ||
      valueErrors.some(Boolean) ||
      dailyLimit === 'invalid' ||
      sendWindow === 'invalid'
    ) {
      setShowErrors(true)
      return
    }
    setSaving(true)
    try {
      const saved = await api.post<CampaignSettingItem[]>('/campaign-settings', {
        settings: {
          messageInterval: settings.messageInterval,
          longerIntervalAfter: settings.longerIntervalAfter,
          greaterInterval: settings.greaterInterval,
          dailyLimit,
          sendWindow,
          variables: rows.map((r) => ({ key: r.key.trim(), value: r.value })),
        },
      })
      apply(saved)
      setShowErrors(false)
      toast.success(t('campaignSettings.saved'))
    } catch (err) {
      toastError(err)
    } finally {
      setSaving(false)
    }
  }

  const seconds = (n: number) =>
    n === 0 ? t('campaignSettings.noInterval') : t('campaignSettings.seconds', { count: n })
  const messages = (n: number) =>
    n === 0 ? t('campaignSettings.notSet') : t('campaignSettings.messages', { count: n })

  const keyMessage = (error: (typeof keyErrors)[number]) =>
    error === 'required'
      ? t('campaignSettings.keyRequired')
      : error === 'invalid'
        ? t('campaignSettings.keyInvalid')
        : error === 'tooLong'
          ? t('campaignSettings.tooLong')
          : error === 'taken'
            ? t('campaignSettings.keyTaken')
            : null

  return (
    <Page
      title={t('campaignSettings.title')}
      actions={
        <Button icon={<Save className="size-4" />} onClick={save} loading={saving} disabled={!settings}>
          {t('campaignSettings.save')}
        </Button>
      }
    >
      {loadError ? (
        <Card className="items-center gap-3 p-6 text-center">
          <p className="text-danger text-sm">{loadError}</p>
          <Button variant="secondary" onClick={() => void load()}>
            {t('common.retry')}
          </Button>
        </Card>
      ) : !settings ? (
        <Card className="gap-4 p-5">
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-24 w-full" />
        </Card>
      ) : (
        <>
          <Card className="gap-4 p-5">
            <div>
              <h2 className="font-semibold text-fg">{t('campaignSettings.intervals')}</h2>
              <p className="text-muted text-sm">{t('campaignSettings.intervalsHint')}</p>
            </div>
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label={t('campaignSettings.messageInterval')} as="group">
                <Select
                  aria-label={t('campaignSettings.messageInterval')}
                  value={settings.messageInterval}
                  onChange={(v) => change({ messageInterval: v })}
                  options={MESSAGE_INTERVAL_OPTIONS.map((n) => ({ value: n, label: seconds(n) }))}
                />
              </Field>
              <Field label={t('campaignSettings.longerIntervalAfter')} as="group">
                <Select
                  aria-label={t('campaignSettings.longerIntervalAfter')}
                  value={settings.longerIntervalAfter}
                  onChange={(v) => change({ longerIntervalAfter: v })}
                  options={LONGER_INTERVAL_OPTIONS.map((n) => ({ value: n, label: messages(n) }))}
                />
              </Field>
              <Field label={t('campaignSettings.greaterInterval')} as="group">
                <Select
                  aria-label={t('campaignSettings.greaterInterval')}
                  value={settings.greaterInterval}
                  onChange={(v) => change({ greaterInterval: v })}
                  options={GREATER_INTERVAL_OPTIONS.map((n) => ({ value: n, label: seconds(n) }))}
                />
              </Field>
            </div>
          </Card>
          <Card className="gap-4 p-5">
            <div>
              <h2 className="font-semibold text-fg">{t('campaignSettings.protection')}</h2>
              <p className="text-muted text-sm">{t('campaignSettings.protectionHint')}</p>
            </div>
            <Field
              label={t('campaignSettings.dailyLimit')}
              className="sm:max-w-xs"
              error={
                dailyLimit === 'invalid'
                  ? t('campaignSettings.dailyLimitInvalid', { min: DAILY_LIMIT_MIN, max: DAILY_LIMIT_MAX })
                  : null
              }
              hint={t('campaignSettings.dailyLimitHint', {
                first: WARMUP_FIRST_DAY,
                step: WARMUP_STEP,
                max: WARMUP_MAX,
              })}
            >
              <Input
                inputMode="numeric"
                value={limitText}
                placeholder={t('campaignSettings.dailyLimitPlaceholder')}
                maxLength={6}
                onChange={(e) => {
                  dirty.current = true
                  setLimitText(e.target.value)
                }}
              />
            </Field>
            <div className="flex flex-col gap-2">
              <Switch
                checked={windowOn}
                onChange={(on) => {
                  dirty.current = true
                  setWindowOn(on)
                }}
                label={t('campaignSettings.sendWindow')}
                description={
                  windowOn ? t('campaignSettings.sendWindowHint') : t('campaignSettings.sendWindowOff')
                }
              />
              {windowOn && (
                <div className="grid gap-4 sm:max-w-md sm:grid-cols-2">
                  {(['start', 'end'] as const).map((edge) => (
                    <Field
                      key={edge}
                      label={t(
                        edge === 'start' ? 'campaignSettings.windowStart' : 'campaignSettings.windowEnd',
                      )}
                    >
                      <Input
                        type="time"
                        value={hours[edge]}
                        invalid={sendWindow === 'invalid'}
                        onChange={(e) => {
                          dirty.current = true
                          setHours((w) => ({ ...w, [edge]: e.target.value }))
                        }}
                      />
                    </Field>
                  ))}
                  {sendWindow === 'invalid' && (
                    <p className="text-danger text-xs sm:col-span-2" role="alert">
                      {t('campaignSettings.windowInvalid')}
                    </p>
                  )}
                </div>
              )}
            </div>
          </Card>
          <Card className="gap-4 p-5">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div>
                <h2 className="font-semibold text-fg">{t('campaignSettings.variables')}</h2>
                <p className="text-muted text-sm">{t('campaignSettings.variablesHint')}</p>
              </div>
              <Button
                variant="secondary"
                size="sm"
                icon={<Plus className="size-4" />}
                disabled={rows.length >= CAMPAIGN_VARIABLES_MAX}
                onClick={() => changeRows([...rows, { uid: nextUid++, key: '', value: '' }])}
              >
                {t('campaignSettings.addVariable')}
              </Button>
            </div>
            {rows.length === 0 ? (
              <p className="text-muted text-sm">{t('campaignSettings.noVariables')}</p>
            ) : (
              <table className="w-full text-sm" aria-label={t('campaignSettings.variables')}>
                <thead>
                  <tr className="text-left text-muted text-xs">
                    <th className="w-2/5 pb-2 font-medium">{t('campaignSettings.key')}</th>
                    <th className="pb-2 font-medium">{t('campaignSettings.value')}</th>
                    <th className="w-12 pb-2">
                      <span className="sr-only">{t('common.actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row, index) => {
                    // An empty key is only pointed out after Save; the others as they are typed.
                    const keyError = keyErrors[index] ?? null
                    const shownKeyError =
                      keyError && (keyError !== 'required' || showErrors) ? keyMessage(keyError) : null
                    return (
                      <tr key={row.uid} className="align-top">
                        <td className="pr-2 pb-2">
                          <Input
                            aria-label={t('campaignSettings.key')}
                            value={row.key}
                            invalid={!!shownKeyError}
                            maxLength={CAMPAIGN_VARIABLE_KEY_MAX + 10}
                            onChange={(e) =>
                              changeRows(
                                rows.map((r) => (r.uid === row.uid ? { ...r, key: e.target.value } : r)),
                              )
                            }
                          />
                          {shownKeyError && <p className="mt-1 text-danger text-xs">{shownKeyError}</p>}
                        </td>
                        <td className="pr-2 pb-2">
                          <Input
                            aria-label={t('campaignSettings.value')}
                            value={row.value}
                            invalid={valueErrors[index]}
                            onChange={(e) =>
                              changeRows(
                                rows.map((r) => (r.uid === row.uid ? { ...r, value: e.target.value } : r)),
                              )
                            }
                          />
                          {valueErrors[index] && (
                            <p className="mt-1 text-danger text-xs">{t('campaignSettings.tooLong')}</p>
                          )}
                        </td>
                        <td className="pb-2 text-right">
                          <IconButton
                            size="sm"
                            variant="danger-ghost"
                            label={t('campaignSettings.removeVariable', { key: row.key })}
                            icon={<Trash2 className="size-4" />}
                            onClick={() => changeRows(rows.filter((r) => r.uid !== row.uid))}
                          />
                        </td>
                      </tr>
                    )
                  })}
                </tbody>
              </table>
            )}
          </Card>
        </>
      )}
    </Page>
  )
}
