import type { Harness } from '../../test/harness'
import { type CampaignRunnerOptions, resetCampaignRunner } from './runner'

export const SEC = 1000
export const MIN = 60 * SEC
export const HOUR = 60 * MIN

/** A contact list of the company with these people (raw rows: the contact-lists area owns the table). */
export function makeContactList(
  h: Harness,
  companyId: number,
  people: { name: string; number: string; email?: string }[],
) {
  const now = h.clock.now()
  const list = h.deps.sqlite
    .query<{ id: number }, [number, string, number, number]>(
      'INSERT INTO contact_lists (company_id, name, created_at, updated_at) VALUES (?, ?, ?, ?) RETURNING id',
    )
    .get(companyId, `Lista ${now}`, now, now)!
  for (const p of people)
    h.deps.sqlite
      .query(
        `INSERT INTO contact_list_items (company_id, contact_list_id, name, number, email, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(companyId, list.id, p.name, p.number, p.email ?? '', now, now)
  return list.id
}

/** Sets campaign settings rows (values as JSON). */
export function setCampaignSettings(h: Harness, companyId: number, values: Record<string, unknown>) {
  const now = h.clock.now()
  for (const [key, value] of Object.entries(values))
    h.deps.sqlite
      .query(
        `INSERT INTO campaign_settings (company_id, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (company_id, key) DO UPDATE SET value = excluded.value`,
      )
      .run(companyId, key, JSON.stringify(value), now, now)
}

/** A paired sandbox connection of company A, an admin client and a started runner. */
export async function sandboxSetup(h: Harness, options: Partial<CampaignRunnerOptions> = {}) {
  const admin = await h.as(h.a.admin)
  const { body: connection } = await admin.post('/whatsapp', { name: 'Campanhas', provider: 'sandbox' })
  await admin.post(`/sandbox/connections/${connection.id}/pair`)
  const runner = resetCampaignRunner(h.deps, { random: () => 0.5, ...options })
  await runner.start()
  return { admin, connection: connection as { id: number }, runner }
}

/** Numbers 5511999990001.. (never ending in 0 unless asked). */
export function people(n: number, from = 1) {
  return Array.from({ length: n }, (_, i) => {
    const k = from + i
    return { name: `Pessoa ${k}`, number: `55119999${String(k * 10 + 1).padStart(5, '0')}` }
  })
}

export function shippings(h: Harness, campaignId: number) {
  return h.deps.sqlite
    .query<
      {
        id: number
        number: string
        state: string
        message: string
        deliveredAt: number | null
        error: string | null
      },
      [number]
    >(
      `SELECT id, number, state, message, delivered_at AS deliveredAt, error FROM campaign_shippings
        WHERE campaign_id = ? ORDER BY id`,
    )
    .all(campaignId)
}

/** Moves the manual clock in steps, letting the runner's promises settle. */
export async function advance(h: Harness, ms: number, step = 500) {
  for (let done = 0; done < ms; done += step) await h.clock.tick(Math.min(step, ms - done))
}
