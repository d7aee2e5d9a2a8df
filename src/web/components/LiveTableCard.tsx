import { Search } from 'lucide-react'
import type { ReactNode } from 'react'
import { errorMessage } from '../api/errors'
import type { LiveListView } from '../state/liveList'
import { Card } from './layout/Page'
import { EmptyState } from './ui/EmptyState'
import { SearchInput } from './ui/Field'
import { DataTable, type DataTableProps } from './ui/Table'

/**
 * A page's live list in a card: a search box above a table wired to the list (loading, errors and retry, more
 * on scroll), with one empty state for a search that found nothing and another for an empty list.
 */
export function LiveTableCard<T>({
  list,
  search,
  onSearch,
  searchLabel,
  term,
  noMatches,
  empty,
  ...table
}: Pick<DataTableProps<T>, 'label' | 'rowKey' | 'columns' | 'mobileCard' | 'rowClassName'> & {
  list: LiveListView<T>
  search: string
  onSearch: (text: string) => void
  searchLabel: string
  /** The search the list was loaded with (debounced); empty when not searching. */
  term: string
  noMatches: { title: string; text: string }
  empty: ReactNode
}) {
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
      <DataTable
        {...table}
        rows={list.items}
        loading={list.loading}
        loadingMore={list.loadingMore}
        error={list.error ? errorMessage(list.error) : null}
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
    </Card>
  )
}
