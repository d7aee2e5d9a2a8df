import { render, Text } from 'ink'
import type { ConnectionStatusReason } from '../../shared/connection-status'
import type { OperatorConnection } from '../operator-client'
import { type Column, Table } from './table'

const REASONS: Record<ConnectionStatusReason, string> = {
  no_network: 'WhatsApp cannot be reached from this server (network)',
  unavailable: 'WhatsApp answered with an error',
  logged_out: 'unlinked from the phone: pair again',
  banned: 'WhatsApp refused this number (banned or restricted)',
  replaced: 'another client opened this session',
  incompatible: "the phone's WhatsApp cannot link this device",
  qr_timeout: 'nobody scanned the QR code in time',
  link_unconfirmed: 'the phone scanned the QR code but did not confirm the link (a passkey?)',
}

/** Why a connection is not connected, in words; '' when nothing went wrong. */
export function reasonText(reason: ConnectionStatusReason | null | undefined) {
  return reason ? (REASONS[reason] ?? reason) : ''
}

/** Green when connected, amber while starting or waiting for the phone, red when down; grey for anything else. */
export function statusColor(status: string): 'green' | 'yellow' | 'red' | 'gray' {
  if (status === 'CONNECTED') return 'green'
  if (status === 'qrcode' || status === 'OPENING' || status === 'PAIRING') return 'yellow'
  if (status === 'DISCONNECTED' || status === 'TIMEOUT') return 'red'
  return 'gray'
}

/** The cells of one connection, in the order of the table's columns. */
export function connectionCells(c: OperatorConnection): string[] {
  return COLUMNS.map((column) => column.cell(c))
}

const COLUMNS: Column<OperatorConnection>[] = [
  { title: 'ID', cell: (c) => String(c.id), dim: true },
  { title: 'COMPANY', cell: (c) => c.companyName },
  { title: 'NAME', cell: (c) => c.name },
  { title: 'PROVIDER', cell: (c) => c.provider },
  {
    title: 'STATUS',
    cell: (c) => (c.statusReason ? `${c.status} (${c.statusReason})` : c.status),
    color: (c) => statusColor(c.status),
  },
  { title: 'NUMBER', cell: (c) => c.number ?? '-' },
  { title: 'DEFAULT', cell: (c) => (c.isDefault ? '✓' : ''), color: () => 'green' },
]

export function ConnectionTable({ connections }: { connections: OperatorConnection[] }) {
  return (
    <Table
      columns={COLUMNS}
      rows={connections}
      rowKey={(c) => c.id}
      empty={
        <>
          No connections yet. Add one in the web UI (Connections → Add WhatsApp), then pair it with{' '}
          <Text bold>balcao connection pair ID</Text>.
        </>
      }
    />
  )
}

/** Draws the table once and returns; `stdout` is for tests. */
export async function renderConnectionList(connections: OperatorConnection[], stdout?: NodeJS.WriteStream) {
  const app = render(<ConnectionTable connections={connections} />, stdout ? { stdout } : undefined)
  app.unmount()
  await app.waitUntilExit()
}
