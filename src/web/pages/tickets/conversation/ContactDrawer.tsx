import { useSignals } from '@preact/signals-react/runtime'
import { CalendarPlus, Download, Mail, Pencil, Phone, ShieldCheck, Trash2, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ContactDto, TicketDto } from '../../../../shared/api'
import { liveChannel } from '../../../../shared/live'
import { isAdmin } from '../../../../shared/permissions'
import { planAllows } from '../../../../shared/plans'
import { bodyPreview } from '../../../../shared/scheduled-messages'
import { formatInZone } from '../../../../shared/timezone'
import { api } from '../../../api/client'
import { errorMessage, toastError } from '../../../api/errors'
import { subscribe } from '../../../api/live'
import { Button } from '../../../components/ui/Button'
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog'
import { Skeleton } from '../../../components/ui/Skeleton'
import { cn } from '../../../lib/cn'
import { useLiveList } from '../../../state/liveList'
import { currentUser } from '../../../state/session'
import { companyZone } from '../../../state/settings'
import { toast } from '../../../state/toast'
import { downloadFile } from '../../contact-lists/lists'
import { ContactAvatar } from '../../contacts/ContactAvatar'
import { ContactDialog } from '../../contacts/ContactDialog'
import { ScheduleDialog } from '../../schedules/ScheduleDialog'
import { StatusBadge } from '../../schedules/SchedulesPage'
import { schedulesList } from '../../schedules/schedulesList'

/** A number as a phone link: digits (and a leading +) only. */
export function telHref(number: string): string | null {
  if (!number || number.includes('*')) return null
  const digits = number.replace(/[^\d+]/g, '')
  return digits ? `tel:${digits.startsWith('+') ? digits : `+${digits}`}` : null
}

const sectionTitle = 'font-semibold text-[12px] text-subtle uppercase tracking-wider'

/**
 * The contact's appointments (scheduled messages, live), each opening its dialog, and 'Agendar mensagem': a new
 * one for this contact through the ticket's connection, without leaving the conversation.
 */
function Appointments({
  ticket,
  contactName,
  enabled,
  readOnly,
}: {
  ticket: TicketDto
  contactName: string
  enabled: boolean
  readOnly?: boolean
}) {
  const { t } = useTranslation()
  const list = useLiveList(schedulesList, { search: '', contactId: ticket.contactId }, { enabled })
  const [dialog, setDialog] = useState<{ id?: number } | null>(null)
  const zone = companyZone()
  return (
    <section className="border-border border-b px-5 py-4" data-testid="appointments">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className={sectionTitle}>{t('conversation.appointments')}</h3>
        {!readOnly && (
          <Button
            variant="ghost"
            size="sm"
            icon={<CalendarPlus className="size-4" />}
            onClick={() => setDialog({})}
            className="-mr-2"
          >
            {t('conversation.scheduleMessage')}
          </Button>
        )}
      </div>
      {list.error && list.items.length === 0 ? (
        <p className="text-danger text-sm" role="alert">
          {errorMessage(list.error)}
        </p>
      ) : list.loading && list.items.length === 0 ? (
        <div className="space-y-2" aria-busy>
          <Skeleton className="h-10 w-full" />
        </div>
      ) : list.items.length === 0 ? (
        <p className="text-muted text-sm">{t('conversation.appointmentsEmpty')}</p>
      ) : (
        <ul className="-mx-2 flex flex-col">
          {list.items.map((s) => {
            const content = (
              <>
                <span className="flex items-center justify-between gap-2">
                  {/* To the minute: the seconds of the schedules table would push the status to a new line. */}
                  <span className="whitespace-nowrap text-[13px] text-fg tnum">
                    {formatInZone(Date.parse(s.sendAt), zone).slice(0, -3)}
                  </span>
                  <StatusBadge s={s} />
                </span>
                <span className="mt-0.5 block truncate text-muted text-sm" title={s.body}>
                  {bodyPreview(s.body)}
                </span>
              </>
            )
            return (
              <li key={s.id}>
                {readOnly ? (
                  <div className="px-2 py-2">{content}</div>
                ) : (
                  <button
                    type="button"
                    onClick={() => setDialog({ id: s.id })}
                    className="block w-full rounded-lg px-2 py-2 text-left hover:bg-surface-2 max-sm:min-h-11"
                  >
                    {content}
                  </button>
                )}
              </li>
            )
          })}
        </ul>
      )}
      {list.hasMore && (
        <Button variant="ghost" size="sm" className="mt-1" loading={list.loadingMore} onClick={list.loadMore}>
          {t('conversation.appointmentsMore')}
        </Button>
      )}
      {dialog && (
        <ScheduleDialog
          open
          scheduleId={dialog.id}
          initialContact={{ id: ticket.contactId, name: contactName }}
          initialWhatsappId={ticket.whatsappId ?? null}
          timeZone={zone}
          now={Date.now()}
          onClose={() => setDialog(null)}
          onSaved={(s) => list.upsert(s)}
        />
      )}
    </section>
  )
}

/**
 * LGPD, for admins: the contact's consent answer, the export of everything about them (one JSON file) and the
 * erasure (with the spec's delete confirmation). The server answers both only to admins.
 */
export function PrivacySection({ contact }: { contact: ContactDto }) {
  const { t, i18n } = useTranslation()
  const [erasing, setErasing] = useState(false)
  const when = (iso: string | null) =>
    iso ? new Date(iso).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' }) : ''
  const status =
    contact.lgpdConsent === 'accepted'
      ? t('contacts.privacy.accepted', { date: when(contact.lgpdConsentAt) })
      : contact.lgpdConsent === 'refused'
        ? t('contacts.privacy.refused', { date: when(contact.lgpdConsentAt) })
        : t('contacts.privacy.none')

  const exportData = () =>
    downloadFile(`/contacts/${contact.id}/personal-data`, `dados-pessoais-contato-${contact.id}.json`).catch(
      () => toast.error(t('contacts.privacy.exportFailed')),
    )
  const erase = async () => {
    try {
      const done = await api.delete<{ messages: number }>(`/contacts/${contact.id}/personal-data`)
      toast.success(t('contacts.privacy.erased', { count: done.messages }))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  return (
    <section className="border-border border-t px-5 py-4" data-testid="contact-privacy">
      <h3 className={cn(sectionTitle, 'mb-2')}>{t('contacts.privacy.title')}</h3>
      <p className="mb-3 inline-flex items-center gap-1.5 text-muted text-sm">
        <ShieldCheck className="size-4 shrink-0" aria-hidden />
        {status}
      </p>
      <div className="flex flex-col gap-2">
        <Button variant="secondary" size="sm" icon={<Download className="size-4" />} onClick={exportData}>
          {t('contacts.privacy.export')}
        </Button>
        <Button
          variant="danger"
          size="sm"
          icon={<Trash2 className="size-4" />}
          onClick={() => setErasing(true)}
        >
          {t('contacts.privacy.erase')}
        </Button>
      </div>
      <ConfirmDialog
        open={erasing}
        onClose={() => setErasing(false)}
        onConfirm={erase}
        title={t('contacts.privacy.eraseTitle')}
        message={t('contacts.privacy.eraseText')}
        confirmLabel={t('contacts.privacy.eraseConfirm')}
      />
    </section>
  )
}

/**
 * The contact drawer: slides over the conversation from the right. Name, number as a phone link, e-mail as a
 * mail link, the edit button, the contact's appointments (plan with schedules) and the extra-info list; live
 * by `company-{id}-contact` and `company-{id}-schedule`.
 */
export function ContactDrawer({
  ticket,
  open,
  onClose,
  readOnly,
}: {
  ticket: TicketDto
  open: boolean
  onClose: () => void
  readOnly?: boolean
}) {
  useSignals()
  const { t } = useTranslation()
  const schedulesOn = planAllows(currentUser.value?.company?.plan, 'useSchedules')
  const [contact, setContact] = useState<ContactDto | null>(null)
  const [error, setError] = useState<unknown>(null)
  const [editing, setEditing] = useState(false)
  const id = ticket.contactId

  useEffect(() => {
    if (!open) return
    const ctrl = new AbortController()
    setError(null)
    api
      .get<ContactDto>(`/contacts/${id}`, { signal: ctrl.signal })
      .then(setContact)
      .catch((err) => {
        if ((err as Error)?.name !== 'AbortError') setError(err)
      })
    const company = currentUser.peek()?.companyId
    const off =
      company == null
        ? () => {}
        : subscribe(liveChannel(company, 'contact'), (data) => {
            if (data?.action === 'update' && data.contact?.id === id) setContact(data.contact)
          })
    return () => {
      ctrl.abort()
      off()
    }
  }, [open, id])

  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !editing) onClose()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open, editing, onClose])

  const shown = contact ?? {
    ...ticket.contact,
    extraInfo: [],
    disableBot: false,
  }
  const admin = isAdmin(currentUser.value)
  const tel = telHref(shown.number)

  return (
    <aside
      aria-label={t('conversation.contactInfo')}
      aria-hidden={!open}
      inert={!open || undefined}
      className={cn(
        'absolute inset-y-0 right-0 z-20 flex w-full flex-col border-border border-l bg-surface sm:w-80',
        'transition-[transform,visibility] duration-200 ease-out motion-reduce:transition-none',
        open ? 'translate-x-0 shadow-pop' : 'pointer-events-none invisible translate-x-full',
      )}
      data-testid="contact-drawer"
    >
      <div className="flex h-16 shrink-0 items-center gap-2 border-border border-b px-3">
        <button
          type="button"
          onClick={onClose}
          aria-label={t('common.close')}
          title={t('common.close')}
          className="flex size-9 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg max-sm:size-11"
        >
          <X className="size-5" aria-hidden />
        </button>
        <h2 className="font-semibold text-[15px] text-fg">{t('conversation.contactInfo')}</h2>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        <div className="flex flex-col items-center gap-2 border-border border-b px-5 py-6 text-center">
          <ContactAvatar name={shown.name} url={shown.profilePicUrl} isGroup={ticket.isGroup} size={96} />
          <div className="mt-1 font-semibold text-[17px] text-fg">{shown.name}</div>
          {shown.number &&
            (tel ? (
              <a
                href={tel}
                className="inline-flex items-center gap-1.5 text-link text-sm tnum hover:underline"
              >
                <Phone className="size-3.5" aria-hidden />
                {shown.number}
              </a>
            ) : (
              <span className="inline-flex items-center gap-1.5 text-muted text-sm tnum">
                <Phone className="size-3.5" aria-hidden />
                {shown.number}
              </span>
            ))}
          {shown.email && (
            <a
              href={`mailto:${shown.email}`}
              className="inline-flex max-w-full items-center gap-1.5 truncate text-link text-sm hover:underline"
            >
              <Mail className="size-3.5 shrink-0" aria-hidden />
              <span className="truncate">{shown.email}</span>
            </a>
          )}
          {!readOnly && (
            <Button
              variant="secondary"
              size="sm"
              icon={<Pencil className="size-4" />}
              className="mt-2"
              onClick={() => setEditing(true)}
              disabled={!contact}
            >
              {t('conversation.editContact')}
            </Button>
          )}
        </div>
        {schedulesOn && (
          <Appointments ticket={ticket} contactName={shown.name} enabled={open} readOnly={readOnly} />
        )}
        <section className="px-5 py-4">
          <h3 className={cn(sectionTitle, 'mb-2')}>{t('contacts.extraInfo')}</h3>
          {error ? (
            <p className="text-danger text-sm" role="alert">
              {errorMessage(error)}
            </p>
          ) : !contact ? (
            <div className="space-y-2" aria-busy>
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-4 w-48" />
            </div>
          ) : contact.extraInfo.length === 0 ? (
            <p className="text-muted text-sm">{t('contacts.extraInfoEmpty')}</p>
          ) : (
            <dl className="flex flex-col gap-3">
              {contact.extraInfo.map((x) => (
                <div key={x.id} className="min-w-0">
                  <dt className="text-[12px] text-muted">{x.name}</dt>
                  <dd className="break-words text-fg text-sm">{x.value}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
        {admin && !readOnly && contact && !ticket.isGroup && <PrivacySection contact={contact} />}
      </div>
      {editing && (
        <ContactDialog open contactId={id} onClose={() => setEditing(false)} onSaved={(c) => setContact(c)} />
      )}
    </aside>
  )
}
