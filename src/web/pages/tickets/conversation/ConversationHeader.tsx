import { useSignals } from '@preact/signals-react/runtime'
import {
  ArrowRightLeft,
  CheckCircle2,
  ChevronDown,
  Info,
  MoreVertical,
  RotateCcw,
  Trash2,
  Undo2,
} from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TicketDto } from '../../../../shared/api'
import { can, isAdmin } from '../../../../shared/permissions'
import { api } from '../../../api/client'
import { toastError } from '../../../api/errors'
import { Button, IconButton } from '../../../components/ui/Button'
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog'
import { Menu, MenuButton, MenuDivider, MenuEntry, MenuPanel } from '../../../components/ui/Menu'
import { useIsPhone } from '../../../lib/useMediaQuery'
import { currentUser } from '../../../state/session'
import { ContactAvatar } from '../../contacts/ContactAvatar'
import { TransferDialog } from './TransferDialog'

export type TicketChange =
  | { kind: 'accept' }
  | { kind: 'return' }
  | { kind: 'resolve'; farewell: boolean }
  | { kind: 'reopen' }

/** The body of PUT /api/tickets/{id} for a status change (spec 1, section 4). */
export function ticketChangeBody(change: TicketChange, userId: number) {
  switch (change.kind) {
    case 'accept':
    case 'reopen':
      return { status: 'open' as const, userId }
    case 'return':
      return { status: 'pending' as const, userId: null }
    case 'resolve':
      return { status: 'closed' as const, userId, sendFarewellMessage: change.farewell }
  }
}

/** After these the ticket leaves the user's view (spec: back to /tickets). */
const LEAVES: ReadonlySet<TicketChange['kind']> = new Set(['return', 'resolve'])

export type ConversationHeaderProps = {
  ticket: TicketDto
  readOnly?: boolean
  onTicket: (ticket: TicketDto) => void
  /** The ticket left this user's view (returned, resolved, transferred, deleted). */
  onLeave: () => void
  onOpenContact: () => void
}

/** The conversation's header: who the customer is, and what can be done with the ticket in its status. */
export function ConversationHeader({
  ticket,
  readOnly,
  onTicket,
  onLeave,
  onOpenContact,
}: ConversationHeaderProps) {
  useSignals()
  const { t } = useTranslation()
  const me = currentUser.value
  const [busy, setBusy] = useState<TicketChange['kind'] | null>(null)
  const [transferring, setTransferring] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const canDelete = can(me, 'ticket-options:deleteTicket')
  const canClosePending = isAdmin(me) || me?.userClosePendingTicket === 'enabled'
  const { status } = ticket
  const phone = useIsPhone()

  const change = async (c: TicketChange) => {
    if (!me || busy) return
    setBusy(c.kind)
    try {
      const res = await api.put<TicketDto | undefined>(`/tickets/${ticket.id}`, ticketChangeBody(c, me.id))
      if (res && typeof res === 'object' && 'id' in res) onTicket(res)
      else if (c.kind === 'accept' || c.kind === 'reopen')
        onTicket({ ...ticket, status: 'open', userId: me.id, user: { id: me.id, name: me.name } })
      if (LEAVES.has(c.kind)) onLeave()
    } catch (err) {
      toastError(err)
    } finally {
      setBusy(null)
    }
  }

  const remove = async () => {
    try {
      await api.delete(`/tickets/${ticket.id}`)
      onLeave()
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const subtitle = [ticket.contact.number, ticket.queue?.name, ticket.user?.name].filter(Boolean).join(' · ')

  const primary =
    status === 'pending' ? (
      <Button size="sm" loading={busy === 'accept'} onClick={() => change({ kind: 'accept' })}>
        {t('conversation.actions.accept')}
      </Button>
    ) : status === 'closed' ? (
      <Button
        size="sm"
        variant="secondary"
        icon={<RotateCcw className="size-4" />}
        loading={busy === 'reopen'}
        onClick={() => change({ kind: 'reopen' })}
      >
        {t('conversation.actions.reopen')}
      </Button>
    ) : (
      <Menu>
        <MenuButton
          as={Button}
          size="sm"
          loading={busy === 'resolve'}
          icon={<CheckCircle2 className="size-4" />}
        >
          {t('conversation.actions.resolve')}
          <ChevronDown className="-mr-1 size-4 opacity-80" aria-hidden />
        </MenuButton>
        <MenuPanel>
          <MenuEntry onClick={() => change({ kind: 'resolve', farewell: true })}>
            {t('conversation.actions.resolveWithFarewell')}
          </MenuEntry>
          <MenuEntry onClick={() => change({ kind: 'resolve', farewell: false })}>
            {t('conversation.actions.resolveWithoutFarewell')}
          </MenuEntry>
        </MenuPanel>
      </Menu>
    )

  return (
    <header className="flex h-16 shrink-0 items-center gap-3 border-border border-b bg-surface px-3 sm:px-4">
      <button
        type="button"
        onClick={onOpenContact}
        className="-ml-1 flex min-w-0 flex-1 items-center gap-3 rounded-lg py-1 pr-2 pl-1 text-left hover:bg-surface-2"
        aria-label={t('conversation.contactInfo')}
        title={t('conversation.contactInfo')}
      >
        <ContactAvatar
          name={ticket.contact.name}
          url={ticket.contact.profilePicUrl}
          isGroup={ticket.isGroup}
          size={40}
        />
        <span className="min-w-0">
          <span
            className="block truncate font-semibold text-[15px] text-fg leading-tight"
            data-testid="contact-name"
          >
            {ticket.contact.name || ticket.contact.number}
          </span>
          <span className="block truncate text-[12.5px] text-muted tnum">{subtitle}</span>
        </span>
      </button>
      {!readOnly && (
        <div className="flex shrink-0 items-center gap-1">
          {!phone && status === 'open' && (
            <IconButton
              label={t('conversation.actions.return')}
              icon={<Undo2 className="size-[18px]" />}
              onClick={() => change({ kind: 'return' })}
              disabled={!!busy}
            />
          )}
          {!phone && status !== 'closed' && (
            <IconButton
              label={t('conversation.actions.transfer')}
              icon={<ArrowRightLeft className="size-[18px]" />}
              onClick={() => setTransferring(true)}
            />
          )}
          {primary}
          <Menu>
            <MenuButton
              as={IconButton}
              label={t('conversation.actions.more')}
              icon={<MoreVertical className="size-[18px]" />}
            />
            <MenuPanel>
              <MenuEntry icon={<Info />} onClick={onOpenContact}>
                {t('conversation.contactInfo')}
              </MenuEntry>
              {phone && status === 'open' && (
                <MenuEntry icon={<Undo2 />} onClick={() => change({ kind: 'return' })}>
                  {t('conversation.actions.return')}
                </MenuEntry>
              )}
              {phone && status !== 'closed' && (
                <MenuEntry icon={<ArrowRightLeft />} onClick={() => setTransferring(true)}>
                  {t('conversation.actions.transfer')}
                </MenuEntry>
              )}
              {status === 'pending' && canClosePending && (
                <MenuEntry
                  icon={<CheckCircle2 />}
                  onClick={() => change({ kind: 'resolve', farewell: false })}
                >
                  {t('conversation.actions.resolve')}
                </MenuEntry>
              )}
              {canDelete && (
                <>
                  <MenuDivider />
                  <MenuEntry icon={<Trash2 />} danger onClick={() => setDeleting(true)}>
                    {t('conversation.actions.delete')}
                  </MenuEntry>
                </>
              )}
            </MenuPanel>
          </Menu>
        </div>
      )}
      {transferring && (
        <TransferDialog
          ticket={ticket}
          open
          onClose={() => setTransferring(false)}
          onTransferred={(res) => {
            if (res) onTicket(res)
            onLeave()
          }}
        />
      )}
      <ConfirmDialog open={deleting} onClose={() => setDeleting(false)} onConfirm={remove} />
    </header>
  )
}
