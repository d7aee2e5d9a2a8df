/**
 * The WhatsApp check of contact list items (the green or grey icon). Items start unknown (is_whatsapp_valid
 * null); a per-server background loop asks the company's default connection (or else any connected one) about
 * CHECK_BATCH numbers at a time, CHECK_PAUSE_MS apart on the injected clock, so a 10,000-row import does not hammer
 * WhatsApp. The unknown column is the durable state: with no connection up the loop stops and the items stay
 * grey; the next item change, import or look at the list (or a restart, `resumeValidityChecks`) kicks it again.
 */
import type { Deps } from '../../context'
import { transact } from '../../context'
import type { Job } from '../../jobs/registry'
import { type ConnectionDoor, doorOf } from '../outbound/door'
import { publishItem as publishItemRow } from './live'

export const CHECK_BATCH = 25
export const CHECK_PAUSE_MS = 2_000

type Checker = { kick(companyId: number): void; running(companyId: number): boolean; stop(): Promise<void> }

/** The door of the company's default connection (else any connected one), when one is connected now. */
function connectedDoor(deps: Deps, companyId: number): ConnectionDoor | undefined {
  const ids = deps.sqlite
    .query<{ id: number }, [number]>(
      'SELECT id FROM whatsapps WHERE company_id = ? ORDER BY is_default DESC, id',
    )
    .all(companyId)
  for (const { id } of ids) {
    const door = doorOf(deps, id)
    if (door.connected) return door
  }
  return undefined
}

type Unchecked = { id: number; number: string }

/** The server's one checker (per jobs registry). */
export function validityChecker(deps: Deps): Checker {
  return deps.jobs.use('checker', () => newChecker(deps))
}

function newChecker(deps: Deps): Checker {
  const active = new Map<number, Promise<void>>()
  let stopped = false
  // The pauses under way, so a stop need not wait them out.
  const pauses = new Set<() => void>()
  const pause = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        pauses.delete(done)
        deps.clock.clearTimeout(handle)
        resolve()
      }
      const handle = deps.clock.setTimeout(done, CHECK_PAUSE_MS)
      pauses.add(done)
    })

  const step = async (companyId: number): Promise<boolean> => {
    const door = connectedDoor(deps, companyId)
    if (!door) return false
    const batch = deps.sqlite
      .query<Unchecked, [number, number]>(
        `SELECT id, number FROM contact_list_items WHERE company_id = ? AND is_whatsapp_valid IS NULL ORDER BY id LIMIT ?`,
      )
      .all(companyId, CHECK_BATCH)
    if (batch.length === 0) return false
    const unique = [...new Set(batch.map((b) => b.number))]
    // A check is not a message: it takes a turn in the connection's line, uncounted (outbound/door.ts).
    const answers = await door.turn('conversation', (turn) => turn.check(unique))
    const exists = new Map(answers.map((a) => [a.phone, a.exists]))
    transact(deps, (sqlite, events) => {
      const now = deps.clock.now()
      for (const item of batch) {
        const valid = exists.get(item.number)
        if (valid === undefined) continue
        const row = sqlite
          .query<Parameters<typeof publishItemRow>[1], [number, number, number]>(
            `UPDATE contact_list_items SET is_whatsapp_valid = ?, updated_at = ? WHERE id = ? AND is_whatsapp_valid IS NULL
             RETURNING id, name, number, email, is_whatsapp_valid AS isWhatsappValid, company_id AS companyId,
               contact_list_id AS contactListId, created_at AS createdAt, updated_at AS updatedAt`,
          )
          .get(valid ? 1 : 0, now, item.id)
        if (row) publishItemRow(events, row, 'update')
      }
    })
    // A session that answered nothing for a number leaves it unknown; stop rather than ask again at once.
    return answers.length > 0
  }

  const loop = async (companyId: number) => {
    try {
      while (!stopped && (await step(companyId)) && !stopped) await pause()
    } catch (err) {
      deps.log.warn('contact list check failed', { companyId, error: (err as Error).message })
    } finally {
      active.delete(companyId)
    }
  }

  const checker: Checker = {
    kick(companyId) {
      if (stopped || active.has(companyId)) return
      active.set(companyId, loop(companyId))
    },
    running: (companyId) => active.has(companyId),
    // The unknown items stay unknown: the next start checks them.
    stop: async () => {
      stopped = true
      for (const wake of [...pauses]) wake()
      await Promise.all([...active.values()])
    },
  }
  return checker
}

/** The checks as a background job: the start resumes them; the stop ends each loop after its batch. */
export function checkerJob(deps: Deps): Job {
  return { start: () => resumeValidityChecks(deps), stop: () => validityChecker(deps).stop() }
}

/** At boot: every company with unknown items gets its check going again (it stops at once if no connection is up). */
export function resumeValidityChecks(deps: Deps) {
  const companies = deps.sqlite
    .query<{ companyId: number }, []>(
      'SELECT DISTINCT company_id AS companyId FROM contact_list_items WHERE is_whatsapp_valid IS NULL',
    )
    .all()
  for (const { companyId } of companies) validityChecker(deps).kick(companyId)
}
