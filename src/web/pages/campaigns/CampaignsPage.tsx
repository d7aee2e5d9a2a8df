import { useSignals } from '@preact/signals-react/runtime'
import { BarChart3, CirclePause, CirclePlay, Eye, Megaphone, Pencil, Plus } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import type { CampaignDto, CampaignStatus } from '../../../shared/api'
import { isCampaignEditable } from '../../../shared/campaign-editable'
import { formatInZone } from '../../../shared/timezone'
import { api } from '../../api/client'
import { errorMessage } from '../../api/errors'
import { LiveTableCard } from '../../components/LiveTableCard'
import { Page } from '../../components/layout/Page'
import { actionsColumn, RowActions } from '../../components/RowActions'
import { Badge, type BadgeTone } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { EmptyState } from '../../components/ui/EmptyState'
import type { Column } from '../../components/ui/Table'
import { useListSearch, useRowCrud } from '../../components/useListScreen'
import { useLiveList } from '../../state/liveList'
import { companyZone } from '../../state/settings'
import { toast } from '../../state/toast'
import { CampaignDialog } from './CampaignDialog'
import { campaignsList } from './campaignsList'

export const STATUS_TONES: Record<CampaignStatus, BadgeTone> = {
  INATIVA: 'neutral',
  PROGRAMADA: 'warning',
  EM_ANDAMENTO: 'brand',
  CANCELADA: 'danger',
  FINALIZADA: 'success',
}

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation()
  return <Badge tone={STATUS_TONES[status] ?? 'neutral'}>{t(`campaigns.status.${status}`)}</Badge>
}

/** The server's message of a failed cancel or restart (spec 8), in a toast. */
function toastServerMessage(err: unknown) {
  if ((err as Error)?.name === 'AbortError') return
  toast.error(errorMessage(err))
}

/**
 * The campaigns screen (spec 2): search, add, an infinite-scroll table (name, status, contact list, connection,
 * scheduled time, completed time, confirmation, actions), live by `company-{id}-campaign`.
 */
export function CampaignsPage() {
  useSignals()
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { search, setSearch, term } = useListSearch()
  const [stopping, setStopping] = useState<CampaignDto | null>(null)
  const list = useLiveList(campaignsList, { search: term })
  const { upsert, remove } = list
  const crud = useRowCrud<CampaignDto>({
    deletePath: (c) => `/campaigns/${c.id}`,
    remove,
    deleted: t('campaigns.deleted'),
    deleteFailed: () => t('campaigns.deleteFailed'),
  })
  const zone = companyZone()

  const cancel = async () => {
    if (!stopping) return
    try {
      const saved = await api.post<CampaignDto | undefined>(`/campaigns/${stopping.id}/cancel`)
      if (saved && typeof saved === 'object' && 'id' in saved) upsert(saved)
      toast.success(t('campaigns.cancelled'))
    } catch (err) {
      toastServerMessage(err)
      throw err
    }
  }

  const restart = async (c: CampaignDto) => {
    try {
      const saved = await api.post<CampaignDto | undefined>(`/campaigns/${c.id}/restart`)
      if (saved && typeof saved === 'object' && 'id' in saved) upsert(saved)
      toast.success(t('campaigns.restarted'))
    } catch (err) {
      toastServerMessage(err)
    }
  }

  const when = (iso: string | null, fallback: string) =>
    iso ? (
      <span className="tnum">{formatInZone(Date.parse(iso), zone)}</span>
    ) : (
      <span className="text-muted">{fallback}</span>
    )

  const actions = (c: CampaignDto) => {
    const editable = isCampaignEditable(c)
    return (
      <RowActions
        name={c.name}
        editLabel={editable ? t('common.edit') : t('campaigns.view')}
        editIcon={editable ? <Pencil className="size-4" /> : <Eye className="size-4" />}
        onEdit={() => crud.openEdit(c.id)}
        onDelete={() => crud.askDelete(c)}
      >
        {c.status === 'EM_ANDAMENTO' && (
          <IconButton
            size="sm"
            label={`${t('campaigns.cancel')}: ${c.name}`}
            icon={<CirclePause className="size-4" />}
            onClick={() => setStopping(c)}
          />
        )}
        {c.status === 'CANCELADA' && (
          <IconButton
            size="sm"
            label={`${t('campaigns.restart')}: ${c.name}`}
            icon={<CirclePlay className="size-4" />}
            onClick={() => void restart(c)}
          />
        )}
        {c.status !== 'INATIVA' && (
          <IconButton
            size="sm"
            label={`${t('campaigns.report')}: ${c.name}`}
            icon={<BarChart3 className="size-4" />}
            onClick={() => navigate(`/campaign/${c.id}/report`)}
          />
        )}
      </RowActions>
    )
  }

  const columns: Column<CampaignDto>[] = [
    { key: 'name', header: t('campaigns.name'), cell: (c) => <span className="font-medium">{c.name}</span> },
    {
      key: 'status',
      header: t('campaigns.statusLabel'),
      cell: (c) => <CampaignStatusBadge status={c.status} />,
    },
    {
      key: 'contactList',
      header: t('campaigns.contactList'),
      cell: (c) => c.contactList?.name ?? <span className="text-muted">{t('campaigns.notDefined')}</span>,
    },
    {
      key: 'whatsapp',
      header: t('campaigns.connection'),
      cell: (c) => c.whatsapp?.name ?? <span className="text-muted">{t('campaigns.notDefined')}</span>,
    },
    {
      key: 'scheduledAt',
      header: t('campaigns.scheduledAt'),
      cell: (c) => when(c.scheduledAt, t('campaigns.noSchedule')),
      width: '170px',
    },
    {
      key: 'completedAt',
      header: t('campaigns.completedAt'),
      cell: (c) => when(c.completedAt, t('campaigns.notCompleted')),
      width: '170px',
    },
    {
      key: 'confirmation',
      header: t('campaigns.confirmation'),
      cell: (c) => (c.confirmation ? t('common.enabled') : t('common.disabled')),
    },
    actionsColumn(actions, '170px'),
  ]

  const mobileCard = (c: CampaignDto) => (
    <div className="flex items-center gap-3">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex items-center gap-2">
          <span className="truncate font-medium text-fg text-sm">{c.name}</span>
          <CampaignStatusBadge status={c.status} />
        </div>
        <div className="truncate text-muted text-xs">
          {c.contactList?.name ?? t('campaigns.notDefined')} · {c.whatsapp?.name ?? t('campaigns.notDefined')}
        </div>
        <div className="text-muted text-xs">{when(c.scheduledAt, t('campaigns.noSchedule'))}</div>
      </div>
      {actions(c)}
    </div>
  )

  return (
    <Page
      title={t('campaigns.title')}
      subtitle={list.count != null ? t('campaigns.count', { count: list.count }) : undefined}
      actions={
        <Button icon={<Plus className="size-4" />} onClick={crud.openAdd}>
          {t('campaigns.add')}
        </Button>
      }
    >
      <LiveTableCard
        list={list}
        search={search}
        onSearch={setSearch}
        searchLabel={t('campaigns.search')}
        term={term}
        noMatches={{ title: t('campaigns.emptySearchTitle'), text: t('campaigns.emptySearch', { term }) }}
        label={t('campaigns.title')}
        rowKey={(c) => c.id}
        columns={columns}
        mobileCard={mobileCard}
        empty={
          <EmptyState
            icon={<Megaphone />}
            title={t('campaigns.emptyTitle')}
            action={
              <Button icon={<Plus className="size-4" />} onClick={crud.openAdd}>
                {t('campaigns.add')}
              </Button>
            }
          >
            {t('campaigns.emptyText')}
          </EmptyState>
        }
      />
      {crud.dialog && (
        <CampaignDialog
          open
          campaignId={crud.dialog.id}
          timeZone={zone}
          onClose={crud.closeDialog}
          onSaved={(c) => upsert(c)}
        />
      )}
      {crud.confirmDelete}
      <ConfirmDialog
        open={!!stopping}
        onClose={() => setStopping(null)}
        onConfirm={cancel}
        tone="warning"
        title={t('campaigns.cancelTitle')}
        message={t('campaigns.cancelText')}
        confirmLabel={t('campaigns.cancel')}
      />
    </Page>
  )
}
