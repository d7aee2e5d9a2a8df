import { useSignals } from '@preact/signals-react/runtime'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { UserDto } from '../../../shared/api'
import { can } from '../../../shared/permissions'
import { api } from '../../api/client'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { MultiSelect, Select } from '../../components/ui/Select'
import { Skeleton } from '../../components/ui/Skeleton'
import { Switch } from '../../components/ui/Switch'
import { useFormDialog } from '../../components/ui/useFormDialog'
import { connectionsList } from '../../state/connections'
import { useLiveList } from '../../state/liveList'
import { queuesList } from '../../state/queues'
import { currentUser } from '../../state/session'
import {
  EMPTY_USER,
  emailChanged,
  formFromUser,
  type UserForm,
  type UserFormRules,
  userBodyOf,
  validateUser,
} from './validation'

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

  const editingSelf = !creating && userId != null && userId === viewer?.id
  const queues = useLiveList(queuesList, undefined, { enabled: open && canEditQueues }).items
  const connections = useLiveList(connectionsList, undefined, { enabled: open && canEditProfile }).items

  const rulesFor = (values: UserForm, initial: UserForm): UserFormRules => ({
    creating,
    limited,
    canEditProfile,
    canEditQueues,
    askCurrentPassword: editingSelf && (!!values.password || emailChanged(values, initial)),
  })
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: EMPTY_USER,
    load:
      creating || userId == null
        ? null
        : (signal) => api.get<UserDto>(`/users/${userId}`, { signal }).then(formFromUser),
    loadKey: `${mode}:${userId}`,
    validate: (v, initial) => validateUser(v, rulesFor(v, initial), t),
    save: (v, initial) => {
      const body = userBodyOf(v, rulesFor(v, initial))
      return creating ? api.post<UserDto>('/users', body) : api.put<UserDto>(`/users/${userId}`, body)
    },
    savedMessage: t('users.saved'),
    codeFields: {
      ERR_EMAIL_ALREADY_EXISTS: 'email',
      ERR_INVALID_CURRENT_PASSWORD: 'currentPassword',
      ERR_CURRENT_PASSWORD_REQUIRED: 'currentPassword',
    },
  })
  const { values, errors, set } = form
  const askCurrentPassword = rulesFor(values, form.initial).askCurrentPassword

  const title = creating ? t('users.addTitle') : limited ? t('users.profileTitle') : t('users.editTitle')
  const flag = (
    key: 'allHistoric' | 'allUserChat' | 'userClosePendingTicket' | 'showDashboard' | 'isTricked',
  ) => (
    <Switch
      label={t(`users.flags.${key}`)}
      checked={values[key] === 'enabled'}
      onChange={(on) => set(key, on ? 'enabled' : 'disabled')}
    />
  )

  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={title}
      size={limited ? 'md' : 'lg'}
      skeleton={
        <div className="grid gap-4 sm:grid-cols-2" aria-busy>
          {Array.from({ length: 6 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
            <div key={i} className="space-y-2">
              <Skeleton className="h-3 w-24" />
              <Skeleton className="h-10 w-full" />
            </div>
          ))}
        </div>
      }
    >
      <div className="flex flex-col gap-6">
        <Section title={t('users.sectionAccess')}>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label={t('users.name')} error={errors.name} required>
              <Input
                value={values.name}
                onChange={(e) => set('name', e.target.value)}
                autoComplete="off"
                autoFocus
              />
            </Field>
            <Field label={t('users.email')} error={errors.email} required>
              <Input
                type="email"
                value={values.email}
                onChange={(e) => set('email', e.target.value)}
                autoComplete="off"
                inputMode="email"
              />
            </Field>
            <Field
              label={t('users.password')}
              error={errors.password}
              required={creating}
              hint={creating ? t('signup.passwordHint') : t('users.passwordKeep')}
            >
              <Input
                type="password"
                value={values.password}
                onChange={(e) => set('password', e.target.value)}
                autoComplete="new-password"
              />
            </Field>
            {askCurrentPassword && (
              <Field
                label={t('users.currentPassword')}
                error={errors.currentPassword}
                required
                hint={t('users.currentPasswordHint')}
              >
                <Input
                  type="password"
                  name="currentPassword"
                  value={values.currentPassword}
                  onChange={(e) => set('currentPassword', e.target.value)}
                  autoComplete="current-password"
                />
              </Field>
            )}
            {canEditProfile && (
              <Field label={t('users.profile')} error={errors.profile} required>
                <Select
                  value={values.profile || null}
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
                    value={values.queueIds}
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
                      value={values.whatsappId}
                      onChange={(v) => set('whatsappId', v)}
                      options={[
                        { value: 0, label: t('users.noDefaultConnection') },
                        ...connections.map((c) => ({ value: c.id, label: c.name })),
                      ]}
                    />
                  </Field>
                  <Field label={t('users.startWork')} error={errors.startWork}>
                    <Select
                      value={values.startWork}
                      onChange={(v) => set('startWork', v)}
                      options={timeOptions(values.startWork)}
                      className="tnum"
                    />
                  </Field>
                  <Field label={t('users.endWork')} error={errors.endWork}>
                    <Select
                      value={values.endWork}
                      onChange={(v) => set('endWork', v)}
                      options={timeOptions(values.endWork)}
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
                checked={values.allTicket === 'enable'}
                onChange={(on) => set('allTicket', on ? 'enable' : 'disable')}
              />
              <Switch
                label={t('users.flags.allowGroup')}
                checked={values.allowGroup}
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
                value={values.defaultTheme}
                onChange={(v) => set('defaultTheme', v)}
                options={[
                  { value: 'light' as const, label: t('users.themeLight') },
                  { value: 'dark' as const, label: t('users.themeDark') },
                ]}
              />
            </Field>
            <Field label={t('users.defaultMenu')}>
              <Select
                value={values.defaultMenu}
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
                value={values.farewellMessage}
                onChange={(e) => set('farewellMessage', e.target.value)}
                rows={3}
                maxLength={1000}
              />
            </Field>
          </div>
        </Section>
      </div>
    </FormDialog>
  )
}
