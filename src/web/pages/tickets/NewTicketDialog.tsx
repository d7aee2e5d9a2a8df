import { Combobox, ComboboxInput, ComboboxOption, ComboboxOptions } from '@headlessui/react'
import { useSignals } from '@preact/signals-react/runtime'
import { AlertTriangle, Search } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ContactDto, ContactsPage, TicketDto } from '../../../shared/api'
import { isAdmin } from '../../../shared/permissions'
import { ApiError, api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { Avatar } from '../../components/ui/Avatar'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { controlBorder, controlClass, Field, useFieldControl } from '../../components/ui/Field'
import { type Option, Select } from '../../components/ui/Select'
import { Spinner } from '../../components/ui/Spinner'
import { cn } from '../../lib/cn'
import { useDebounced } from '../../lib/useDebounced'
import { connectionsList } from '../../state/connections'
import { useLiveList } from '../../state/liveList'
import { queuesList } from '../../state/queues'
import { currentUser } from '../../state/session'

/** Spec: the contact search starts at 3 typed characters. */
export const CONTACT_SEARCH_MIN = 3
export const CONTACT_SEARCH_DEBOUNCE = 500
/** The admin's "no queue" choice in the queue select. */
const NO_QUEUE = 0

type ContactHit = Pick<ContactDto, 'id' | 'name' | 'number' | 'profilePicUrl'>

/** The ticket another user holds, as the 409's `error` JSON text describes it (spec 1, section 7). */
export type HeldTicket = {
  id?: number
  uuid?: string
  userId?: number | null
  user?: { name?: string } | null
  queue?: { name?: string } | null
}

/** The held ticket in a 409 answer, when the answer carries one. */
export function heldTicketOf(err: unknown): HeldTicket | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null
  for (const text of [err.code, err.message]) {
    if (!text?.trim().startsWith('{')) continue
    try {
      const parsed = JSON.parse(text) as HeldTicket
      if (parsed && typeof parsed === 'object') return parsed
    } catch {
      // not the JSON text
    }
  }
  const details = err.details as { ticket?: HeldTicket }
  return details?.ticket && typeof details.ticket === 'object' ? details.ticket : null
}

function useContactSearch(text: string) {
  const term = useDebounced(text.trim(), CONTACT_SEARCH_DEBOUNCE)
  const [state, setState] = useState<{ term: string; hits: ContactHit[]; loading: boolean; error: unknown }>({
    term: '',
    hits: [],
    loading: false,
    error: null,
  })
  useEffect(() => {
    if (term.length < CONTACT_SEARCH_MIN) {
      setState({ term, hits: [], loading: false, error: null })
      return
    }
    const ctrl = new AbortController()
    setState((s) => ({ ...s, term, loading: true, error: null }))
    api
      .get<ContactsPage | ContactDto[]>('/contacts', {
        query: { searchParam: term, pageNumber: 1 },
        signal: ctrl.signal,
      })
      .then((res) => {
        const hits = Array.isArray(res) ? res : (res?.contacts ?? [])
        setState({ term, hits, loading: false, error: null })
      })
      .catch((error) => {
        if (!ctrl.signal.aborted) setState({ term, hits: [], loading: false, error })
      })
    return () => ctrl.abort()
  }, [term])
  const typing = text.trim() !== term
  return { ...state, loading: state.loading || (typing && text.trim().length >= CONTACT_SEARCH_MIN) }
}

function ContactPicker({
  value,
  onChange,
  invalid,
}: {
  value: ContactHit | null
  onChange: (c: ContactHit | null) => void
  invalid: boolean
}) {
  const { t } = useTranslation()
  const field = useFieldControl()
  const [text, setText] = useState('')
  const search = useContactSearch(text)
  const short = text.trim().length < CONTACT_SEARCH_MIN
  return (
    <Combobox value={value} onChange={onChange} by="id" onClose={() => setText('')}>
      <div className="relative">
        <Search
          className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-subtle"
          aria-hidden
        />
        <ComboboxInput
          id={field?.id}
          aria-describedby={field?.describedBy}
          aria-invalid={invalid || undefined}
          autoFocus
          displayValue={(c: ContactHit | null) => (c ? `${c.name}${c.number ? ` · ${c.number}` : ''}` : '')}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('newTicket.contactPlaceholder')}
          className={cn(controlClass, controlBorder(invalid), 'h-10 pr-9 pl-9 max-sm:h-11')}
        />
        {search.loading && (
          <span className="-translate-y-1/2 absolute top-1/2 right-3 text-muted">
            <Spinner />
          </span>
        )}
      </div>
      <ComboboxOptions
        anchor="bottom start"
        transition
        className="z-[60] max-h-72 w-(--input-width) overflow-auto rounded-lg border border-border bg-surface p-1 shadow-pop [--anchor-gap:4px] empty:invisible focus:outline-none transition duration-150 ease-out data-closed:opacity-0"
      >
        {short ? (
          <div className="px-2.5 py-2 text-muted text-sm">
            {t('newTicket.typeMore', { count: CONTACT_SEARCH_MIN })}
          </div>
        ) : search.error ? (
          <div className="px-2.5 py-2 text-danger text-sm">{errorMessage(search.error)}</div>
        ) : !search.loading && search.hits.length === 0 ? (
          <div className="px-2.5 py-2 text-muted text-sm">
            {t('newTicket.noContacts', { term: text.trim() })}
          </div>
        ) : (
          search.hits.map((c) => (
            <ComboboxOption
              key={c.id}
              value={c}
              className="flex cursor-pointer select-none items-center gap-2.5 rounded-md px-2.5 py-2 text-fg text-sm data-focus:bg-surface-2 max-sm:min-h-11"
            >
              <Avatar name={c.name || c.number} src={c.profilePicUrl || null} size={28} />
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">{c.name}</span>
                {c.number && <span className="block truncate text-muted text-xs tnum">{c.number}</span>}
              </span>
            </ComboboxOption>
          ))
        )}
      </ComboboxOptions>
    </Combobox>
  )
}

export type NewTicketDialogProps = {
  open: boolean
  onClose: () => void
  /** The new ticket, or the user's own ticket for the contact: the page opens it. */
  onOpenTicket: (ticket: { uuid?: string; id?: number }) => void
  /** Start with this contact (the contacts page's "start ticket"). */
  initialContact?: ContactHit | null
}

/**
 * The new-ticket dialog (spec 1, sections 2, 4 and 5): a contact (searched from 3 characters), a queue
 * (required unless the user is an admin: 'Selecione uma fila') and a connection. The server may answer that
 * another user holds the contact's open ticket: the dialog then says who and in which queue; when that ticket
 * is the user's own, it simply opens.
 */
export function NewTicketDialog({
  open,
  onClose,
  onOpenTicket,
  initialContact = null,
}: NewTicketDialogProps) {
  useSignals()
  const { t } = useTranslation()
  const user = currentUser.value
  const admin = isAdmin(user)
  const [contact, setContact] = useState<ContactHit | null>(initialContact)
  const [queueId, setQueueId] = useState<number | null>(null)
  const [whatsappId, setWhatsappId] = useState<number | null>(null)
  const [submitted, setSubmitted] = useState(false)
  const [saving, setSaving] = useState(false)
  const [held, setHeld] = useState<HeldTicket | null>(null)

  const companyQueues = useLiveList(queuesList, undefined, { enabled: open && admin })
  const connections = useLiveList(connectionsList, undefined, { enabled: open })

  const queueList = admin ? companyQueues.items : (user?.queues ?? [])
  const queueOptions: Option<number>[] = [
    ...(admin ? [{ value: NO_QUEUE, label: t('newTicket.noQueue') }] : []),
    ...queueList.map((q) => ({ value: q.id, label: q.name, color: q.color })),
  ]
  const connectionOptions: Option<number>[] = connections.items.map((c) => ({
    value: c.id,
    label: c.name,
    hint: c.status,
  }))
  const userWhatsappId = user?.whatsappId ?? null

  // Reset on open; an attendant with exactly one queue has it chosen already.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only when the dialog opens
  useEffect(() => {
    if (!open) return
    setContact(initialContact)
    setSubmitted(false)
    setHeld(null)
    const mine = user?.queues ?? []
    setQueueId(!admin && mine.length === 1 ? (mine[0]?.id ?? null) : null)
    setWhatsappId(null)
  }, [open])

  // The connection: the user's default one, else the company's default, else the first.
  useEffect(() => {
    if (!open || whatsappId != null || connections.items.length === 0) return
    const items = connections.items
    const pick =
      items.find((c) => c.id === userWhatsappId) ?? items.find((c) => c.isDefault) ?? items[0] ?? null
    if (pick) setWhatsappId(pick.id)
  }, [open, whatsappId, connections.items, userWhatsappId])

  const errors = {
    contact: contact ? null : t('newTicket.contactRequired'),
    queue: queueId == null && !admin ? t('newTicket.queueRequired') : null,
    whatsapp: whatsappId == null ? t('newTicket.connectionRequired') : null,
  }
  const shownErrors = submitted ? errors : { contact: null, queue: null, whatsapp: null }

  const submit = async () => {
    if (saving) return
    setSubmitted(true)
    setHeld(null)
    if (errors.contact || errors.queue || errors.whatsapp || !contact || !user) return
    setSaving(true)
    try {
      const ticket = await api.post<TicketDto>('/tickets', {
        contactId: contact.id,
        queueId: queueId == null || queueId === NO_QUEUE ? null : queueId,
        whatsappId,
        userId: user.id,
        status: 'open',
      })
      onClose()
      onOpenTicket(ticket)
    } catch (err) {
      const other = heldTicketOf(err)
      if (other && other.userId === user.id && (other.uuid || other.id)) {
        onClose()
        onOpenTicket(other)
      } else if (other) setHeld(other)
      else toastError(err)
    } finally {
      setSaving(false)
    }
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      onSubmit={submit}
      size="sm"
      title={t('newTicket.title')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {t('newTicket.submit')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <Field
          label={t('newTicket.contact')}
          error={shownErrors.contact}
          required
          hint={t('newTicket.contactHint')}
        >
          <ContactPicker
            value={contact}
            onChange={(c) => {
              setContact(c)
              setHeld(null)
            }}
            invalid={!!shownErrors.contact}
          />
        </Field>
        <Field label={t('newTicket.queue')} error={shownErrors.queue} required={!admin}>
          <Select
            value={queueId}
            onChange={(v) => {
              setQueueId(v)
              setHeld(null)
            }}
            options={queueOptions}
            placeholder={admin ? t('newTicket.noQueue') : t('newTicket.queueRequired')}
            disabled={queueOptions.length === 0}
          />
        </Field>
        {!admin && queueOptions.length === 0 && (
          <p className="-mt-2 text-muted text-xs">{t('newTicket.noQueuesOfYours')}</p>
        )}
        <Field label={t('newTicket.connection')} error={shownErrors.whatsapp} required>
          <Select
            value={whatsappId}
            onChange={setWhatsappId}
            options={connectionOptions}
            placeholder={connections.loading ? t('common.loading') : t('newTicket.noConnections')}
            disabled={connectionOptions.length === 0}
          />
        </Field>
        {held && (
          <div
            role="alert"
            className="flex gap-2.5 rounded-lg border border-transparent bg-warning-soft px-3 py-2.5 text-on-warning-soft text-sm"
          >
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
            <p>
              {t('newTicket.heldByOther', {
                user: held.user?.name || t('newTicket.someone'),
                queue: held.queue?.name || t('ticketList.noQueue'),
              })}
            </p>
          </div>
        )}
      </div>
    </Dialog>
  )
}
