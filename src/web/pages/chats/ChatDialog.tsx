import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChatDto } from '../../../shared/chats'
import { CHAT_TITLE_MAX } from '../../../shared/schemas/chats'
import { api } from '../../api/client'
import { Field, Input } from '../../components/ui/Field'
import { FormDialog } from '../../components/ui/FormDialog'
import { MultiSelect } from '../../components/ui/Select'
import { type FieldErrors, useFormDialog } from '../../components/ui/useFormDialog'
import { useIsPhone } from '../../lib/useMediaQuery'
import { useUserOptions } from '../../state/options'
import { toast } from '../../state/toast'

export type ChatForm = { title: string; users: number[] }

export const EMPTY_CHAT: ChatForm = { title: '', users: [] }

/** The spec's two checks, with its texts: a title, and at least one user besides me. */
export function validateChat(form: ChatForm, t: (k: string) => string): FieldErrors<ChatForm> {
  const errors: FieldErrors<ChatForm> = {}
  if (!form.title.trim()) errors.title = t('chats.titleRequired')
  else if (form.title.trim().length > CHAT_TITLE_MAX) errors.title = t('validation.tooLong')
  if (form.users.length === 0) errors.users = t('chats.usersRequired')
  return errors
}

export function formOfChat(chat: ChatDto, me: number): ChatForm {
  return { title: chat.title, users: chat.users.map((u) => u.userId).filter((id) => id !== me) }
}

/** The company's users to choose from (GET /users/list), without me: I am always in my chats. */
function useCompanyUsers(open: boolean, me: number) {
  const users = useUserOptions(open)
  return useMemo(() => users.filter((u) => u.id !== me), [users, me])
}

/** New or edit chat: title and members (spec 2). Only the owner ever sees the edit. */
export function ChatDialog({
  open,
  chat,
  me,
  onClose,
  onSaved,
}: {
  open: boolean
  /** The chat to edit; absent for a new one. */
  chat?: ChatDto | null
  me: number
  onClose: () => void
  onSaved: (chat: ChatDto) => void
}) {
  const { t } = useTranslation()
  const users = useCompanyUsers(open, me)
  const phone = useIsPhone()
  const creating = !chat
  const form = useFormDialog({
    open,
    onClose,
    onSaved,
    empty: chat ? formOfChat(chat, me) : EMPTY_CHAT,
    loadKey: chat?.id,
    validate: (v) => validateChat(v, t),
    // The spec shows these two as alerts: the first one is also a toast (not on phones, where it would cover
    // the sheet's fields; the texts are under the fields anyway).
    onInvalid: (errors) => {
      const first = errors.title ?? errors.users
      if (first && !phone) toast.warning(first)
    },
    save: (v) => {
      const body = { title: v.title.trim(), users: v.users }
      return chat ? api.put<ChatDto>(`/chats/${chat.id}`, body) : api.post<ChatDto>('/chats', body)
    },
    savedMessage: creating ? t('chats.created') : t('chats.saved'),
  })
  const { values, errors, set } = form
  // Members who are no longer listed (a user just created, say) still show by name.
  const known = new Set(users.map((u) => u.id))
  const extra = (chat?.users ?? [])
    .filter((u) => u.userId !== me && !known.has(u.userId))
    .map((u) => ({ value: u.userId, label: u.user.name }))
  const options = [...users.map((u) => ({ value: u.id, label: u.name })), ...extra]
  return (
    <FormDialog
      form={form}
      onClose={onClose}
      title={creating ? t('chats.newTitle') : t('chats.editTitle')}
      size="sm"
    >
      <div className="flex flex-col gap-5">
        <Field label={t('chats.titleField')} error={errors.title} required>
          <Input
            value={values.title}
            onChange={(e) => set('title', e.target.value)}
            autoFocus
            autoComplete="off"
            maxLength={CHAT_TITLE_MAX + 20}
          />
        </Field>
        <Field label={t('chats.usersField')} error={errors.users} as="group" required>
          <MultiSelect
            value={values.users}
            onChange={(v) => set('users', v)}
            options={options}
            placeholder={t('chats.usersPlaceholder')}
            aria-label={t('chats.usersField')}
          />
        </Field>
      </div>
    </FormDialog>
  )
}
