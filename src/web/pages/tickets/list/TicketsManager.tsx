import { Switch as HSwitch } from '@headlessui/react'
import { useSignals } from '@preact/signals-react/runtime'
import { CheckCheck, Hourglass, Inbox, MessageSquarePlus, Search, SearchX, UsersRound, X } from 'lucide-react'
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { QueueRef, TicketDto } from '../../../../shared/api'
import { can, isAdmin } from '../../../../shared/permissions'
import { toastError } from '../../../api/errors'
import { Button } from '../../../components/ui/Button'
import { EmptyState } from '../../../components/ui/EmptyState'
import { cn } from '../../../lib/cn'
import { useDebounced } from '../../../lib/useDebounced'
import { useLiveList } from '../../../state/liveList'
import { queuesList } from '../../../state/queues'
import { currentUser } from '../../../state/session'
import {
  acceptTicket,
  closePendingTicket,
  initialShowAll,
  readHiddenQueues,
  selectedQueueIds,
  ticketListParams,
  ticketsList,
  useTicketCounts,
  writeHiddenQueues,
} from '../../../state/tickets'
import { SpyDialog } from '../conversation/SpyDialog'
import { DesktopOffer } from './DesktopOffer'
import { QueueFilter } from './QueueFilter'
import { TicketList } from './TicketList'

export type ManagerTab = 'open' | 'closed' | 'groups' | 'search'
export type ManagerSubTab = 'assigned' | 'pending'

/** Spec: search debounce 500 ms. */
export const SEARCH_DEBOUNCE = 500

/** A clock for the rows' times and waiting labels: ticks every 30 s. */
export function useNow(every = 30_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), every)
    return () => clearInterval(id)
  }, [every])
  return now
}

function CountBadge({ count, active }: { count: number | null; active: boolean }) {
  if (count == null) return null
  return (
    <span
      className={cn(
        'inline-flex h-5 min-w-5 items-center justify-center rounded-full px-1.5 font-semibold text-[11px] tnum',
        active ? 'bg-primary text-on-primary' : 'bg-surface-3 text-muted',
      )}
    >
      {count > 999 ? '999+' : count}
    </span>
  )
}

function TabButton({
  active,
  onClick,
  children,
  controls,
}: {
  active: boolean
  onClick: () => void
  children: ReactNode
  controls?: string
}) {
  return (
    <button
      type="button"
      role="tab"
      aria-selected={active}
      aria-controls={controls}
      onClick={onClick}
      className={cn(
        'inline-flex min-w-0 flex-1 items-center justify-center gap-1.5 border-b-2 px-1.5 py-2.5 font-medium text-[13px] max-sm:min-h-11',
        'transition-colors duration-150 focus-visible:-outline-offset-2',
        active ? 'border-brand text-fg' : 'border-transparent text-muted hover:text-fg',
      )}
    >
      {children}
    </button>
  )
}

function ShowAllSwitch({ checked, onChange }: { checked: boolean; onChange: (v: boolean) => void }) {
  const { t } = useTranslation()
  const id = useId()
  return (
    <div className="flex shrink-0 items-center gap-2">
      <span aria-hidden className="text-[13px] text-muted">
        {t('ticketList.showAll')}
      </span>
      <span id={id} className="sr-only">
        {t('ticketList.showAllHint')}
      </span>
      <HSwitch
        checked={checked}
        onChange={onChange}
        aria-label={t('ticketList.showAll')}
        aria-describedby={id}
        title={t('ticketList.showAllHint')}
        className={cn(
          'group relative inline-flex h-5 w-9 shrink-0 cursor-pointer rounded-full border-2 border-transparent transition-colors duration-150',
          'bg-surface-3 data-checked:bg-primary focus:outline-none data-focus:outline-2 data-focus:outline-offset-2 data-focus:outline-focus',
        )}
      >
        <span
          aria-hidden
          className="pointer-events-none inline-block size-4 translate-x-0 rounded-full bg-white shadow-sm ring-1 ring-black/10 transition-transform duration-150 group-data-checked:translate-x-4 dark:group-data-checked:bg-[#14171a]"
        />
      </HSwitch>
    </div>
  )
}

export type TicketsManagerProps = {
  /** The ticket open on the right (id or uuid from the route). */
  selected: string | null
  onOpen: (ticket: TicketDto) => void
  /** After accepting, the accepted ticket opens. */
  onAccepted: (ticket: TicketDto) => void
  onNewTicket: () => void
}

/**
 * The ticket manager (spec 1, section 2): tabs open / closed / groups / search, the open and groups tabs with
 * their 'Atendendo' and 'Aguardando' sub-tabs and count badges, a search box, the new-ticket button, the
 * show-all switch and the queue multi-select; the lists are live (state/tickets.ts).
 */
export function TicketsManager({ selected, onOpen, onAccepted, onNewTicket }: TicketsManagerProps) {
  useSignals()
  const { t } = useTranslation()
  const user = currentUser.value
  const admin = isAdmin(user)
  const userId = user?.id ?? 0
  const now = useNow()
  const panelId = useId()

  const [tab, setTab] = useState<ManagerTab>('open')
  const [sub, setSub] = useState<ManagerSubTab>('assigned')
  const [searchText, setSearchText] = useState('')
  const term = useDebounced(searchText.trim(), SEARCH_DEBOUNCE)
  const searchBox = useRef<HTMLInputElement>(null)
  const [showAll, setShowAll] = useState(() => initialShowAll(user))
  const [accepting, setAccepting] = useState<number | null>(null)
  const [closing, setClosing] = useState<number | null>(null)
  const canClosePending = admin || user?.userClosePendingTicket === 'enabled'
  const [spying, setSpying] = useState<TicketDto | null>(null)

  // The queues to choose from: an admin sees every queue of the company, an attendant their own.
  const companyQueues = useLiveList(queuesList, undefined, { enabled: admin })
  const queueOptions: QueueRef[] = admin
    ? companyQueues.items.map((q) => ({ id: q.id, name: q.name, color: q.color }))
    : (user?.queues ?? [])
  const [hidden, setHidden] = useState<number[]>(() => readHiddenQueues(userId))
  const optionIds = queueOptions.map((q) => q.id)
  const queueIds = selectedQueueIds(optionIds, hidden)
  const queuesReady = !admin || !companyQueues.loading
  const chooseQueues = (ids: number[]) => {
    const next = optionIds.filter((id) => !ids.includes(id))
    setHidden(next)
    writeHiddenQueues(userId, next)
  }

  const groupsTab = tab === 'groups'
  const subLists = tab === 'open' || groupsTab
  const base = { showAll, queueIds }
  const assigned = useLiveList(ticketsList, ticketListParams({ kind: 'open', groups: groupsTab, ...base }), {
    enabled: subLists && queuesReady,
  })
  const pending = useLiveList(
    ticketsList,
    ticketListParams({ kind: 'pending', groups: groupsTab, ...base }),
    { enabled: subLists && queuesReady },
  )
  const closed = useLiveList(ticketsList, ticketListParams({ kind: 'closed', ...base }), {
    enabled: tab === 'closed' && queuesReady,
  })
  const searched = useLiveList(ticketsList, ticketListParams({ kind: 'search', search: term, ...base }), {
    enabled: tab === 'search' && queuesReady,
  })
  const shown =
    tab === 'closed' ? closed : tab === 'search' ? searched : sub === 'pending' ? pending : assigned
  const counts = useTicketCounts(user?.companyId, base, subLists && queuesReady)
  /** The badge: the server's exact counts; the list's own count until they arrive. */
  const badgeOf = (key: ManagerSubTab) => {
    if (counts) return counts[groupsTab ? 'groups' : 'open'][key]
    const l = key === 'assigned' ? assigned : pending
    return l.loading ? null : (l.count ?? l.items.length)
  }

  const chooseTab = (next: ManagerTab) => {
    setTab(next)
    if (next === 'search') requestAnimationFrame(() => searchBox.current?.focus())
    else setSearchText('')
  }

  const accept = useCallback(
    async (ticket: TicketDto) => {
      if (!userId) return
      setAccepting(ticket.id)
      try {
        const accepted = await acceptTicket(ticket, userId)
        setSub('assigned')
        onAccepted(accepted?.uuid ? accepted : { ...ticket, status: 'open', userId })
      } catch (err) {
        toastError(err)
      } finally {
        setAccepting(null)
      }
    },
    [userId, onAccepted],
  )

  // Spec: closing a pending ticket from the list stays on the list; the row leaves it at once (the live update
  // would remove it a moment later anyway).
  const removePending = pending.remove
  const closePending = useCallback(
    async (ticket: TicketDto) => {
      if (!userId) return
      setClosing(ticket.id)
      try {
        await closePendingTicket(ticket, userId)
        removePending(ticket.id)
      } catch (err) {
        toastError(err)
      } finally {
        setClosing(null)
      }
    },
    [userId, removePending],
  )

  const noQueues = queuesReady && queueOptions.length > 0 && queueIds.length === 0
  const selectAllQueues = (
    <Button variant="secondary" onClick={() => chooseQueues(optionIds)}>
      {t('ticketList.queuesSelectAll')}
    </Button>
  )
  const newTicket = (
    <Button icon={<MessageSquarePlus className="size-4" />} onClick={onNewTicket}>
      {t('ticketList.newTicket')}
    </Button>
  )

  let empty: ReactNode
  if (tab === 'search')
    empty = term ? (
      <EmptyState icon={<SearchX />} title={t('ticketList.emptySearchTitle')}>
        {t('ticketList.emptySearch', { term })}
      </EmptyState>
    ) : (
      <EmptyState icon={<Search />} title={t('ticketList.searchHintTitle')}>
        {t('ticketList.searchHint')}
      </EmptyState>
    )
  else if (noQueues)
    empty = (
      <EmptyState icon={<Inbox />} title={t('ticketList.emptyNoQueuesTitle')} action={selectAllQueues}>
        {t('ticketList.emptyNoQueues')}
      </EmptyState>
    )
  else if (tab === 'closed')
    empty = (
      <EmptyState icon={<CheckCheck />} title={t('ticketList.emptyClosedTitle')}>
        {t('ticketList.emptyClosed')}
      </EmptyState>
    )
  else if (sub === 'pending')
    empty = (
      <EmptyState icon={<Hourglass />} title={t('ticketList.emptyPendingTitle')}>
        {groupsTab ? t('ticketList.emptyGroupsPending') : t('ticketList.emptyPending')}
      </EmptyState>
    )
  else
    empty = (
      <EmptyState
        icon={groupsTab ? <UsersRound /> : <Inbox />}
        title={groupsTab ? t('ticketList.emptyGroupsTitle') : t('ticketList.emptyOpenTitle')}
        action={groupsTab ? undefined : newTicket}
      >
        {groupsTab
          ? t('ticketList.emptyGroups')
          : showAll
            ? t('ticketList.emptyOpenAll')
            : t('ticketList.emptyOpen')}
      </EmptyState>
    )

  const tabs: { key: ManagerTab; label: string }[] = [
    { key: 'open', label: t('ticketList.tabs.open') },
    { key: 'closed', label: t('ticketList.tabs.closed') },
    ...(admin || user?.allowGroup ? [{ key: 'groups' as const, label: t('ticketList.tabs.groups') }] : []),
    { key: 'search', label: t('ticketList.tabs.search') },
  ]

  return (
    <section aria-label={t('ticketList.title')} className="flex min-h-0 flex-1 flex-col bg-surface">
      <DesktopOffer />
      <div
        role="tablist"
        aria-label={t('ticketList.title')}
        className="flex shrink-0 border-border border-b px-1"
      >
        {tabs.map((x) => (
          <TabButton key={x.key} active={tab === x.key} onClick={() => chooseTab(x.key)} controls={panelId}>
            {x.label}
          </TabButton>
        ))}
      </div>
      <div className="flex shrink-0 items-center gap-2 px-3 pt-3 pb-2">
        <div className="relative min-w-0 flex-1">
          <Search
            className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-subtle"
            aria-hidden
          />
          <input
            ref={searchBox}
            type="search"
            value={searchText}
            onChange={(e) => {
              setSearchText(e.target.value)
              if (e.target.value.trim() && tab !== 'search') setTab('search')
            }}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && searchText) {
                e.preventDefault()
                setSearchText('')
              }
            }}
            placeholder={t('ticketList.searchShort')}
            aria-label={t('ticketList.searchPlaceholder')}
            title={t('ticketList.searchPlaceholder')}
            className="h-9 w-full rounded-lg border border-transparent bg-surface-2 pr-8 pl-9 text-fg text-sm placeholder:text-subtle focus:border-focus focus:outline-none focus:ring-3 focus:ring-focus/25 max-sm:h-11 [&::-webkit-search-cancel-button]:hidden"
          />
          {searchText && (
            <button
              type="button"
              onClick={() => {
                setSearchText('')
                searchBox.current?.focus()
              }}
              aria-label={t('ticketList.clearSearch')}
              title={t('ticketList.clearSearch')}
              className="-translate-y-1/2 absolute top-1/2 right-1 inline-flex size-7 items-center justify-center rounded-md text-muted hover:text-fg"
            >
              <X className="size-4" />
            </button>
          )}
        </div>
        <QueueFilter queues={queueOptions} value={queueIds} onChange={chooseQueues} />
        <Button
          icon={<MessageSquarePlus className="size-[18px]" aria-hidden />}
          onClick={onNewTicket}
          aria-label={t('ticketList.newTicket')}
          title={t('ticketList.newTicket')}
          className="w-9 px-0! max-sm:w-11"
        />
      </div>
      {subLists && (
        <div className="flex shrink-0 items-center gap-2 border-border border-b px-3 pb-2">
          <div role="tablist" aria-label={t('ticketList.subTabs')} className="flex min-w-0 flex-1 gap-1">
            {(['assigned', 'pending'] as const).map((key) => {
              const active = sub === key
              return (
                <button
                  key={key}
                  type="button"
                  role="tab"
                  aria-selected={active}
                  aria-controls={panelId}
                  onClick={() => setSub(key)}
                  className={cn(
                    'inline-flex h-8 shrink-0 items-center gap-1.5 rounded-full px-2.5 font-medium text-[13px] transition-colors duration-150 max-sm:h-10',
                    active ? 'bg-selected text-on-selected' : 'text-muted hover:bg-surface-2 hover:text-fg',
                  )}
                >
                  {t(`ticketList.sub.${key}`)}
                  <CountBadge count={badgeOf(key)} active={active} />
                </button>
              )
            })}
          </div>
          {can(user, 'tickets-manager:showall') && <ShowAllSwitch checked={showAll} onChange={setShowAll} />}
        </div>
      )}
      {!subLists && <div className="shrink-0 border-border border-b" />}
      <div id={panelId} role="tabpanel" className="flex min-h-0 flex-1 flex-col">
        {queuesReady ? (
          <TicketList
            key={`${tab}-${sub}`}
            label={tab === 'search' ? t('ticketList.tabs.search') : t('ticketList.title')}
            list={shown}
            selected={selected}
            now={now}
            empty={empty}
            onOpen={onOpen}
            onAccept={accept}
            accepting={accepting}
            onClosePending={canClosePending ? closePending : undefined}
            closing={closing}
            onSpy={admin ? setSpying : undefined}
          />
        ) : (
          <TicketList
            label={t('ticketList.title')}
            list={{ ...shown, loading: true, items: [] }}
            selected={null}
            now={now}
            empty={null}
            onOpen={onOpen}
            onAccept={accept}
            accepting={null}
          />
        )}
      </div>
      {spying && <SpyDialog open ticketId={spying.id} onClose={() => setSpying(null)} />}
    </section>
  )
}
