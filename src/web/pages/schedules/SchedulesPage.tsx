import { useSignals } from '@preact/signals-react/runtime'
import { CalendarClock, Eye, Pencil, Plus, RotateCcw, Trash2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router-dom'
import { bodyPreview, type ScheduleDto } from '../../../shared/scheduled-messages'
import { formatInZone } from '../../../shared/timezone'
import { api } from '../../api/client'
import { toastError } from '../../api/errors'
import { LiveTableCard } from '../../components/LiveTableCard'
import { Page } from '../../components/layout/Page'
import { Badge } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { EmptyState } from '../../components/ui/EmptyState'
import type { Column } from '../../components/ui/Table'
import { useDebounced } from '../../lib/useDebounced'
import { useLiveList } from '../../state/liveList'
import { companyZone } from '../../state/settings'
import { toast } from '../../state/toast'
import { type ContactRef, ScheduleDialog } from './ScheduleDialog'
import { schedulesList } from './schedulesList'

export const SEARCH_DEBOUNCE = 500

const TONES = { PENDENTE: 'warning', ENVIANDO: 'brand', ENVIADA: 'success', ERRO: 'danger' } as const

/** The spec's title for a status: 'Erro de Envio' for ERRO, 'Mensagem <status>' otherwise (translated). */
export function StatusBadge({ s }: { s: ScheduleDto }) {
  const { t } = useTranslation()
  const title = t(`schedules.statusTitles.${s.status}`, { defaultValue: `Mensagem ${s.status}` })
  return (
    <span title={s.error ?? title}>
      <Badge tone={TONES[s.status] ?? 'neutral'}>{title}</Badge>
    </span>
  )
}

/**
 * The scheduled messages screen (spec 2): search, add, an infinite-scroll table (contact, body cut at 25
 * characters, send date DD/MM/YYYY HH:mm:ss in the company's zone, status, actions), live by
 * `company-{id}-schedule`. `?contactId=` opens the create dialog with that contact; after saving the page is
 * /schedules again.
 */
export function SchedulesPage() {
  useSignals()
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [params] = useSearchParams()
  const [search, setSearch] = useState('')
  const term = useDebounced(search.trim(), SEARCH_DEBOUNCE)
  const [dialog, setDialog] = useState<{ id?: number; contact?: ContactRef | null } | null>(null)
  const [deleting, setDeleting] = useState<ScheduleDto | null>(null)
  const list = useLiveList(schedulesList, { search: term })
  const { upsert, remove } = list
  const zone = companyZone()

  const prefill = params.get('contactId')
  useEffect(() => {
    if (!prefill || !/^[1-9]\d{0,15}$/.test(prefill)) return
    const ctrl = new AbortController()
    api
      .get<{ id: number; name: string }>(`/contacts/${prefill}`, { signal: ctrl.signal })
      .then((c) => setDialog({ contact: { id: c.id, name: c.name } }))
      .catch((err) => {
        if (!ctrl.signal.aborted) {
          toastError(err)
          setDialog({})
        }
      })
    return () => ctrl.abort()
  }, [prefill])

  const close = () => {
    setDialog(null)
    if (prefill) navigate('/schedules', { replace: true })
  }

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await api.delete(`/schedules/${deleting.id}`)
      remove(deleting.id)
      toast.success(t('schedules.deleted'))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const retry = async (s: ScheduleDto) => {
    try {
      upsert(await api.post<ScheduleDto>(`/schedules/${s.id}/retry`))
      toast.success(t('schedules.retried'))
    } catch (err) {
      toastError(err)
    }
  }

  const actions = (s: ScheduleDto) => (
    <div className="flex justify-end gap-0.5">
      {s.status === 'ERRO' && (
        <IconButton
          size="sm"
          label={`${t('schedules.retry')}: ${s.contact.name}`}
          icon={<RotateCcw className="size-4" />}
          onClick={() => void retry(s)}
        />
      )}
      <IconButton
        size="sm"
        label={`${s.sentAt ? t('schedules.view') : t('common.edit')}: ${s.contact.name}`}
        icon={s.sentAt ? <Eye className="size-4" /> : <Pencil className="size-4" />}
        onClick={() => setDialog({ id: s.id })}
      />
      <IconButton
        size="sm"
        variant="danger-ghost"
        label={`${t('common.delete')}: ${s.contact.name}`}
        icon={<Trash2 className="size-4" />}
        onClick={() => setDeleting(s)}
        disabled={s.status === 'ENVIANDO'}
      />
    </div>
  )

  const when = (s: ScheduleDto) => <span className="tnum">{formatInZone(Date.parse(s.sendAt), zone)}</span>

  const columns: Column<ScheduleDto>[] = [
    {
      key: 'contact',
      header: t('schedules.contact'),
      cell: (s) => <span className="font-medium">{s.contact.name}</span>,
    },
    {
      key: 'body',
      header: t('schedules.body'),
      cell: (s) => <span title={s.body}>{bodyPreview(s.body)}</span>,
    },
    { key: 'sendAt', header: t('schedules.sendAt'), cell: when, width: '180px' },
    { key: 'status', header: t('schedules.status'), cell: (s) => <StatusBadge s={s} />, width: '170px' },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: actions,
      align: 'right',
      width: '120px',
    },
  ]

  const mobileCard = (s: ScheduleDto) => (
    <div className="flex items-center gap-3">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="truncate font-medium text-fg text-sm">{s.contact.name}</div>
        <div className="truncate text-muted text-sm">{bodyPreview(s.body)}</div>
        <div className="flex items-center gap-2 text-muted text-xs">
          {when(s)}
          <StatusBadge s={s} />
        </div>
      </div>
      {actions(s)}
    </div>
  )

  return (
    <Page
      title={t('schedules.title')}
      subtitle={list.count != null ? t('schedules.count', { count: list.count }) : undefined}
      actions={
        <Button icon={<Plus className="size-4" />} onClick={() => setDialog({})}>
          {t('schedules.add')}
        </Button>
      }
    >
      <LiveTableCard
        list={list}
        search={search}
        onSearch={setSearch}
        searchLabel={t('schedules.search')}
        term={term}
        noMatches={{ title: t('schedules.emptySearchTitle'), text: t('schedules.emptySearch', { term }) }}
        label={t('schedules.title')}
        rowKey={(s) => s.id}
        columns={columns}
        mobileCard={mobileCard}
        empty={
          <EmptyState
            icon={<CalendarClock />}
            title={t('schedules.emptyTitle')}
            action={
              <Button icon={<Plus className="size-4" />} onClick={() => setDialog({})}>
                {t('schedules.add')}
              </Button>
            }
          >
            {t('schedules.emptyText')}
          </EmptyState>
        }
      />
      {dialog && (
        <ScheduleDialog
          open
          scheduleId={dialog.id}
          initialContact={dialog.contact ?? null}
          timeZone={zone}
          now={Date.now()}
          onClose={close}
          onSaved={(s) => upsert(s)}
        />
      )}
      <ConfirmDialog open={!!deleting} onClose={() => setDeleting(null)} onConfirm={confirmDelete} />
    </Page>
  )
}
