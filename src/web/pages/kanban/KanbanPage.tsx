import { useSignals } from '@preact/signals-react/runtime'
import { Columns3, Settings2 } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import type { TicketDto } from '../../../shared/api'
import { can } from '../../../shared/permissions'
import { errorMessage } from '../../api/errors'
import { Page } from '../../components/layout/Page'
import { Button } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import type { LiveListView } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { initialShowAll } from '../../state/tickets'
import { BoardSkeleton } from './BoardSkeleton'
import { KanbanGate } from './KanbanGate'
import { LaneBoard } from './LaneBoard'
import { useBoard } from './useBoard'

/**
 * The Kanban board (spec 2, /kanban): 'Em aberto' for tickets without a lane tag, then one lane per Kanban tag
 * in its colour; cards with the contact's name and number (masked as the server sends it), the last message and
 * a button to the ticket. A card moves by dragging (mouse, touch with a long press, keyboard with its handle) or
 * through its "move to" menu; the server replaces the lane tag (PUT /ticket/kanban/{id}) and the board shows the
 * spec's two toasts. Tickets and lanes are live (board.ts).
 */
export function KanbanPage() {
  return (
    <KanbanGate>
      <Board />
    </KanbanGate>
  )
}

function Board() {
  useSignals()
  const { t } = useTranslation()
  const user = currentUser.value
  const [showAll, setShowAll] = useState(() => initialShowAll(user))
  const { lanes, tickets, columns, byLane, laneIds, move } = useBoard(user, showAll)

  const loading = lanes.loading || tickets.loading
  const failed = (lanes.error && lanes.items.length === 0) || (tickets.error && tickets.items.length === 0)

  return (
    <Page
      className="max-w-none"
      title={t('kanban.title')}
      subtitle={t('kanban.subtitle')}
      actions={
        <>
          {can(user, 'tickets-manager:showall') && (
            <label
              className="flex cursor-pointer items-center gap-2 text-fg text-sm"
              title={t('kanban.showAllHint')}
            >
              <input
                type="checkbox"
                className="size-4 accent-primary"
                checked={showAll}
                onChange={(e) => setShowAll(e.target.checked)}
              />
              {t('kanban.showAll')}
            </label>
          )}
          <Link
            to="/tagsKanban"
            className="inline-flex h-9 items-center gap-2 rounded-lg border border-border-strong bg-surface px-3 font-medium text-fg text-sm hover:bg-surface-2 max-sm:h-11"
          >
            <Settings2 className="size-4" aria-hidden />
            {t('kanban.manageLanes')}
          </Link>
        </>
      }
    >
      {failed ? (
        <EmptyState
          className="flex-1 justify-center"
          title={t('kanban.loadError')}
          action={
            <Button
              variant="secondary"
              onClick={() => {
                lanes.reload()
                tickets.reload()
              }}
            >
              {t('kanban.retry')}
            </Button>
          }
        >
          {errorMessage(lanes.error ?? tickets.error)}
        </EmptyState>
      ) : loading ? (
        <BoardSkeleton />
      ) : (
        <>
          {lanes.items.length === 0 && (
            <div className="flex flex-wrap items-center gap-3 rounded-card border border-border border-dashed bg-surface px-4 py-3 text-sm">
              <Columns3 className="size-5 shrink-0 text-muted" aria-hidden />
              <div className="min-w-0 flex-1">
                <p className="font-medium text-fg">{t('kanban.noLanesTitle')}</p>
                <p className="text-muted">{t('kanban.noLanesText')}</p>
              </div>
              <Link to="/tagsKanban" className="font-medium text-link text-sm hover:underline">
                {t('kanban.manageLanes')}
              </Link>
            </div>
          )}
          <LaneBoard
            columns={columns}
            byLane={byLane}
            laneIds={laneIds}
            tickets={tickets.items}
            onMove={(ticket, laneId) => void move(ticket, laneId)}
          />
          {tickets.hasMore && <MoreTickets list={tickets} />}
        </>
      )}
    </Page>
  )
}

function MoreTickets({ list }: { list: LiveListView<TicketDto> }) {
  const { t } = useTranslation()
  return (
    <div className="flex justify-center">
      <Button variant="secondary" loading={list.loadingMore} onClick={list.loadMore}>
        {t('kanban.loadMore')}
      </Button>
    </div>
  )
}
