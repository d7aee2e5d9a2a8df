import { useSignals } from '@preact/signals-react/runtime'
import { type ReactNode, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { QueueDto, UserDto, WhatsappDto } from '../../../shared/api'
import { can } from '../../../shared/permissions'
import { ApiError, api } from '../../api/client'
import { errorMessage, fieldMessage, toastError } from '../../api/errors'
import { Dialog } from '../../components/ui/Dialog'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormActions } from '../../components/ui/FormActions'
import { MultiSelect, Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { Switch } from '../../components/ui/Switch'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { EMPTY_USER, formFromUser, type UserForm, type UserFormErrors, validateUser } from './validation'

export type UserDialogMode = 'create' | 'edit' | 'profile'

export type UserDialogProps = {
  open: boolean
  mode: UserDialogMode
  /** The user to edit (edit and profile modes). */
  userId?: number
  onClose: () => void
  onSaved?: (user: UserDto) => void
}

/** Work hours: every 10 minutes (spec: step 10 min), plus 23:59 and the current value if it is off the grid. */
export function timeOptions(current?: string): { value: string; label: string }[] {
  const values: string[] = []
  for (let m = 0; m < 24 * 60; m += 10) {
    values.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`)
  }
  values.push('23:59')
  if (current && !values.includes(current)) values.push(current)
  return values.sort().map((v) => ({ value: v, label: v }))
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0">
      <legend className="mb-3 font-semibold text-[12px] text-subtle uppercase tracking-wider">{title}</legend>
      {children}
    </fieldset>
  )
}

/**
 * The user dialog: create and edit for admins; 'profile' is the signed-in user's own limited form
 * (name, email, password, farewell message, default theme and menu).
 */
export function UserDialog({ open, mode, userId, onClose, onSaved }: UserDialogProps) {
  useSignals()
  const { t } = useTranslation()
  const viewer = currentUser.value
  const creating = mode === 'create'
  const limited = mode === 'profile'
  const canEditProfile = !limited && can(viewer, 'user-modal:editProfile')
  const canEditQueues = !limited && can(viewer, 'user-modal:editQueues')

  const [form, setForm] = useState<UserForm>(EMPTY_USER)
  const [errors, setErrors] = useState<UserFormErrors>({})
  const [loading, setLoading] = useState(!creating)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [queues, setQueues] = useState<QueueDto[]>([])
  const [connections, setConnections] = useState<WhatsappDto[]>([])
  const [submitted, setSubmitted] = useState(false)

  useEffect(() => {
    if (!open) return
    setErrors({})
    setSubmitted(false)
    setLoadError(null)
    if (creating || userId == null) {
      setForm(EMPTY_USER)
      setLoading(false)
      return
    }
    const ctrl = new AbortController()
    setLoading(true)
    api
      .get<UserDto>(`/users/${userId}`, { signal: ctrl.signal })
      .then((u) => setForm(formFromUser(u)))
      .catch((err) => {
        if ((err as Error)?.name !== 'AbortError') setLoadError(errorMessage(err))
      })
      .finally(() => setLoading(false))
    return () => ctrl.abort()
  }, [open, creating, userId])

  useEffect(() => {
    if (!open || !canEditQueues) return
    const ctrl = new AbortController()
    api
      .get<QueueDto[]>('/queue', { signal: ctrl.signal })
      .then(setQueues)
      .catch(() => setQueues([]))
    return () => ctrl.abort()
  }, [open, canEditQueues])

  useEffect(() => {
    if (!open || !canEditProfile) return
    const ctrl = new AbortController()
    api
      .get<WhatsappDto[]>('/whatsapp', { signal: ctrl.signal })
      .then(setConnections)
      .catch(() => setConnections([]))
    return () => ctrl.abort()
  }, [open, canEditProfile])

  const rules = { creating, checkProfile: canEditProfile, checkWork: canEditProfile }

  const set = <K extends keyof UserForm>(key: K, value: UserForm[K]) => {
    const next = { ...form, [key]: value }
    setForm(next)
    if (submitted) setErrors(validateUser(next, rules, t))
  }

  const submit = async () => {
    setSubmitted(true)
    const found = validateUser(form, rules, t)
    setErrors(found)
    if (Object.keys(found).length > 0) return

    const body: Record<string, unknown> = {
      name: form.name.trim(),
      email: form.email.trim(),
      farewellMessage: form.farewellMessage.trim() || null,
      defaultTheme: form.defaultTheme,
      defaultMenu: form.defaultMenu,
    }
    if (form.password) body.password = form.password
    if (!limited) {
      if (canEditProfile || creating) body.profile = form.profile || 'user'
      if (canEditProfile) {
        body.startWork = form.startWork
        body.endWork = form.endWork
        body.whatsappId = form.whatsappId || null
      }
      if (canEditQueues) body.queueIds = form.queueIds
      Object.assign(body, {
        allTicket: form.allTicket,
        allowGroup: form.allowGroup,
        allHistoric: form.allHistoric,
        allUserChat: form.allUserChat,
        userClosePendingTicket: form.userClosePendingTicket,
        showDashboard: form.showDashboard,
        isTricked: form.isTricked,
      })
    }

    setSaving(true)
    try {
      const saved = creating
        ? await api.post<UserDto>('/users', body)
        : await api.put<UserDto>(`/users/${userId}`, body)
      toast.success(t('users.saved'))
      onSaved?.(saved)
      onClose()
    } catch (err) {
      if (err instanceof ApiError && (err.fields.length > 0 || err.code === 'ERR_EMAIL_ALREADY_EXISTS')) {
        const serverErrors: UserFormErrors = {}
        for (const f of err.fields) {
          if (f.field in EMPTY_USER) serverErrors[f.field as keyof UserForm] = fieldMessage(err, f)
        }
        if (err.code === 'ERR_EMAIL_ALREADY_EXISTS') serverErrors.email = errorMessage(err)
        setErrors(serverErrors)
        if (Object.keys(serverErrors).length === 0) toastError(err)
      } else {
        toastError(err)
      }
    } finally {
      setSaving(false)
    }
  }

  const title = creating ? t('users.addTitle') : limited ? t('users.profileTitle') : t('users.editTitle')
  const flag = (
    key: 'allHistoric' | 'allUserChat' | 'userClosePendingTicket' | 'showDashboard' | 'isTricked',
  ) => (
    <Switch
      label={t(`users.flags.${key}`)}
      checked={form[key] === 'enabled'}
      onChange={(on) => set(key, on ? 'enabled' : 'disabled')}
    />
  )

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      size={limited ? 'md' : 'lg'}
      onSubmit={submit}
      footer={<FormActions onCancel={onClose} saving={saving} disabled={loading || !!loadError} />}
    >
      {loading ? (
        <div className="grid gap-4 sm:grid-cols-2" aria-busy>
          {Array.from({ length: 6 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
            <div key={i} className="space-y-2">
              <Skeleton className="h-3 w-24" />
              <Skeleton className="h-10 w-full" />
            </div>
          ))}
        </div>
      ) : loadError ? (
        <p role="alert" className="text-danger text-sm">
          {loadError}
        </p>
      ) : (
        <div className="flex flex-col gap-6">
          <Section title={t('users.sectionAccess')}>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t('users.name')} error={errors.name} required>
                <Input
                  value={form.name}
                  onChange={(e) => set('name', e.target.value)}
                  autoComplete="off"
                  autoFocus
                />
              </Field>
              <Field label={t('users.email')} error={errors.email} required>
                <Input
                  type="email"
                  value={form.email}
                  onChange={(e) => set('email', e.target.value)}
                  autoComplete="off"
                  inputMode="email"
                />
              </Field>
              <Field
                label={t('users.password')}
                error={errors.password}
                required={creating}
                hint={creating ? undefined : t('users.passwordKeep')}
              >
                <Input
                  type="password"
                  value={form.password}
                  onChange={(e) => set('password', e.target.value)}
                  autoComplete="new-password"
                />
              </Field>
              {canEditProfile && (
                <Field label={t('users.profile')} error={errors.profile} required>
                  <Select
                    value={form.profile || null}
                    onChange={(v) => set('profile', v)}
                    options={[
                      { value: 'user' as const, label: t('users.profiles.user') },
                      { value: 'admin' as const, label: t('users.profiles.admin') },
                    ]}
                  />
                </Field>
              )}
            </div>
          </Section>

          {(canEditQueues || canEditProfile) && (
            <Section title={t('users.sectionWork')}>
              <div className="grid gap-4 sm:grid-cols-2">
                {canEditQueues && (
                  <Field label={t('users.queues')} className="sm:col-span-2">
                    <MultiSelect
                      value={form.queueIds}
                      onChange={(v) => set('queueIds', v)}
                      placeholder={t('users.noQueues')}
                      options={queues.map((q) => ({ value: q.id, label: q.name, color: q.color }))}
                    />
                  </Field>
                )}
                {canEditProfile && (
                  <>
                    <Field
                      label={t('users.defaultConnection')}
                      error={errors.whatsappId}
                      className="sm:col-span-2"
                    >
                      <Select
                        value={form.whatsappId}
                        onChange={(v) => set('whatsappId', v)}
                        options={[
                          { value: 0, label: t('users.noDefaultConnection') },
                          ...connections.map((c) => ({ value: c.id, label: c.name })),
                        ]}
                      />
                    </Field>
                    <Field label={t('users.startWork')} error={errors.startWork}>
                      <Select
                        value={form.startWork}
                        onChange={(v) => set('startWork', v)}
                        options={timeOptions(form.startWork)}
                        className="tnum"
                      />
                    </Field>
                    <Field label={t('users.endWork')} error={errors.endWork}>
                      <Select
                        value={form.endWork}
                        onChange={(v) => set('endWork', v)}
                        options={timeOptions(form.endWork)}
                        className="tnum"
                      />
                    </Field>
                  </>
                )}
              </div>
            </Section>
          )}

          {!limited && (
            <Section title={t('users.sectionPermissions')}>
              <div className="grid gap-x-8 sm:grid-cols-2">
                <Switch
                  label={t('users.flags.allTicket')}
                  checked={form.allTicket === 'enable'}
                  onChange={(on) => set('allTicket', on ? 'enable' : 'disable')}
                />
                <Switch
                  label={t('users.flags.allowGroup')}
                  checked={form.allowGroup}
                  onChange={(on) => set('allowGroup', on)}
                />
                {flag('allUserChat')}
                {flag('allHistoric')}
                {flag('userClosePendingTicket')}
                {flag('showDashboard')}
                {flag('isTricked')}
              </div>
            </Section>
          )}

          <Section title={t('users.sectionPreferences')}>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={t('users.defaultTheme')}>
                <Select
                  value={form.defaultTheme}
                  onChange={(v) => set('defaultTheme', v)}
                  options={[
                    { value: 'light' as const, label: t('users.themeLight') },
                    { value: 'dark' as const, label: t('users.themeDark') },
                  ]}
                />
              </Field>
              <Field label={t('users.defaultMenu')}>
                <Select
                  value={form.defaultMenu}
                  onChange={(v) => set('defaultMenu', v)}
                  options={[
                    { value: 'open' as const, label: t('users.menuOpen') },
                    { value: 'closed' as const, label: t('users.menuClosed') },
                  ]}
                />
              </Field>
              <Field
                label={t('users.farewellMessage')}
                hint={t('users.farewellHint')}
                error={errors.farewellMessage}
                className="sm:col-span-2"
              >
                <Textarea
                  value={form.farewellMessage}
                  onChange={(e) => set('farewellMessage', e.target.value)}
                  rows={3}
                  maxLength={1000}
                />
              </Field>
            </div>
          </Section>
        </div>
      )}
    </Dialog>
  )
}
