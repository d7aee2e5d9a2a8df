import { Columns3, Plus, Tag, Tags } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { TagDto } from '../../../shared/api'
import { LiveTableCard } from '../../components/LiveTableCard'
import { Page } from '../../components/layout/Page'
import { actionsColumn } from '../../components/RowActions'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import type { Column } from '../../components/ui/Table'
import { useTagsScreen } from './useTagsScreen'

function TagName({ tag }: { tag: TagDto }) {
  return (
    <span className="inline-flex min-w-0 max-w-full items-center gap-2 rounded-full border border-border bg-surface px-2.5 py-0.5">
      <span
        aria-hidden
        className="size-2.5 shrink-0 rounded-full ring-1 ring-black/10 dark:ring-white/15"
        style={{ background: tag.color }}
      />
      <span className="truncate font-medium text-fg text-sm">{tag.name}</span>
    </span>
  )
}

/** The tags screen (spec 2): title with the count, search, add, edit, delete; live by `company-{id}-tag`. */
export function TagsPage() {
  const { t } = useTranslation()
  const { search, setSearch, term, list, add, admin, actions, dialogs } = useTagsScreen(false)
  const rowActions = (tag: TagDto) => actions(tag, 'flex justify-end gap-0.5')

  const kanbanCell = (tag: TagDto) =>
    tag.kanban === 1 ? (
      <Badge tone="brand">
        <Columns3 className="size-3.5" aria-hidden />
        {t('tags.lane')}
      </Badge>
    ) : (
      <span className="text-subtle text-xs">{t('tags.ordinary')}</span>
    )

  const ticketsCell = (tag: TagDto) =>
    tag.ticketsCount == null ? (
      <span className="text-subtle">—</span>
    ) : (
      <span className="tnum">{tag.ticketsCount}</span>
    )

  const columns: Column<TagDto>[] = [
    { key: 'name', header: t('tags.name'), cell: (tag) => <TagName tag={tag} /> },
    { key: 'kanban', header: t('tags.kind'), cell: kanbanCell, width: '160px' },
    { key: 'tickets', header: t('tags.tickets'), cell: ticketsCell, width: '110px', align: 'right' },
  ]
  // Renaming and deleting are the admins'.
  if (admin) columns.push(actionsColumn(rowActions, '96px'))

  const mobileCard = (tag: TagDto) => (
    <div className="flex items-center gap-3">
      <div className="min-w-0 flex-1 space-y-1">
        <TagName tag={tag} />
        <div className="flex items-center gap-2 text-muted text-xs">
          {kanbanCell(tag)}
          {tag.ticketsCount != null && (
            <span className="tnum">{t('tags.ticketsCount', { count: tag.ticketsCount })}</span>
          )}
        </div>
      </div>
      {rowActions(tag)}
    </div>
  )

  return (
    <Page
      title={t('tags.title')}
      subtitle={list.count != null ? t('tags.count', { count: list.count }) : undefined}
      actions={
        <Button icon={<Plus className="size-4" />} onClick={add}>
          {t('tags.add')}
        </Button>
      }
    >
      <LiveTableCard
        list={list}
        search={search}
        onSearch={setSearch}
        searchLabel={t('tags.search')}
        term={term}
        noMatches={{ title: t('tags.emptySearchTitle'), text: t('tags.emptySearch', { term }) }}
        label={t('tags.title')}
        rowKey={(tag) => tag.id}
        columns={columns}
        mobileCard={mobileCard}
        empty={
          <EmptyState
            icon={<Tags />}
            title={t('tags.emptyTitle')}
            action={
              <Button icon={<Tag className="size-4" />} onClick={add}>
                {t('tags.add')}
              </Button>
            }
          >
            {t('tags.emptyText')}
          </EmptyState>
        }
      />
      {dialogs}
    </Page>
  )
}
