import { Columns3, Plus, Search, SquareKanban } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import type { TagDto } from '../../../shared/api'
import { errorMessage } from '../../api/errors'
import { Page } from '../../components/layout/Page'
import { Button } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import { SearchInput } from '../../components/ui/Field'
import { Skeleton } from '../../components/ui/Skeleton'
import { useTagsScreen } from '../tags/useTagsScreen'
import { KanbanGate } from './KanbanGate'

function LaneCard({ lane, actions }: { lane: TagDto; actions: ReactNode }) {
  const { t } = useTranslation()
  return (
    <li className="flex min-w-0 flex-col overflow-hidden rounded-card border border-border bg-surface">
      <span aria-hidden className="h-1.5 w-full" style={{ background: lane.color }} />
      <div className="flex items-start gap-2 p-4 pt-3">
        <div className="min-w-0 flex-1">
          <h2 className="flex items-center gap-2 font-semibold text-fg text-sm">
            <span
              aria-hidden
              className="size-2.5 shrink-0 rounded-full ring-1 ring-black/10 dark:ring-white/15"
              style={{ background: lane.color }}
            />
            <span className="truncate">{lane.name}</span>
          </h2>
          <p className="mt-1 text-muted text-xs tnum">
            {lane.ticketsCount != null ? t('tags.ticketsCount', { count: lane.ticketsCount }) : '—'}
          </p>
        </div>
        {actions}
      </div>
    </li>
  )
}

/**
 * The Kanban lanes screen (spec 2, /tagsKanban): the company's tags with kanban 1 as cards, search, add, edit and
 * delete through the tags' own dialog (a new one starts as a lane); live by `company-{id}-tag`.
 */
export function LanesPage() {
  return (
    <KanbanGate>
      <Lanes />
    </KanbanGate>
  )
}

function Lanes() {
  const { t } = useTranslation()
  const { search, setSearch, term, list, add, mayAdd, actions, dialogs } = useTagsScreen(true)

  // Lanes lay out everyone's board: only admins add, rename or delete them.
  const addButton = mayAdd && (
    <Button icon={<Plus className="size-4" />} onClick={add}>
      {t('kanban.addLane')}
    </Button>
  )

  let body: ReactNode
  if (list.loading)
    body = (
      <ul aria-busy className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <li key={i} className="rounded-card border border-border bg-surface p-4">
            <Skeleton className="h-4 w-2/3" />
            <Skeleton className="mt-3 h-3 w-1/3" />
          </li>
        ))}
      </ul>
    )
  else if (list.error && list.items.length === 0)
    body = (
      <EmptyState
        title={errorMessage(list.error)}
        action={
          <Button variant="secondary" onClick={list.reload}>
            {t('kanban.retry')}
          </Button>
        }
      />
    )
  else if (list.items.length === 0)
    body = term ? (
      <EmptyState icon={<Search />} title={t('kanban.lanesEmptySearchTitle')}>
        {t('kanban.lanesEmptySearch', { term })}
      </EmptyState>
    ) : (
      <EmptyState icon={<Columns3 />} title={t('kanban.lanesEmptyTitle')} action={addButton}>
        {t('kanban.lanesEmptyText')}
      </EmptyState>
    )
  else
    body = (
      <>
        <ul aria-label={t('kanban.lanesTitle')} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {list.items.map((lane) => (
            <LaneCard
              key={lane.id}
              lane={lane}
              actions={actions(lane, '-mr-1 -mt-1 flex shrink-0 gap-0.5')}
            />
          ))}
        </ul>
        {list.hasMore && (
          <div className="flex justify-center">
            <Button variant="secondary" loading={list.loadingMore} onClick={list.loadMore}>
              {t('kanban.loadMore')}
            </Button>
          </div>
        )}
      </>
    )

  return (
    <Page
      title={t('kanban.lanesTitle')}
      subtitle={list.count != null ? t('kanban.lanesCount', { count: list.count }) : undefined}
      actions={
        <>
          <Link
            to="/kanban"
            className="inline-flex h-9 items-center gap-2 rounded-lg px-3 font-medium text-fg text-sm hover:bg-surface-2 max-sm:h-11"
          >
            <SquareKanban className="size-4" aria-hidden />
            {t('kanban.openBoard')}
          </Link>
          {addButton}
        </>
      }
    >
      <SearchInput
        wrapperClassName="max-w-sm"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        placeholder={t('kanban.searchLanes')}
        aria-label={t('kanban.searchLanes')}
      />
      {body}
      {dialogs}
    </Page>
  )
}
