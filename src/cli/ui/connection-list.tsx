import { Box, render, Text } from 'ink'
import type { ConnectionStatusReason } from '../../shared/connection-status'
import type { OperatorConnection } from '../operator-client'

const REASONS: Record<ConnectionStatusReason, string> = {
  no_network: 'WhatsApp cannot be reached from this server (network)',
  unavailable: 'WhatsApp answered with an error',
  logged_out: 'unlinked from the phone: pair again',
  banned: 'WhatsApp refused this number (banned or restricted)',
  replaced: 'another client opened this session',
  incompatible: "the phone's WhatsApp cannot link this device",
  qr_timeout: 'nobody scanned the QR code in time',
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

const COLUMNS = ['ID', 'COMPANY', 'NAME', 'PROVIDER', 'STATUS', 'NUMBER', 'DEFAULT'] as const
const MAX_WIDTH = 28

function clip(value: string) {
  return value.length > MAX_WIDTH ? `${value.slice(0, MAX_WIDTH - 1)}…` : value
}

/** The cells of one connection, in the order of COLUMNS. */
export function connectionCells(c: OperatorConnection): string[] {
  return [
    String(c.id),
    clip(c.companyName),
    clip(c.name),
    c.provider,
    c.statusReason ? `${c.status} (${c.statusReason})` : c.status,
    c.number ?? '-',
    c.isDefault ? '✓' : '',
  ]
}

export function ConnectionTable({ connections }: { connections: OperatorConnection[] }) {
  if (connections.length === 0) {
    return (
      <Text>
        No connections yet. Add one in the web UI (Connections → Add WhatsApp), then pair it with{' '}
        <Text bold>balcao connection pair ID</Text>.
      </Text>
    )
  }
  const rows = connections.map(connectionCells)
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...rows.map((cells) => cells[i]!.length)))
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} alignSelf="flex-start">
      <Box gap={2}>
        {COLUMNS.map((title, i) => (
          <Box key={title} width={widths[i]}>
            <Text bold color="cyan">
              {title}
            </Text>
          </Box>
        ))}
      </Box>
      {connections.map((c, row) => (
        <Box key={c.id} gap={2}>
          {rows[row]!.map((cell, i) => (
            <Box key={COLUMNS[i]} width={widths[i]}>
              <Text
                wrap="truncate"
                color={
                  COLUMNS[i] === 'STATUS'
                    ? statusColor(c.status)
                    : COLUMNS[i] === 'DEFAULT'
                      ? 'green'
                      : undefined
                }
                dimColor={COLUMNS[i] === 'ID'}
              >
                {cell}
              </Text>
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  )
}

/** Draws the table once and returns; `stdout` is for tests. */
export async function renderConnectionList(connections: OperatorConnection[], stdout?: NodeJS.WriteStream) {
  const app = render(<ConnectionTable connections={connections} />, stdout ? { stdout } : undefined)
  app.unmount()
  await app.waitUntilExit()
}
