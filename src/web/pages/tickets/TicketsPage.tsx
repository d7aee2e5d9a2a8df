import { MessagesSquare } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router-dom'
import type { TicketDto } from '../../../shared/api'
import { SplitView } from '../../components/layout/SplitView'
import { useIsPhone } from '../../lib/useMediaQuery'
import { openTicketRef } from '../../state/notifications'
import { Conversation } from './conversation/Conversation'
import { TicketsManager } from './list/TicketsManager'
import { NewTicketDialog } from './NewTicketDialog'

/** The right-hand pane when no ticket is open. */
function NoTicket() {
  const { t } = useTranslation()
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 bg-bg p-8 text-center">
      <div className="flex size-16 items-center justify-center rounded-2xl border border-border bg-surface text-muted">
        <MessagesSquare className="size-8" aria-hidden />
      </div>
      <h2 className="font-semibold text-[17px] text-fg">{t('ticketList.selectTitle')}</h2>
      <p className="max-w-sm text-muted text-sm leading-relaxed">{t('ticketList.selectText')}</p>
    </div>
  )
}

type PhoneTab = 'ticket' | 'list'

/**
 * The tickets screen (spec 1, section 2), route /tickets/:ticketId? (an id or a uuid): on wide screens the
 * list (4 of 12 columns) beside the conversation (8 of 12); below 600 px the spec's two tabs, 'Ticket' (the
 * conversation) and 'Atendimentos' (the list). Both panes stay mounted, so the lists stay live and keep their
 * scroll position.
 */
export function TicketsPage() {
  const { t } = useTranslation()
  const { ticketId } = useParams()
  const navigate = useNavigate()
  const phone = useIsPhone()
  const [phoneTab, setPhoneTab] = useState<PhoneTab>(ticketId ? 'ticket' : 'list')
  const [creating, setCreating] = useState(false)
  const selected = ticketId ?? null

  useEffect(() => {
    if (ticketId) setPhoneTab('ticket')
  }, [ticketId])

  // Notifications leave out the ticket the user is reading.
  useEffect(() => {
    openTicketRef.value = selected
    return () => {
      openTicketRef.value = null
    }
  }, [selected])

  const openTicket = useCallback(
    (ticket: Pick<TicketDto, 'uuid' | 'id'> | { uuid?: string; id?: number }) => {
      const ref = ticket.uuid || (ticket.id != null ? String(ticket.id) : null)
      if (!ref) return
      setPhoneTab('ticket')
      navigate(`/tickets/${ref}`)
    },
    [navigate],
  )

  const closeTicket = useCallback(() => {
    setPhoneTab('list')
    navigate('/tickets')
  }, [navigate])

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="tickets-page">
      <SplitView
        phone={phone}
        label={t('ticketList.screen')}
        tabs={[
          { key: 'ticket', label: t('ticketList.phoneTabs.ticket') },
          { key: 'list', label: t('ticketList.phoneTabs.list') },
        ]}
        tab={phoneTab}
        onTab={setPhoneTab}
        listTab="list"
        className="sm:grid-cols-[minmax(300px,4fr)_8fr] lg:grid-cols-[minmax(360px,4fr)_8fr]"
        list={
          <TicketsManager
            selected={selected}
            onOpen={openTicket}
            onAccepted={openTicket}
            onNewTicket={() => setCreating(true)}
          />
        }
        detail={
          ticketId ? <Conversation key={ticketId} ticketId={ticketId} onClosed={closeTicket} /> : <NoTicket />
        }
      />
      <NewTicketDialog open={creating} onClose={() => setCreating(false)} onOpenTicket={openTicket} />
    </div>
  )
}
