/**
 * Baileys auth state kept in SQLite: the creds of a connection in `wa_auth_creds` and its Signal keys in
 * `wa_auth_keys`, both as BufferJSON text. Reads and writes go through prepared statements (they are hot:
 * every inbound and outbound message touches sessions and keys), and a `set` call is one synchronous
 * transaction, so a crash or a throwing value never leaves half of a key batch behind.
 */
import type { Database, Statement } from 'bun:sqlite'
import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStore,
} from '@whiskeysockets/baileys'
import type { Clock } from '../../clock'
import type { DB } from '../../db/client'

export type AuthStoreDeps = { db: DB; sqlite: Database; clock: Clock }

export type SqliteAuthState = {
  /** Hand this to `makeWASocket({ auth })` (wrap `keys` with `makeCacheableSignalKeyStore`). */
  state: AuthenticationState
  /** Writes the whole current `state.creds` (Baileys mutates it in place on `creds.update`). */
  saveCreds(): void
  /** Deletes every key and the creds of this connection (logout). Build a new auth state afterwards. */
  clear(): void
  /** Whether creds were already stored: a restart resumes without a new QR. */
  hasCreds: boolean
}

/** The most ids bound in one `IN (...)`; SQLite allows 32766 variables, this keeps statements small. */
export const MAX_IDS_PER_SELECT = 500
/**
 * `IN` lists are padded (repeating the last id) up to one of these sizes, so a handful of prepared
 * statements serve every call instead of one per distinct id count.
 */
const IN_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, MAX_IDS_PER_SELECT] as const

type KeyRow = { key_id: string; value: string }

/** Prepared statements shared by every connection on one database handle. */
type Statements = {
  select: Map<number, Statement<KeyRow>>
  upsert: Statement
  remove: Statement
  clearKeys: Statement
  clearCreds: Statement
  readCreds: Statement<{ creds: string }>
  writeCreds: Statement
}

const prepared = new WeakMap<Database, Statements>()

function statementsFor(sqlite: Database): Statements {
  let s = prepared.get(sqlite)
  if (s) return s
  const select = new Map<number, Statement<KeyRow>>()
  for (const size of IN_BUCKETS) {
    const marks = new Array(size).fill('?').join(',')
    select.set(
      size,
      sqlite.query<KeyRow, (string | number)[]>(
        `SELECT key_id, value FROM wa_auth_keys WHERE whatsapp_id = ? AND type = ? AND key_id IN (${marks})`,
      ),
    )
  }
  s = {
    select,
    upsert: sqlite.query(
      `INSERT INTO wa_auth_keys (whatsapp_id, type, key_id, value, updated_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (whatsapp_id, type, key_id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    ),
    remove: sqlite.query('DELETE FROM wa_auth_keys WHERE whatsapp_id = ? AND type = ? AND key_id = ?'),
    clearKeys: sqlite.query('DELETE FROM wa_auth_keys WHERE whatsapp_id = ?'),
    clearCreds: sqlite.query('DELETE FROM wa_auth_creds WHERE whatsapp_id = ?'),
    readCreds: sqlite.query<{ creds: string }, [number]>(
      'SELECT creds FROM wa_auth_creds WHERE whatsapp_id = ?',
    ),
    writeCreds: sqlite.query(
      `INSERT INTO wa_auth_creds (whatsapp_id, creds, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (whatsapp_id) DO UPDATE SET creds = excluded.creds, updated_at = excluded.updated_at`,
    ),
  }
  prepared.set(sqlite, s)
  return s
}

function bucketFor(n: number) {
  for (const size of IN_BUCKETS) if (n <= size) return size
  return MAX_IDS_PER_SELECT
}

const serialize = (value: unknown) => JSON.stringify(value, BufferJSON.replacer)
const revive = (text: string) => JSON.parse(text, BufferJSON.reviver)

/**
 * Reads (or creates, with `initAuthCreds()`) the auth state of one connection. Creds created here are
 * not written until `saveCreds()`; keys are written as Baileys sets them.
 */
export async function createSqliteAuthState(
  deps: AuthStoreDeps,
  whatsappId: number,
): Promise<SqliteAuthState> {
  const { sqlite, clock } = deps
  const st = statementsFor(sqlite)

  const stored = st.readCreds.get(whatsappId)
  const creds: AuthenticationCreds = stored ? revive(stored.creds) : initAuthCreds()

  const get = <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
    const out: { [id: string]: SignalDataTypeMap[T] } = {}
    for (let start = 0; start < ids.length; start += MAX_IDS_PER_SELECT) {
      const chunk = ids.slice(start, start + MAX_IDS_PER_SELECT)
      const size = bucketFor(chunk.length)
      const params: (string | number)[] = [whatsappId, type, ...chunk]
      const last = chunk[chunk.length - 1] as string
      for (let i = chunk.length; i < size; i++) params.push(last)
      const select = st.select.get(size) as Statement<KeyRow>
      for (const row of select.all(...params)) {
        let value = revive(row.value)
        if (type === 'app-state-sync-key' && value) {
          value = proto.Message.AppStateSyncKeyData.fromObject(value)
        }
        out[row.key_id] = value
      }
    }
    return out
  }

  const writeBatch = sqlite.transaction((data: SignalDataSet) => {
    const now = clock.now()
    for (const type of Object.keys(data) as (keyof SignalDataTypeMap)[]) {
      const entries = data[type]
      if (!entries) continue
      for (const id of Object.keys(entries)) {
        const value = entries[id]
        if (value === null || value === undefined) st.remove.run(whatsappId, type, id)
        else st.upsert.run(whatsappId, type, id, serialize(value), now)
      }
    }
  })

  const clearKeys = () => {
    st.clearKeys.run(whatsappId)
  }

  const keys: SignalKeyStore = {
    get,
    set: (data) => {
      writeBatch(data)
    },
    clear: clearKeys,
  }

  return {
    state: { creds, keys },
    hasCreds: !!stored,
    saveCreds: () => {
      st.writeCreds.run(whatsappId, serialize(creds), clock.now())
    },
    clear: sqlite.transaction(() => {
      st.clearKeys.run(whatsappId)
      st.clearCreds.run(whatsappId)
    }) as () => void,
  }
}
