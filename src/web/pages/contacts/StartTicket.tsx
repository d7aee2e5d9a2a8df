import { useSignals } from '@preact/signals-react/runtime'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import type { ContactDto, TicketDto } from '../../../shared/api'
import { isAdmin } from '../../../shared/permissions'
import { ApiError, api } from '../../api/client'
import { toastError } from '../../api/errors'
import { Dialog } from '../../components/ui/Dialog'
import { Field } from '../../components/ui/Field'
import { FormActions } from '../../components/ui/FormActions'
import { Select } from '../../components/ui/Select'
import { connectionsList } from '../../state/connections'
import { useLiveList } from '../../state/liveList'
import { queuesList } from '../../state/queues'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'

/** The ticket another user holds, as the server's ERR_OTHER_OPEN_TICKET carries it (JSON text in `error`). */
export type OtherOpenTicket = {
  id?: number
  uuid?: string
  userId: number | null
  user?: { name?: string } | null
  queue?: { name?: string } | null
}

export function otherOpenTicket(err: unknown): OtherOpenTicket | null {
  if (!(err instanceof ApiError) || err.status !== 409 || !err.code?.startsWith('{')) return null
  try {
    const parsed = JSON.parse(err.code) as OtherOpenTicket
    return parsed && typeof parsed === 'object' ? parsed : null
  } catch {
    return null
  }
}

/** POST /api/tickets: an open ticket for the contact, assigned to the current user. */
export async function createTicket(input: {
  contactId: number
  queueId: number | null
  whatsappId: number | null
  userId: number
}): Promise<TicketDto> {
  return api.post<TicketDto>('/tickets', { ...input, status: 'open' })
}

/**
 * Starting a ticket with a contact: straight away when the user has one queue (or is an admin without queues);
 * otherwise a small dialog asks the queue (required unless admin: 'Selecione uma fila') and the connection.
 * Another user's open ticket for the contact is reported with its user and queue; one's own is opened.
 */
export function useStartTicket() {
  const navigate = useNavigate()
  const { t } = useTranslation()
  const [asking, setAsking] = useState<ContactDto | null>(null)
  const [busy, setBusy] = useState(false)

  const go = (ticket: { uuid?: string; id?: number }) => navigate(`/tickets/${ticket.uuid ?? ticket.id}`)

  const create = async (contact: ContactDto, queueId: number | null, whatsappId: number | null) => {
    const me = currentUser.peek()
    if (!me) return false
    setBusy(true)
    try {
      const ticket = await createTicket({ contactId: contact.id, queueId, whatsappId, userId: me.id })
      go(ticket)
      return true
    } catch (err) {
      const other = otherOpenTicket(err)
      if (other && other.userId === me.id) {
        go(other)
        return true
      }
      if (other)
        toast.error(
          t('contacts.otherOpenTicket', {
            user: other.user?.name ?? '—',
            queue: other.queue?.name ?? t('contacts.noQueue'),
          }),
        )
      else toastError(err)
      return false
    } finally {
      setBusy(false)
    }
  }

  const start = (contact: ContactDto) => {
    const me = currentUser.peek()
    if (!me) return
    if (me.queues.length === 1) void create(contact, me.queues[0]?.id ?? null, me.whatsappId)
    else if (me.queues.length === 0 && isAdmin(me)) void create(contact, null, me.whatsappId)
    else setAsking(contact)
  }

  const dialog = asking ? (
    <StartTicketDialog
      contact={asking}
      busy={busy}
      onClose={() => setAsking(null)}
      onSubmit={async (queueId, whatsappId) => {
        if (await create(asking, queueId, whatsappId)) setAsking(null)
      }}
    />
  ) : null

  return { start, dialog, busy }
}

function StartTicketDialog({
  contact,
  busy,
  onClose,
  onSubmit,
}: {
  contact: ContactDto
  busy: boolean
  onClose: () => void
  onSubmit: (queueId: number | null, whatsappId: number | null) => void
}) {
  useSignals()
  const { t } = useTranslation()
  const me = currentUser.value
  const admin = isAdmin(me)
  const allQueues = useLiveList(queuesList).items
  const connections = useLiveList(connectionsList).items
  const queues = admin ? allQueues : allQueues.filter((q) => me?.queues.some((m) => m.id === q.id))
  const [queueId, setQueueId] = useState<number | null>(null)
  const [whatsappId, setWhatsappId] = useState<number | null>(
    me?.whatsappId ?? connections.find((c) => c.isDefault)?.id ?? null,
  )
  const [submitted, setSubmitted] = useState(false)
  const missingQueue = !admin && queueId == null
  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title={t('contacts.startTicketTitle')}
      description={contact.name}
      onSubmit={() => {
        setSubmitted(true)
        if (!missingQueue) onSubmit(queueId || null, whatsappId)
      }}
      footer={<FormActions onCancel={onClose} saving={busy} saveLabel={t('contacts.startTicket')} />}
    >
      <div className="flex flex-col gap-4">
        <Field
          label={t('contacts.queue')}
          required={!admin}
          error={submitted && missingQueue ? t('contacts.selectQueue') : null}
        >
          <Select
            value={queueId ?? (admin ? 0 : null)}
            onChange={(v) => setQueueId(v || null)}
            placeholder={t('contacts.selectQueue')}
            options={[
              ...(admin ? [{ value: 0, label: t('contacts.noQueue') }] : []),
              ...queues.map((q) => ({ value: q.id, label: q.name, color: q.color })),
            ]}
          />
        </Field>
        <Field label={t('contacts.connection')}>
          <Select
            value={whatsappId}
            onChange={setWhatsappId}
            placeholder={t('contacts.defaultConnection')}
            options={connections.map((c) => ({ value: c.id, label: c.name }))}
          />
        </Field>
      </div>
    </Dialog>
  )
}
