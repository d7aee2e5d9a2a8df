import { asc, eq } from 'drizzle-orm'
import { AppError } from '../../../shared/errors'
import { snapshot } from '../../channels/manager'
import type { Deps } from '../../context'
import { companies, type WhatsappRow, whatsapps } from '../../db/schema'

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

export function listAllConnections(deps: Deps) {
  return deps.db
    .select({ row: whatsapps, companyName: companies.name })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .orderBy(asc(companies.name), asc(whatsapps.name))
    .all()
    .map(({ row, companyName }) => operatorView(row, companyName))
}

function load(deps: Deps, connectionId: number) {
  const found = deps.db
    .select({ row: whatsapps, companyName: companies.name })
    .from(whatsapps)
    .innerJoin(companies, eq(companies.id, whatsapps.companyId))
    .where(eq(whatsapps.id, connectionId))
    .get()
  if (!found) throw new AppError('ERR_NO_WAPP_FOUND', `No connection ${connectionId}`)
  return found
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
