import type { Database } from 'bun:sqlite'
import { stmt } from './statements'

/**
 * A company's directory: the names every ticket shows beside its ids (its user, its queue with the colour, its
 * connection). Kept in memory per company and reread only when `directory_versions` says one of them was added,
 * renamed or removed (triggers keep that version, whichever process writes: schema/directory.ts). Reading the
 * version is one primary-key lookup; joining the three tables cost every row of every ticket list about 0.7 µs
 * under load (a 40-ticket page ~28 µs).
 */
export type Directory = {
  users: ReadonlyMap<number, string>
  queues: ReadonlyMap<number, { name: string; color: string }>
  whatsapps: ReadonlyMap<number, string>
}

type Kept = Directory & { version: number }

/** Companies kept per database; past this many the map starts over (a VPS serves tens, not thousands). */
const MAX_COMPANIES = 2000
const kept = new WeakMap<Database, Map<number, Kept>>()

const VERSION_SQL = 'SELECT version FROM directory_versions WHERE company_id = ?'

export function companyDirectory(sqlite: Database, companyId: number): Directory {
  const version = stmt<{ version: number }, [number]>(sqlite, VERSION_SQL).get(companyId)?.version ?? 0
  let byCompany = kept.get(sqlite)
  if (!byCompany) {
    byCompany = new Map()
    kept.set(sqlite, byCompany)
  }
  const known = byCompany.get(companyId)
  if (known && known.version === version) return known
  const directory = readDirectory(sqlite, companyId)
  // Inside a transaction the names may yet be rolled back, and the version with them: read, never kept.
  if (!sqlite.inTransaction) {
    if (byCompany.size >= MAX_COMPANIES) byCompany.clear()
    byCompany.set(companyId, { ...directory, version })
  }
  return directory
}

function readDirectory(sqlite: Database, companyId: number): Directory {
  const users = new Map<number, string>()
  for (const r of stmt<{ id: number; name: string }, [number]>(
    sqlite,
    'SELECT id, name FROM users WHERE company_id = ?',
  ).all(companyId))
    users.set(r.id, r.name)
  const queues = new Map<number, { name: string; color: string }>()
  for (const r of stmt<{ id: number; name: string; color: string }, [number]>(
    sqlite,
    'SELECT id, name, color FROM queues WHERE company_id = ?',
  ).all(companyId))
    queues.set(r.id, { name: r.name, color: r.color })
  const whatsapps = new Map<number, string>()
  for (const r of stmt<{ id: number; name: string }, [number]>(
    sqlite,
    'SELECT id, name FROM whatsapps WHERE company_id = ?',
  ).all(companyId))
    whatsapps.set(r.id, r.name)
  return { users, queues, whatsapps }
}
