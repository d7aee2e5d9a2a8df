import { AppError } from '../../../shared/errors'
import { connectionColumns, type RawConnectionRow, toConnectionRow } from '../../channels/connection-row'
import { snapshot } from '../../channels/manager'
import type { Deps } from '../../context'
import type { WhatsappRow } from '../../db/schema'
import { stmt } from '../../db/statements'

/** What the terminal sees of a connection, across companies. */
function operatorView(row: WhatsappRow, companyName: string) {
  return {
    id: row.id,
    name: row.name,
    companyId: row.companyId,
    companyName,
    provider: row.provider,
    status: row.status,
    statusReason: row.statusReason,
    number: row.number,
    isDefault: row.isDefault,
    retries: row.retries,
    updatedAt: new Date(row.updatedAt).toISOString(),
  }
}

type WithCompany = RawConnectionRow & { companyName: string }

const WITH_COMPANY = `SELECT ${connectionColumns('w')}, c.name AS companyName
  FROM whatsapps w JOIN companies c ON c.id = w.company_id`

function split({ companyName, ...raw }: WithCompany) {
  return { row: toConnectionRow(raw), companyName }
}

export function listAllConnections(deps: Deps) {
  return stmt<WithCompany, []>(deps.sqlite, `${WITH_COMPANY} ORDER BY c.name, w.name`)
    .all()
    .map(split)
    .map(({ row, companyName }) => operatorView(row, companyName))
}

function load(deps: Deps, connectionId: number) {
  const found = stmt<WithCompany, [number]>(deps.sqlite, `${WITH_COMPANY} WHERE w.id = ?`).get(connectionId)
  if (!found) throw new AppError('ERR_NO_WAPP_FOUND', `No connection ${connectionId}`)
  return split(found)
}

export function operatorConnection(deps: Deps, connectionId: number) {
  const { row, companyName } = load(deps, connectionId)
  const { qrcode, pairingCode, expirationTime } = snapshot(row)
  return { ...operatorView(row, companyName), qrcode, pairingCode, expirationTime }
}

/** Pairs from the terminal: a fresh session that shows a QR code, or a pairing code for `phone`. */
export async function pairFromTerminal(deps: Deps, connectionId: number, phone?: string) {
  const { row } = load(deps, connectionId)
  await deps.channels.stop(connectionId)
  await deps.channels.start(row, { pairingPhone: phone })
  return operatorConnection(deps, connectionId)
}
