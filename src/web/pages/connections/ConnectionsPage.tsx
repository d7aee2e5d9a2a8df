import { useSignals } from '@preact/signals-react/runtime'
import { Plus, RotateCw, Smartphone, Star } from 'lucide-react'
import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WhatsappDto } from '../../../shared/api'
import { can } from '../../../shared/permissions'
import { api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { Card, Page } from '../../components/layout/Page'
import { actionsColumn, RowActions } from '../../components/RowActions'
import { Badge } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { EmptyState } from '../../components/ui/EmptyState'
import { type Column, DataTable } from '../../components/ui/Table'
import { connectionsList } from '../../state/connections'
import { useSandboxServer } from '../../state/health'
import { useLiveList } from '../../state/liveList'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'
import { ConnectionDialog } from './ConnectionDialog'
import { formatNumber, formatUpdatedAt } from './format'
import { QrCodeDialog, requestNewQr } from './QrCodeDialog'
import { SessionActions, StatusPill, StatusReason } from './SessionActions'

export function ConnectionsPage() {
  useSignals()
  const { t } = useTranslation()
  const user = currentUser.value
  const list = useLiveList(connectionsList)
  const rows = list.items
  const canSession = can(user, 'connections-page:actionButtons')
  const canAdd = can(user, 'connections-page:addConnection')
  const canEdit = can(user, 'connections-page:editOrDeleteConnection')
  // Asked on arrival: the empty state mentions the sandbox, and a new connection defaults to it.
  const sandbox = useSandboxServer()

  const [editing, setEditing] = useState<{ id?: number } | null>(null)
  const [qrFor, setQrFor] = useState<number | null>(null)
  const [deleting, setDeleting] = useState<WhatsappDto | null>(null)
  const [disconnecting, setDisconnecting] = useState<WhatsappDto | null>(null)
  const [confirmRestart, setConfirmRestart] = useState(false)
  const [busy, setBusy] = useState<{ id: number; action: string } | null>(null)
  const { upsert } = list

  const run = async (c: WhatsappDto, action: string, call: () => Promise<unknown>) => {
    setBusy({ id: c.id, action })
    try {
      await call()
    } finally {
      setBusy(null)
    }
  }

  const retry = (c: WhatsappDto) =>
    run(c, 'retry', async () => {
      try {
        upsert(await api.post<WhatsappDto>(`/whatsappsession/${c.id}`))
      } catch (err) {
        toastError(err)
      }
    })

  const newQr = (c: WhatsappDto) =>
    run(c, 'newQr', async () => {
      if (await requestNewQr(c.id, t, upsert)) setQrFor(c.id)
    })

  // The spec's warning comes once the person has confirmed, with the request it announces.
  const confirmDisconnect = async () => {
    if (!disconnecting) return
    toast.warning(t('connections.toasts.disconnectWarning'))
    try {
      upsert(await api.delete<WhatsappDto>(`/whatsappsession/${disconnecting.id}`))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const confirmDelete = async () => {
    if (!deleting) return
    try {
      await api.delete(`/whatsapp/${deleting.id}`)
      list.remove(deleting.id)
      toast.success(t('connections.toasts.deleted'))
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const restart = async () => {
    toast.warning(t('connections.toasts.restarting'))
    try {
      await api.post('/whatsapp-restart/')
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  const onSaved = useCallback(
    (saved: WhatsappDto, created: boolean) => {
      upsert(saved)
      // A new connection starts at once: show its QR code.
      if (created && saved.status !== 'CONNECTED') setQrFor(saved.id)
    },
    [upsert],
  )
  const closeQr = useCallback(() => setQrFor(null), [])

  // A sandbox connection, or a real one of a server started against the WhatsApp simulator: neither is WhatsApp.
  const sandboxChip = (c: WhatsappDto) =>
    c.provider === 'sandbox' ? (
      <Badge tone="brand">{t('connections.sandbox')}</Badge>
    ) : c.simulated ? (
      <Badge tone="warning">{t('connections.simulated')}</Badge>
    ) : null
  const number = (c: WhatsappDto) =>
    c.status === 'CONNECTED' && c.number ? <span className="tnum">{formatNumber(c.number)}</span> : null

  const nameCell = (c: WhatsappDto) => (
    <div className="min-w-0">
      <div className="truncate font-medium text-fg" title={c.name}>
        {c.name}
      </div>
      {(c.provider === 'sandbox' || c.simulated || number(c)) && (
        <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-muted text-xs">
          {sandboxChip(c)}
          {number(c)}
        </div>
      )}
    </div>
  )

  const defaultFlag = (c: WhatsappDto) =>
    c.isDefault ? (
      <span className="inline-flex items-center text-warning" title={t('connections.default')}>
        <Star className="size-[18px] fill-current" aria-hidden />
        <span className="sr-only">{t('connections.default')}</span>
      </span>
    ) : null

  const session = (c: WhatsappDto) =>
    canSession ? (
      <SessionActions
        connection={c}
        busy={busy?.id === c.id ? busy.action : null}
        onShowQr={(x) => setQrFor(x.id)}
        onRetry={retry}
        onNewQr={newQr}
        onDisconnect={setDisconnecting}
      />
    ) : null

  const actions = (c: WhatsappDto) =>
    canEdit ? (
      <RowActions name={c.name} onEdit={() => setEditing({ id: c.id })} onDelete={() => setDeleting(c)} />
    ) : null

  const columns: Column<WhatsappDto>[] = [
    { key: 'name', header: t('connections.name'), cell: nameCell, width: '25%' },
    {
      key: 'status',
      header: t('connections.status'),
      // Pill and buttons on one line; when something is wrong, the reason sits under the pill, then the buttons.
      cell: (c) =>
        c.statusReason && c.status !== 'CONNECTED' ? (
          <div className="flex flex-col items-start gap-2">
            <div className="flex flex-col items-start gap-1">
              <StatusPill status={c.status} />
              <StatusReason connection={c} />
            </div>
            {session(c)}
          </div>
        ) : (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
            <StatusPill status={c.status} />
            {session(c)}
          </div>
        ),
    },
    {
      key: 'updated',
      header: <span className="whitespace-nowrap">{t('connections.lastUpdate')}</span>,
      cell: (c) => <span className="whitespace-nowrap text-muted tnum">{formatUpdatedAt(c.updatedAt)}</span>,
      width: '150px',
    },
    { key: 'default', header: t('connections.default'), cell: defaultFlag, width: '76px', align: 'center' },
    actionsColumn(actions, '88px'),
  ]

  const mobileCard = (c: WhatsappDto) => (
    <div className="flex flex-col gap-2.5">
      <div className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <span className="truncate font-medium text-fg">{c.name}</span>
            {defaultFlag(c)}
          </div>
          <div className="mt-1.5 flex flex-wrap items-center gap-x-2 gap-y-1.5 text-muted text-xs">
            <StatusPill status={c.status} />
            {sandboxChip(c)}
            {number(c)}
            <span className="tnum">{formatUpdatedAt(c.updatedAt)}</span>
          </div>
          <StatusReason connection={c} className="mt-1.5" />
        </div>
        {actions(c)}
      </div>
      {session(c)}
    </div>
  )

  return (
    <Page
      title={t('connections.title')}
      subtitle={list.loading ? undefined : t('connections.count', { count: rows.length })}
      actions={
        <>
          {canSession && (
            <>
              <Button
                variant="secondary"
                icon={<RotateCw className="size-4" />}
                onClick={() => setConfirmRestart(true)}
                className="max-sm:hidden"
              >
                {t('connections.restart')}
              </Button>
              {/* Phones: the same action as an icon, so 'Adicionar WhatsApp' fits beside it. */}
              <IconButton
                variant="secondary"
                label={t('connections.restart')}
                icon={<RotateCw className="size-4" />}
                onClick={() => setConfirmRestart(true)}
                className="sm:hidden"
              />
            </>
          )}
          {canAdd && (
            <Button icon={<Plus className="size-4" />} onClick={() => setEditing({})}>
              {t('connections.add')}
            </Button>
          )}
        </>
      }
    >
      <Card className="flex-1">
        <DataTable
          label={t('connections.title')}
          rows={rows}
          rowKey={(c) => c.id}
          columns={columns}
          loading={list.loading}
          error={list.error ? errorMessage(list.error) : null}
          onRetry={list.reload}
          mobileCard={mobileCard}
          empty={
            <EmptyState
              icon={<Smartphone />}
              title={t('connections.emptyTitle')}
              action={
                canAdd && (
                  <Button icon={<Plus className="size-4" />} onClick={() => setEditing({})}>
                    {t('connections.add')}
                  </Button>
                )
              }
            >
              <p>{t('connections.emptyText')}</p>
              {sandbox && <p className="mt-2">{t('connections.emptySandbox')}</p>}
            </EmptyState>
          }
        />
      </Card>
      {editing && (
        <ConnectionDialog open connectionId={editing.id} onClose={() => setEditing(null)} onSaved={onSaved} />
      )}
      {qrFor != null && <QrCodeDialog open connectionId={qrFor} onClose={closeQr} />}
      <ConfirmDialog
        open={!!deleting}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
        message={deleting ? t('connections.deleteText', { name: deleting.name }) : undefined}
      />
      <ConfirmDialog
        open={!!disconnecting}
        onClose={() => setDisconnecting(null)}
        onConfirm={confirmDisconnect}
        title={t('connections.disconnect.title')}
        message={t('connections.disconnect.text')}
        confirmLabel={t('connections.disconnect.confirm')}
      />
      <ConfirmDialog
        open={confirmRestart}
        onClose={() => setConfirmRestart(false)}
        onConfirm={restart}
        tone="warning"
        icon={<RotateCw />}
        title={t('connections.restartConfirm.title')}
        message={t('connections.restartConfirm.text')}
        confirmLabel={t('connections.restartConfirm.confirm')}
      />
    </Page>
  )
}
