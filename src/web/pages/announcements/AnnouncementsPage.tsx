import { useSignals } from '@preact/signals-react/runtime'
import { ImageIcon, Newspaper, Plus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { AnnouncementDto } from '../../../shared/announcements'
import { errorMessage } from '../../api/errors'
import { LiveTableCard } from '../../components/LiveTableCard'
import { PriorityBadge } from '../../components/layout/notifications/AnnouncementPriority'
import { fullDate, useAnnouncementEvents } from '../../components/layout/notifications/announcements'
import { Page } from '../../components/layout/Page'
import { actionsColumn, RowActions } from '../../components/RowActions'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import type { Column } from '../../components/ui/Table'
import { useListSearch, useRowCrud } from '../../components/useListScreen'
import { useLiveList } from '../../state/liveList'
import { AnnouncementDialog } from './AnnouncementDialog'
import { announcementsList } from './announcementsList'

function Title({ record }: { record: AnnouncementDto }) {
  const { t } = useTranslation()
  return (
    // Bounded so that a long title or text is cut (with its full text on hover) rather than widening the table.
    <div className="min-w-0 sm:max-w-[24rem] xl:max-w-[28rem] 2xl:max-w-[40rem]">
      <div className="flex min-w-0 items-center gap-2">
        <span className="truncate font-medium text-fg text-sm" title={record.title}>
          {record.title}
        </span>
        {record.mediaUrl && (
          <ImageIcon className="size-3.5 shrink-0 text-subtle" aria-label={t('announcements.hasImage')} />
        )}
      </div>
      <div className="truncate text-muted text-xs" title={record.text}>
        {record.text}
      </div>
    </div>
  )
}

function Status({ record }: { record: AnnouncementDto }) {
  const { t } = useTranslation()
  return record.status ? (
    <Badge tone="success">{t('announcements.statusActive')}</Badge>
  ) : (
    <Badge>{t('announcements.statusInactive')}</Badge>
  )
}

/**
 * The announcements screen (spec 2, super users): search, add, an infinite-scroll table of title, priority (by
 * colour), status, date and actions; live by the global `announcement` event.
 */
export function AnnouncementsPage() {
  useSignals()
  const { t } = useTranslation()
  const { search, setSearch, term } = useListSearch()
  const list = useLiveList(announcementsList, { search: term })
  useAnnouncementEvents(list)
  const crud = useRowCrud<AnnouncementDto>({
    deletePath: (record) => `/announcements/${record.id}`,
    remove: list.remove,
    deleted: t('announcements.deleted'),
    deleteFailed: (err) => `${t('announcements.deleteFailed')}: ${errorMessage(err)}`,
  })

  const actions = (record: AnnouncementDto) => (
    <RowActions
      name={record.title}
      onEdit={() => crud.openEdit(record.id)}
      onDelete={() => crud.askDelete(record)}
    />
  )

  const columns: Column<AnnouncementDto>[] = [
    { key: 'title', header: t('announcements.titleField'), cell: (record) => <Title record={record} /> },
    {
      key: 'priority',
      header: t('announcements.priority'),
      cell: (record) => <PriorityBadge priority={record.priority} />,
      width: '120px',
    },
    {
      key: 'status',
      header: t('announcements.status'),
      cell: (record) => <Status record={record} />,
      width: '110px',
    },
    {
      key: 'createdAt',
      header: t('announcements.createdAt'),
      cell: (record) => (
        <time dateTime={record.createdAt} className="whitespace-nowrap text-muted text-sm tnum">
          {fullDate(record.createdAt)}
        </time>
      ),
      width: '150px',
    },
    actionsColumn(actions, '96px'),
  ]

  const mobileCard = (record: AnnouncementDto) => (
    <div className="flex items-center gap-3">
      <div className="min-w-0 flex-1 space-y-1.5">
        <Title record={record} />
        <div className="flex flex-wrap items-center gap-2">
          <PriorityBadge priority={record.priority} />
          <Status record={record} />
          <time dateTime={record.createdAt} className="text-muted text-xs tnum">
            {fullDate(record.createdAt)}
          </time>
        </div>
      </div>
      {actions(record)}
    </div>
  )

  return (
    <Page
      title={t('announcements.title')}
      subtitle={list.count != null ? t('announcements.count', { count: list.count }) : undefined}
      actions={
        <Button icon={<Plus className="size-4" />} onClick={crud.openAdd}>
          {t('announcements.add')}
        </Button>
      }
    >
      <LiveTableCard
        list={list}
        search={search}
        onSearch={setSearch}
        searchLabel={t('announcements.search')}
        term={term}
        noMatches={{
          title: t('announcements.emptySearchTitle'),
          text: t('announcements.emptySearch', { term }),
        }}
        label={t('announcements.title')}
        rowKey={(record) => record.id}
        columns={columns}
        mobileCard={mobileCard}
        empty={
          <EmptyState
            icon={<Newspaper />}
            title={t('announcements.emptyTitle')}
            action={
              <Button icon={<Plus className="size-4" />} onClick={crud.openAdd}>
                {t('announcements.add')}
              </Button>
            }
          >
            {t('announcements.emptyText')}
          </EmptyState>
        }
      />
      {crud.dialog && (
        <AnnouncementDialog
          open
          recordId={crud.dialog.id}
          onClose={crud.closeDialog}
          onSaved={(record) => list.upsert(record)}
        />
      )}
      {crud.confirmDelete}
    </Page>
  )
}
