/**
 * Spreadsheet imports, into a contact list or into the company's contacts, as durable jobs. The upload parses
 * the file and stores its rows on a `spreadsheet_imports` row (state 'pending'); the per-server runner applies
 * them IMPORT_CHUNK rows per transaction, committing the progress with the rows, and yields to the event loop
 * between chunks, so other requests go on during a 10,000-row import. Each chunk publishes the job
 * (`spreadsheetImport`, to the user who started it); a restart resumes unfinished jobs where they stopped.
 *
 * Rules (the same for both targets): a row needs a name (2 to 50) and a number (8 to 50 characters, at least 8
 * digits); an email, when given, must be valid. A number seen on an earlier row of the file is rejected
 * ('duplicateInFile'). Against what is stored: a list keeps the item it has and rejects the row ('alreadyInList'),
 * so a list never holds a number twice; contacts are matched by number key (both forms of a Brazilian mobile)
 * and the existing contact is updated (its name, and its email when the row has one).
 */

import type { Database } from 'bun:sqlite'
import {
  IMPORT_REPORT_LIMIT,
  type ImportRejection,
  type ImportState,
  type SpreadsheetImportDto,
} from '../../../shared/contact-lists'
import { AppError } from '../../../shared/errors'
import { isoString } from '../../clock'
import type { Ctx, Deps } from '../../context'
import { transact } from '../../context'
import type { Job } from '../../jobs/registry'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'
import { validityChecker } from './checker'
import { checkRow, type SheetRow } from './rows'
import { contactListInCompany, publishList } from './service'

/** Rows per transaction: small enough that one chunk holds the event loop for a few milliseconds. */
export const IMPORT_CHUNK = 100

type Target = 'contactList' | 'contacts'

type RawJob = {
  id: number
  companyId: number
  userId: number | null
  target: Target
  contactListId: number | null
  fileName: string
  state: ImportState
  total: number
  processed: number
  created: number
  updated: number
  rejectedCount: number
  rejected: string
  error: string | null
  createdAt: number
  updatedAt: number
}

const JOB_COLUMNS = `id, company_id AS companyId, user_id AS userId, target, contact_list_id AS contactListId,
  file_name AS fileName, state, total, processed, created, updated, rejected_count AS rejectedCount, rejected,
  error, created_at AS createdAt, updated_at AS updatedAt`

function toJobDto(r: RawJob): SpreadsheetImportDto {
  return {
    id: r.id,
    target: r.target,
    contactListId: r.contactListId,
    fileName: r.fileName,
    state: r.state,
    total: r.total,
    processed: r.processed,
    created: r.created,
    updated: r.updated,
    rejectedCount: r.rejectedCount,
    rejected: JSON.parse(r.rejected) as ImportRejection[],
    error: r.error,
    createdAt: isoString(r.createdAt),
    updatedAt: isoString(r.updatedAt),
  }
}

function jobRow(sqlite: Database, id: number): RawJob | null {
  return sqlite.query<RawJob, [number]>(`SELECT ${JOB_COLUMNS} FROM spreadsheet_imports WHERE id = ?`).get(id)
}

function publishJob(events: EventBuffer, job: RawJob) {
  if (job.userId == null) return
  events.publish(rooms.user(job.companyId, job.userId), channel(job.companyId, 'spreadsheetImport'), {
    action: 'update',
    job: toJobDto(job),
  })
}

/** A job of the actor's company (another company's id is not found). */
export function getImportJob(ctx: Ctx, id: number): SpreadsheetImportDto {
  const row = jobRow(ctx.sqlite, id)
  if (!row || row.companyId !== ctx.actor.companyId)
    throw new AppError('ERR_NO_IMPORT_FOUND', 'Import not found')
  return toJobDto(row)
}

/** Spreadsheets read at once on one server: each holds a worker and the file's expanded workbook in memory. */
export const MAX_PARSES = 2

const parsing = new WeakMap<object, Set<number>>()

/**
 * Runs `read` (reading an upload and storing its job) holding the company's import slot: a company with a file
 * being read, or with a job not yet applied, is refused (409), and so is anyone past MAX_PARSES files read at
 * once on this server (429). The slot is held until the job row exists, which then keeps the company's turn.
 */
export async function withImportSlot<T>(ctx: Ctx, read: () => Promise<T>): Promise<T> {
  let busy = parsing.get(ctx.sqlite)
  if (!busy) {
    busy = new Set()
    parsing.set(ctx.sqlite, busy)
  }
  const { companyId } = ctx.actor
  const unfinished = ctx.sqlite
    .query<{ id: number }, [number]>(
      "SELECT id FROM spreadsheet_imports WHERE company_id = ? AND state IN ('pending', 'running') LIMIT 1",
    )
    .get(companyId)
  if (busy.has(companyId) || unfinished)
    throw new AppError('ERR_IMPORT_IN_PROGRESS', 'An import is already running for this company')
  if (busy.size >= MAX_PARSES)
    throw new AppError('ERR_IMPORTS_BUSY', 'The server is reading other spreadsheets: try again shortly')
  busy.add(companyId)
  try {
    return await read()
  } finally {
    busy.delete(companyId)
  }
}

/** Stores the parsed rows as a pending job and starts it; answers the job (state 'pending'). */
export function startImport(
  ctx: Ctx,
  target: Target,
  contactListId: number | null,
  fileName: string,
  rows: SheetRow[],
): SpreadsheetImportDto {
  const { companyId } = ctx.actor
  const userId = ctx.actor.kind === 'user' ? ctx.actor.userId : null
  const job = transact(ctx, (sqlite, events) => {
    if (contactListId != null) contactListInCompany(sqlite, companyId, contactListId)
    const now = ctx.clock.now()
    const { id } = sqlite
      .query<{ id: number }, (string | number | null)[]>(
        `INSERT INTO spreadsheet_imports (company_id, user_id, target, contact_list_id, file_name, state, total, rows,
           created_at, updated_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?) RETURNING id`,
      )
      .get(
        companyId,
        userId,
        target,
        contactListId,
        fileName.slice(0, 200),
        rows.length,
        JSON.stringify(rows),
        now,
        now,
      )!
    const row = jobRow(sqlite, id)!
    publishJob(events, row)
    return row
  })
  importRunner(ctx).enqueue(job.id)
  return toJobDto(job)
}

type Applied = { created: number; updated: number; rejected: ImportRejection[] }

/** Applies rows to a list: new numbers are inserted, numbers the list holds are reported (never twice). */
function applyToList(
  sqlite: Database,
  job: RawJob,
  rows: SheetRow[],
  seen: Set<string>,
  now: number,
): Applied {
  const out: Applied = { created: 0, updated: 0, rejected: [] }
  const insert = sqlite.query<{ id: number }, [number, number, string, string, string, number, number]>(
    `INSERT INTO contact_list_items (company_id, contact_list_id, name, number, email, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (contact_list_id, number) DO NOTHING RETURNING id`,
  )
  for (const r of rows) {
    const checked = checkRow(r)
    if (!checked.ok) {
      out.rejected.push(checked.rejection)
      continue
    }
    if (seen.has(checked.key)) {
      out.rejected.push({ row: r.row, field: 'number', reason: 'duplicateInFile' })
      continue
    }
    seen.add(checked.key)
    const inserted = insert.get(
      job.companyId,
      job.contactListId!,
      checked.name,
      checked.key,
      checked.email,
      now,
      now,
    )
    if (inserted) out.created++
    else out.rejected.push({ row: r.row, field: 'number', reason: 'alreadyInList' })
  }
  return out
}

/** Applies rows to the company's contacts: a number key already there updates that contact. */
function applyToContacts(
  sqlite: Database,
  job: RawJob,
  rows: SheetRow[],
  seen: Set<string>,
  now: number,
): Applied {
  const out: Applied = { created: 0, updated: 0, rejected: [] }
  const find = sqlite.query<{ id: number }, [number, string]>(
    'SELECT id FROM contacts WHERE company_id = ? AND number_key = ?',
  )
  const update = sqlite.query<unknown, [string, string, string, number, number]>(
    "UPDATE contacts SET name = ?, email = CASE WHEN ? = '' THEN email ELSE ? END, updated_at = ? WHERE id = ?",
  )
  const insert = sqlite.query<unknown, [number, string, string, string, string, string, number, number]>(
    `INSERT INTO contacts (company_id, uuid, name, number, number_key, email, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  for (const r of rows) {
    const checked = checkRow(r)
    if (!checked.ok) {
      out.rejected.push(checked.rejection)
      continue
    }
    if (seen.has(checked.key)) {
      out.rejected.push({ row: r.row, field: 'number', reason: 'duplicateInFile' })
      continue
    }
    seen.add(checked.key)
    const existing = find.get(job.companyId, checked.key)
    if (existing) {
      update.run(checked.name, checked.email, checked.email, now, existing.id)
      out.updated++
    } else {
      insert.run(
        job.companyId,
        crypto.randomUUID(),
        checked.name,
        checked.key,
        checked.key,
        checked.email,
        now,
        now,
      )
      out.created++
    }
  }
  return out
}

/** The keys of the valid rows before `processed`: what a resumed job has already seen. */
function seenBefore(rows: SheetRow[], processed: number): Set<string> {
  const seen = new Set<string>()
  for (let i = 0; i < processed && i < rows.length; i++) {
    const checked = checkRow(rows[i]!)
    if (checked.ok) seen.add(checked.key)
  }
  return seen
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

type Runner = { enqueue(id: number): void; idle(): Promise<void>; stop(): Promise<void> }

/** One runner per server: jobs run one at a time, in the order they came. */
export function importRunner(deps: Deps): Runner {
  return deps.jobs.use('imports', () => newImportRunner(deps))
}

function newImportRunner(deps: Deps): Runner {
  const queue: number[] = []
  let current: Promise<void> | null = null
  let stopped = false

  const runJob = async (id: number) => {
    const start = jobRow(deps.sqlite, id)
    if (!start || start.state === 'done' || start.state === 'failed') return
    const system = { ...deps, actor: { kind: 'system' as const, companyId: start.companyId } }
    const text = deps.sqlite
      .query<{ rows: string | null }, [number]>('SELECT rows FROM spreadsheet_imports WHERE id = ?')
      .get(id)
    const rows = JSON.parse(text?.rows ?? '[]') as SheetRow[]
    const seen = seenBefore(rows, start.processed)
    let processed = start.processed
    try {
      while (true) {
        const chunk = rows.slice(processed, processed + IMPORT_CHUNK)
        const finished = transact(system, (sqlite, events) => {
          const job = jobRow(sqlite, id)
          if (!job) return true // the list was deleted with its imports
          const now = deps.clock.now()
          const applied =
            job.target === 'contactList'
              ? applyToList(sqlite, job, chunk, seen, now)
              : applyToContacts(sqlite, job, chunk, seen, now)
          const report = (JSON.parse(job.rejected) as ImportRejection[]).concat(applied.rejected)
          processed = Math.min(rows.length, processed + chunk.length)
          const done = processed >= rows.length
          sqlite
            .query(
              `UPDATE spreadsheet_imports SET state = ?, processed = ?, created = created + ?, updated = updated + ?,
                 rejected_count = rejected_count + ?, rejected = ?, rows = CASE WHEN ? THEN NULL ELSE rows END,
                 updated_at = ? WHERE id = ?`,
            )
            .run(
              done ? 'done' : 'running',
              processed,
              applied.created,
              applied.updated,
              applied.rejected.length,
              JSON.stringify(report.slice(0, IMPORT_REPORT_LIMIT)),
              done ? 1 : 0,
              now,
              id,
            )
          const after = jobRow(sqlite, id)!
          publishJob(events, after)
          if (done && job.contactListId != null) {
            events.publish(rooms.admins(job.companyId), channel(job.companyId, 'ContactListItem'), {
              action: 'reload',
              contactListId: job.contactListId,
            })
            publishList(events, contactListInCompany(sqlite, job.companyId, job.contactListId), 'update')
          }
          return done
        })
        if (finished) break
        // Stopping: the committed progress is where the next start goes on.
        if (stopped) return
        await yieldToLoop()
      }
      if (start.target === 'contactList') validityChecker(deps).kick(start.companyId)
    } catch (err) {
      deps.log.warn('spreadsheet import failed', { importId: id, error: (err as Error).message })
      transact(system, (sqlite, events) => {
        sqlite
          .query(
            "UPDATE spreadsheet_imports SET state = 'failed', error = ?, rows = NULL, updated_at = ? WHERE id = ?",
          )
          .run((err as Error).message.slice(0, 500), deps.clock.now(), id)
        const after = jobRow(sqlite, id)
        if (after) publishJob(events, after)
      })
    }
  }

  const drain = async () => {
    while (queue.length > 0 && !stopped) await runJob(queue.shift()!)
    current = null
  }

  const runner: Runner = {
    enqueue(id) {
      queue.push(id)
      // The first chunk waits a turn of the loop: the upload's answer goes out before any row is applied.
      if (!current) current = yieldToLoop().then(drain)
    },
    idle: async () => {
      while (current) await current
    },
    stop: async () => {
      stopped = true
      queue.length = 0
      await current
    },
  }
  return runner
}

/** The imports as a background job: the start resumes them; the stop ends the one under way after its chunk. */
export function importsJob(deps: Deps): Job {
  return { start: () => resumeImports(deps), stop: () => importRunner(deps).stop() }
}

/** At boot: unfinished jobs continue where their last committed chunk left them. */
export function resumeImports(deps: Deps) {
  const ids = deps.sqlite
    .query<{ id: number }, []>(
      "SELECT id FROM spreadsheet_imports WHERE state IN ('pending', 'running') ORDER BY id",
    )
    .all()
  for (const { id } of ids) importRunner(deps).enqueue(id)
}
