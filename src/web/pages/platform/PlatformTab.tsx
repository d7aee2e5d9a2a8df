import { Copy, KeyRound, Lock } from 'lucide-react'
import { type ReactNode, useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  PLATFORM_SETTINGS,
  type PlatformSettingDto,
  type PlatformSettingKey,
} from '../../../shared/platform-settings'
import { api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { onReconnect } from '../../api/live'
import { Badge } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { LoadError } from '../../components/ui/EmptyState'
import { Input } from '../../components/ui/Field'
import { Skeleton } from '../../components/ui/Skeleton'
import { toast } from '../../state/toast'

/** The groups of the tab, in order (the keys are src/shared/platform-settings.ts's). */
export const PLATFORM_GROUPS: { key: 'mail' | 'pix' | 'payments'; settings: PlatformSettingKey[] }[] = [
  { key: 'mail', settings: ['smtpUrl', 'smtpFrom'] },
  { key: 'pix', settings: ['pixKey', 'pixMerchantName', 'pixMerchantCity'] },
  { key: 'payments', settings: ['paymentWebhookSecret'] },
]

/** The header the payment provider signs its calls with (issue 11's webhook interface). */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Balcao-Signature'

async function copy(text: string, t: (k: string) => string) {
  try {
    await navigator.clipboard.writeText(text)
    toast.success(t('platform.copied'))
  } catch {
    toast.error(t('platform.copyFailed'))
  }
}

function CopyButton({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation()
  return (
    <IconButton
      size="sm"
      variant="secondary"
      label={label}
      icon={<Copy className="size-4" />}
      onClick={() => void copy(text, t)}
    />
  )
}

const MARK = '\u0000'

/** A translated sentence with the environment variable's name set in code type where `{{env}}` was. */
function withEnv(text: string, env: string): ReactNode {
  const [before, after] = text.split(MARK)
  return (
    <>
      {before}
      <code className="rounded bg-surface-2 px-1 py-0.5 font-mono text-[11px] text-fg">{env}</code>
      {after}
    </>
  )
}

/** Where the value in force comes from: saved here, the environment (its variable named), or nowhere. */
function Source({ setting }: { setting: PlatformSettingDto }) {
  const { t } = useTranslation()
  return (
    <div className="mt-1.5 flex flex-wrap items-center gap-1.5 text-xs">
      {setting.secret && (
        <Badge tone={setting.isSet ? 'success' : 'neutral'}>
          <Lock className="size-3" aria-hidden />
          {setting.isSet ? t('platform.isSet') : t('platform.notSet')}
        </Badge>
      )}
      {setting.source === 'settings' && <span className="text-muted">{t('platform.fromSettings')}</span>}
      {setting.source === 'environment' && (
        <span className="text-muted">{withEnv(t('platform.fromEnv', { env: MARK }), setting.env)}</span>
      )}
      {setting.source == null && !setting.secret && <Badge>{t('platform.notSet')}</Badge>}
      {setting.source == null && (
        <span className="text-muted">{withEnv(t('platform.envHint', { env: MARK }), setting.env)}</span>
      )}
    </div>
  )
}

/**
 * One platform setting: its label and where its value comes from, an input and Save (and Remove for a value
 * saved here). A secret is never shown: its input starts empty and only replaces it.
 */
export function SettingRow({
  setting,
  onSaved,
}: {
  setting: PlatformSettingDto
  onSaved: (setting: PlatformSettingDto) => void
}) {
  const { t } = useTranslation()
  const { max } = PLATFORM_SETTINGS[setting.key]
  const saved = setting.secret || setting.source !== 'settings' ? '' : (setting.value ?? '')
  const [draft, setDraft] = useState(saved)
  const [busy, setBusy] = useState<'save' | 'remove' | null>(null)
  useEffect(() => setDraft(saved), [saved])
  const label = t(`platform.keys.${setting.key}.label`)
  const tooLong = draft.trim().length > max
  const changed = draft.trim() !== saved.trim()
  const canSave = !busy && !tooLong && changed && (!setting.secret || !!draft.trim())

  const put = async (value: string | null, kind: 'save' | 'remove') => {
    setBusy(kind)
    try {
      const next = await api.put<PlatformSettingDto>(`/platform-settings/${setting.key}`, { value })
      onSaved(next)
      if (setting.secret) setDraft('')
      toast.success(value ? t('platform.saved') : t('platform.removed'))
    } catch (err) {
      toastError(err)
    } finally {
      setBusy(null)
    }
  }

  return (
    <form
      className="grid gap-3 px-5 py-4 md:grid-cols-[minmax(0,1fr)_minmax(0,440px)] md:gap-6"
      onSubmit={(e) => {
        e.preventDefault()
        if (canSave) void put(draft.trim() || null, draft.trim() ? 'save' : 'remove')
      }}
    >
      <div className="min-w-0">
        <label htmlFor={`platform-${setting.key}`} className="font-medium text-fg text-sm">
          {label}
        </label>
        <p className="mt-0.5 text-[13px] text-muted">{t(`platform.keys.${setting.key}.help`)}</p>
        <Source setting={setting} />
      </div>
      <div className="min-w-0">
        <div className="flex flex-wrap items-start gap-2">
          <Input
            id={`platform-${setting.key}`}
            type={setting.secret ? 'password' : 'text'}
            autoComplete={setting.secret ? 'new-password' : 'off'}
            spellCheck={false}
            className="min-w-0 flex-1 basis-56"
            value={draft}
            invalid={tooLong}
            aria-describedby={tooLong ? `platform-${setting.key}-error` : undefined}
            placeholder={
              setting.secret
                ? t('platform.secretPlaceholder')
                : setting.source === 'environment'
                  ? (setting.value ?? '')
                  : ''
            }
            aria-label={setting.secret ? t('platform.secretNewLabel', { label }) : undefined}
            onChange={(e) => setDraft(e.target.value)}
          />
          <div className="flex gap-2 md:w-[184px]">
            <Button type="submit" variant="secondary" disabled={!canSave} loading={busy === 'save'}>
              {t('platform.save')}
            </Button>
            {setting.source === 'settings' && (
              <Button
                variant="ghost"
                loading={busy === 'remove'}
                disabled={!!busy}
                onClick={() => void put(null, 'remove')}
              >
                {t('platform.remove')}
              </Button>
            )}
          </div>
        </div>
        {tooLong && (
          <p id={`platform-${setting.key}-error`} role="alert" className="mt-1.5 text-[12.5px] text-danger">
            {t('platform.tooLong', { max })}
          </p>
        )}
      </div>
    </form>
  )
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="border-border border-b last:border-b-0">
      <h3 className="px-5 pt-5 font-semibold text-[12px] text-subtle uppercase tracking-wider">{title}</h3>
      <div className="divide-y divide-border">{children}</div>
    </section>
  )
}

/** Where and how the payment provider calls back. */
function WebhookNote() {
  const { t } = useTranslation()
  const url = `${location.origin}/api/payments/webhook`
  return (
    <div className="space-y-3 px-5 py-4">
      <div className="grid gap-2 sm:grid-cols-[180px_minmax(0,1fr)] sm:items-center">
        <span className="font-medium text-[13px] text-fg">{t('platform.webhookUrl')}</span>
        <span className="flex min-w-0 items-center gap-2">
          <code className="min-w-0 truncate rounded-md bg-surface-2 px-2 py-1 font-mono text-xs" title={url}>
            {url}
          </code>
          <CopyButton text={url} label={`${t('platform.copy')}: ${t('platform.webhookUrl')}`} />
        </span>
        <span className="font-medium text-[13px] text-fg">{t('platform.webhookHeader')}</span>
        <code className="w-fit rounded-md bg-surface-2 px-2 py-1 font-mono text-xs">
          {WEBHOOK_SIGNATURE_HEADER}
        </code>
      </div>
      <p className="text-muted text-xs leading-relaxed">{t('platform.webhookNote')}</p>
    </div>
  )
}

type SignupCode = { code: string; expiresAt: string }

/** Issues a sign-up code (POST /api/signup/codes) and shows it large, with a copy button and its expiry. */
function SignupCodes() {
  const { t, i18n } = useTranslation()
  const [issued, setIssued] = useState<SignupCode | null>(null)
  const [busy, setBusy] = useState(false)
  const generate = async () => {
    setBusy(true)
    try {
      setIssued(await api.post<SignupCode>('/signup/codes', {}))
    } catch (err) {
      toast.error(`${t('platform.codes.failed')} ${errorMessage(err)}`)
    } finally {
      setBusy(false)
    }
  }
  const expires = issued
    ? new Intl.DateTimeFormat(i18n.language === 'pt' ? 'pt-BR' : i18n.language, {
        dateStyle: 'short',
        timeStyle: 'short',
      }).format(new Date(issued.expiresAt))
    : null
  return (
    <Group title={t('platform.codes.title')}>
      <div className="flex flex-col gap-4 px-5 py-4 md:flex-row md:items-center md:justify-between">
        <p className="max-w-lg text-muted text-sm">{t('platform.codes.text')}</p>
        <Button
          variant="secondary"
          icon={<KeyRound className="size-4" />}
          loading={busy}
          onClick={() => void generate()}
        >
          {t('platform.codes.generate')}
        </Button>
      </div>
      {issued && (
        <div className="flex flex-wrap items-center gap-4 px-5 py-4" aria-live="polite">
          <div>
            <div className="text-muted text-xs">{t('platform.codes.code')}</div>
            <output
              data-testid="signup-code"
              className="block select-all font-mono font-semibold text-3xl text-fg tracking-[0.2em] tnum"
            >
              {issued.code}
            </output>
            <div className="text-muted text-xs">{t('platform.codes.expires', { time: expires })}</div>
          </div>
          <CopyButton text={issued.code} label={`${t('platform.copy')}: ${t('platform.codes.code')}`} />
        </div>
      )}
    </Group>
  )
}

/**
 * Settings, Platform tab (super users): the platform's e-mail, Pix receiver and payment webhook secret (saved
 * here or given by the environment), and the sign-up codes an operator hands out.
 */
export function PlatformTab() {
  const { t } = useTranslation()
  const [settings, setSettings] = useState<PlatformSettingDto[] | null>(null)
  const [error, setError] = useState<unknown>(null)

  const load = useCallback(async () => {
    setError(null)
    try {
      setSettings(await api.get<PlatformSettingDto[]>('/platform-settings'))
    } catch (err) {
      setError(err)
    }
  }, [])
  useEffect(() => {
    void load()
    return onReconnect(() => void load())
  }, [load])

  if (error && !settings) return <LoadError error={t('common.loadError')} onRetry={() => void load()} />

  const saved = (next: PlatformSettingDto) =>
    setSettings((list) => list?.map((s) => (s.key === next.key ? next : s)) ?? null)
  const byKey = new Map(settings?.map((s) => [s.key, s]))

  return (
    <div className="flex flex-col">
      <p className="px-5 pt-4 text-muted text-sm">{t('platform.intro')}</p>
      {PLATFORM_GROUPS.map((group) => (
        <Group key={group.key} title={t(`platform.groups.${group.key}`)}>
          {group.settings.map((key) => {
            const setting = byKey.get(key)
            return setting ? (
              <SettingRow key={key} setting={setting} onSaved={saved} />
            ) : (
              <div key={key} className="grid gap-3 px-5 py-4 md:grid-cols-[1fr_440px]" aria-busy>
                <div className="space-y-2">
                  <Skeleton className="w-40" />
                  <Skeleton className="h-3 w-64 max-w-full" />
                </div>
                <Skeleton className="h-10 w-full" />
              </div>
            )
          })}
          {group.key === 'payments' && <WebhookNote />}
        </Group>
      ))}
      <SignupCodes />
    </div>
  )
}
