import { Plus, Search } from 'lucide-react'
import type { ReactNode } from 'react'
import { errorMessage } from '../api/errors'
import type { LiveListView } from '../state/liveList'
import { Card, Page } from './layout/Page'
import { Button } from './ui/Button'
import { EmptyState } from './ui/EmptyState'
import { SearchInput } from './ui/Field'
import { DataTable, type DataTableProps } from './ui/Table'

/** A list screen's add button: its label, what it does, and the empty state's icon for it ('+' when left out). */
export type ListAdd = { label: string; onClick: () => void; icon?: ReactNode }

/** The empty list's words: what the list holds, and how to add the first one. */
export type ListEmpty = { icon: ReactNode; title: string; text: ReactNode }

/** A list with no rows yet: its words and, when the user may add, the add button. */
export function EmptyList({ empty, add }: { empty: ListEmpty; add?: ListAdd }) {
  return (
    <EmptyState
      icon={empty.icon}
      title={empty.title}
      action={
        add && (
          <Button icon={add.icon ?? <Plus className="size-4" />} onClick={add.onClick}>
            {add.label}
          </Button>
        )
      }
    >
      {empty.text}
    </EmptyState>
  )
}

export type LiveTableProps<T> = Pick<
  DataTableProps<T>,
  'label' | 'rowKey' | 'columns' | 'mobileCard' | 'rowClassName' | 'className'
> & {
  list: LiveListView<T>
  /** The search the list was loaded with (debounced); empty when not searching. */
  term: string
  noMatches: { title: string; text: string }
  empty: ReactNode
  /** The load error's text; the error's own message when left out. */
  errorText?: string
}

/**
 * A table wired to a live list (loading, errors and retry, more on scroll), with one empty state for a search
 * that found nothing and another for an empty list.
 */
export function LiveTable<T>({ list, term, noMatches, empty, errorText, ...table }: LiveTableProps<T>) {
  return (
    <DataTable
      {...table}
      rows={list.items}
      loading={list.loading}
      loadingMore={list.loadingMore}
      error={list.error ? (errorText ?? errorMessage(list.error)) : null}
      onRetry={list.items.length ? list.loadMore : list.reload}
      hasMore={list.hasMore}
      onLoadMore={list.loadMore}
      empty={
        term ? (
          <EmptyState icon={<Search />} title={noMatches.title}>
            {noMatches.text}
          </EmptyState>
        ) : (
          empty
        )
      }
    />
  )
}

type SearchProps = {
  search: string
  onSearch: (text: string) => void
  searchLabel: string
}

export type LiveTableCardProps<T> = Omit<LiveTableProps<T>, 'className' | 'errorText'> & SearchProps

/** A page's live list in a card: a search box above the live table. */
export function LiveTableCard<T>({ search, onSearch, searchLabel, ...table }: LiveTableCardProps<T>) {
  return (
    <Card className="flex-1">
      <div className="border-border border-b p-3">
        <SearchInput
          wrapperClassName="max-w-sm"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={searchLabel}
          aria-label={searchLabel}
        />
      </div>
      <LiveTable {...table} />
    </Card>
  )
}

/**
 * A list screen: the page's title with the list's count, its add button (after any further actions) and the
 * live table card, whose empty state offers the same add. The children are the screen's dialogs.
 */
export function LiveListPage<T>({
  title,
  subtitle,
  actions,
  actionsClassName = 'flex flex-wrap gap-2',
  add,
  empty,
  label,
  children,
  ...card
}: Omit<LiveTableCardProps<T>, 'empty' | 'label'> & {
  title: string
  /** The list's count in words. */
  subtitle?: string
  /** Further header actions, before the add button. */
  actions?: ReactNode
  actionsClassName?: string
  add: ListAdd
  empty: ListEmpty
  /** The table's name; the title when left out. */
  label?: string
  children?: ReactNode
}) {
  const addButton = (
    <Button icon={<Plus className="size-4" />} onClick={add.onClick}>
      {add.label}
    </Button>
  )
  return (
    <Page
      title={title}
      subtitle={subtitle}
      actions={
        actions ? (
          <div className={actionsClassName}>
            {actions}
            {addButton}
          </div>
        ) : (
          addButton
        )
      }
    >
      <LiveTableCard {...card} label={label ?? title} empty={<EmptyList empty={empty} add={add} />} />
      {children}
    </Page>
  )
}

/**
 * A settings tab's live list: a line on what it holds, the search with any further toolbar items and the add
 * button, the live table, then the tab's dialogs (the children).
 */
export function LiveListTab<T>({
  intro,
  search,
  onSearch,
  searchLabel,
  toolbar,
  add,
  empty,
  children,
  ...table
}: Omit<LiveTableProps<T>, 'empty'> &
  SearchProps & {
    intro: ReactNode
    /** Between the search and the add button. */
    toolbar?: ReactNode
    add: ListAdd
    empty: ListEmpty
    children?: ReactNode
  }) {
  return (
    <div className="flex flex-col">
      <p className="px-5 pt-4 text-muted text-sm">{intro}</p>
      <div className="flex flex-wrap items-center gap-2 border-border border-b p-3 sm:px-5">
        <SearchInput
          wrapperClassName="min-w-0 flex-1 sm:max-w-sm"
          value={search}
          onChange={(e) => onSearch(e.target.value)}
          placeholder={searchLabel}
          aria-label={searchLabel}
        />
        {toolbar}
        <Button className="ml-auto" icon={<Plus className="size-4" />} onClick={add.onClick}>
          {add.label}
        </Button>
      </div>
      <LiveTable {...table} empty={<EmptyList empty={empty} add={add} />} />
      {children}
    </div>
  )
}
