import { useSignals } from '@preact/signals-react/runtime'
import { Check, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TicketDto, UserDto } from '../../../../shared/api'
import { api } from '../../../api/client'
import { toastError } from '../../../api/errors'
import { Avatar } from '../../../components/ui/Avatar'
import { Dialog } from '../../../components/ui/Dialog'
import { Field, SearchInput } from '../../../components/ui/Field'
import { FormActions } from '../../../components/ui/FormActions'
import { Select } from '../../../components/ui/Select'
import { cn } from '../../../lib/cn'
import { useDebounced } from '../../../lib/useDebounced'
import { connectionsList } from '../../../state/connections'
import { useLiveList } from '../../../state/liveList'
import { queuesList } from '../../../state/queues'
import { currentUser } from '../../../state/session'
import { toast } from '../../../state/toast'

/** Spec: the user search starts at 3 characters, 500 ms after the typing stops. */
export const USER_SEARCH_MIN = 3
export const USER_SEARCH_DEBOUNCE = 500

export type TransferInput = { queueId: number | null; whatsappId: number | null; userId: number | null }

/**
 * The body of PUT /api/tickets/{id} for a transfer: a chosen user takes the ticket (open); a queue alone puts it
 * back in that queue's waiting list (pending, no user). Null when the queue or the connection is missing.
 */
export function transferBody(input: TransferInput) {
  if (input.queueId == null || input.whatsappId == null) return null
  return input.userId != null
    ? { queueId: input.queueId, whatsappId: input.whatsappId, userId: input.userId, status: 'open' as const }
    : { queueId: input.queueId, whatsappId: input.whatsappId, userId: null, status: 'pending' as const }
}

/** The transfer dialog: queue (required), connection (required), and optionally a user found by name. */
export function TransferDialog({
  ticket,
  open,
  onClose,
  onTransferred,
}: {
  ticket: TicketDto
  open: boolean
  onClose: () => void
  onTransferred: (ticket: TicketDto | null) => void
}) {
  useSignals()
  const { t } = useTranslation()
  const me = currentUser.value
  const queues = useLiveList(queuesList, undefined, { enabled: open }).items
  const connections = useLiveList(connectionsList, undefined, { enabled: open }).items
  const onlyQueue = me?.queues.length === 1 ? (me.queues[0]?.id ?? null) : null
  const [queueId, setQueueId] = useState<number | null>(onlyQueue)
  const [whatsappId, setWhatsappId] = useState<number | null>(ticket.whatsappId)
  const [user, setUser] = useState<UserDto | null>(null)
  const [search, setSearch] = useState('')
  const term = useDebounced(search.trim(), USER_SEARCH_DEBOUNCE)
  const [found, setFound] = useState<UserDto[]>([])
  const [searching, setSearching] = useState(false)
  const [submitted, setSubmitted] = useState(false)
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    if (!open || term.length < USER_SEARCH_MIN) {
      setFound([])
      return
    }
    const ctrl = new AbortController()
    setSearching(true)
    api
      .get<UserDto[]>('/users/list', { query: { searchParam: term }, signal: ctrl.signal })
      .then((users) => {
        const q = term.toLowerCase()
        setFound((users ?? []).filter((u) => u.name.toLowerCase().includes(q)).slice(0, 20))
      })
      .catch((err) => {
        if ((err as Error)?.name !== 'AbortError') toastError(err)
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setSearching(false)
      })
    return () => ctrl.abort()
  }, [open, term])

  const connectionOptions = connections.length
    ? connections.map((c) => ({ value: c.id, label: c.name }))
    : ticket.whatsapp
      ? [{ value: ticket.whatsapp.id, label: ticket.whatsapp.name }]
      : []

  const submit = async () => {
    setSubmitted(true)
    const body = transferBody({ queueId, whatsappId, userId: user?.id ?? null })
    if (!body) return
    setSaving(true)
    try {
      const res = await api.put<TicketDto | undefined>(`/tickets/${ticket.id}`, body)
      toast.success(t('conversation.transfer.done'))
      onTransferred(res && typeof res === 'object' && 'id' in res ? res : null)
      onClose()
    } catch (err) {
      toastError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={t('conversation.transfer.title')}
      size="sm"
      onSubmit={() => void submit()}
      footer={
        <FormActions onCancel={onClose} saving={saving} saveLabel={t('conversation.transfer.submit')} />
      }
    >
      <div className="flex flex-col gap-4">
        <Field
          label={t('conversation.transfer.queue')}
          required
          error={submitted && queueId == null ? t('validation.required') : null}
        >
          <Select
            value={queueId}
            onChange={setQueueId}
            placeholder={t('conversation.transfer.queuePlaceholder')}
            options={queues.map((q) => ({ value: q.id, label: q.name, color: q.color }))}
          />
        </Field>
        <Field
          label={t('conversation.transfer.connection')}
          required
          error={submitted && whatsappId == null ? t('validation.required') : null}
        >
          <Select
            value={whatsappId}
            onChange={setWhatsappId}
            placeholder={t('conversation.transfer.connectionPlaceholder')}
            options={connectionOptions}
          />
        </Field>
        <Field
          label={t('conversation.transfer.user')}
          hint={user ? undefined : t('conversation.transfer.userHint')}
        >
          {user ? (
            <div className="flex h-10 items-center gap-2 rounded-lg border border-border-strong px-2.5 max-sm:h-11">
              <Avatar name={user.name} size={24} />
              <span className="flex-1 truncate text-sm">{user.name}</span>
              <button
                type="button"
                onClick={() => setUser(null)}
                className="rounded p-1 text-muted hover:text-fg"
                aria-label={t('conversation.transfer.clearUser')}
                title={t('conversation.transfer.clearUser')}
              >
                <X className="size-4" aria-hidden />
              </button>
            </div>
          ) : (
            <SearchInput
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder={t('conversation.transfer.userPlaceholder')}
              autoComplete="off"
              busy={searching}
            />
          )}
        </Field>
        {!user && term.length >= USER_SEARCH_MIN && !searching && (
          <ul
            className="-mt-2 max-h-48 overflow-y-auto rounded-lg border border-border"
            aria-label={t('conversation.transfer.user')}
          >
            {found.length === 0 && (
              <li className="px-3 py-2.5 text-muted text-sm">{t('common.noOptions')}</li>
            )}
            {found.map((u) => (
              <li key={u.id}>
                <button
                  type="button"
                  onClick={() => setUser(u)}
                  className={cn(
                    'flex w-full items-center gap-2 px-3 py-2 text-left text-sm hover:bg-surface-2 max-sm:min-h-11',
                  )}
                >
                  <Avatar name={u.name} size={24} />
                  <span className="flex-1 truncate">{u.name}</span>
                  {u.id === ticket.userId && <Check className="size-4 text-muted" aria-hidden />}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  )
}
