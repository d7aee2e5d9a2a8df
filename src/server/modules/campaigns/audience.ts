/**
 * Who a campaign reaches: its contact list's items or its tag's contacts, written once as shipping rows (one per
 * number) with the message variant chosen for each and its variables filled; and which rows a reply's number is.
 */
import type { Database } from 'bun:sqlite'
import { readSettings, type SettingsSource } from './pacing'
import type { CampaignDbRow } from './service'

/** The campaign's audience as shipping rows, and the campaign marked prepared (inside the caller's transaction). */
export function prepareShippings(
  deps: SettingsSource,
  row: CampaignDbRow,
  now: number,
  random: () => number,
) {
  const { sqlite } = deps
  const audience = audienceOf(sqlite, row)
  const settings = readSettings(deps, row.companyId)
  const messages = [row.message1, row.message2, row.message3, row.message4, row.message5]
  const confirmations = [
    row.confirmationMessage1,
    row.confirmationMessage2,
    row.confirmationMessage3,
    row.confirmationMessage4,
    row.confirmationMessage5,
  ]
  const variants = messages.map((m, i) => [m, i + 1] as const).filter(([m]) => m.trim())
  const confirmationVariants = confirmations.filter((m) => m.trim())
  const insert = sqlite.query(
    `INSERT OR IGNORE INTO campaign_shippings (campaign_id, company_id, contact_list_item_id, contact_id, number,
         name, email, state, message, confirmation_message, variant, error, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  for (const person of audience) {
    const number = person.number.replace(/\D/g, '')
    if (!number) continue
    const [template, variant] = variants[pick(random, variants.length)] ?? ['', 1]
    const confirmation = row.confirmation
      ? (confirmationVariants[pick(random, confirmationVariants.length)] ?? '')
      : ''
    const vars = { nome: person.name, numero: number, email: person.email }
    const known = person.isWhatsappValid === 0
    insert.run(
      row.id,
      row.companyId,
      person.itemId,
      person.contactId,
      number,
      person.name,
      person.email,
      known ? 'invalid' : 'pending',
      fillVariables(template, vars, settings.variables),
      fillVariables(confirmation, vars, settings.variables),
      variant,
      known ? 'ERR_WAPP_INVALID_CONTACT: the number is not on WhatsApp' : null,
      now,
      now,
    )
  }
  sqlite.query('UPDATE campaigns SET prepared_at = ? WHERE id = ?').run(now, row.id)
}

type Person = {
  itemId: number | null
  contactId: number | null
  name: string
  number: string
  email: string
  isWhatsappValid: number | null
}

/** The contact list's items, or the contacts of the tag (not groups). */
export function audienceOf(sqlite: Database, row: CampaignDbRow): Person[] {
  if (row.contactListId != null)
    return sqlite
      .query<Person, [number, number]>(
        `SELECT id AS itemId, NULL AS contactId, name, number, email, is_whatsapp_valid AS isWhatsappValid
           FROM contact_list_items WHERE contact_list_id = ? AND company_id = ? ORDER BY id`,
      )
      .all(row.contactListId, row.companyId)
  if (row.tagListId != null)
    return sqlite
      .query<Person, [number, number]>(
        `SELECT NULL AS itemId, c.id AS contactId, c.name, c.number, c.email, NULL AS isWhatsappValid
           FROM contact_tags ct JOIN contacts c ON c.id = ct.contact_id
          WHERE ct.tag_id = ? AND c.company_id = ? AND c.is_group = 0 AND c.number != '' ORDER BY c.id`,
      )
      .all(row.tagListId, row.companyId)
  return []
}

function pick(random: () => number, n: number) {
  if (n <= 1) return 0
  return Math.min(n - 1, Math.floor(random() * n))
}

/** `{nome}`, `{numero}`, `{email}` and the settings' custom variables (`{key}`); unknown braces stay. */
export function fillVariables(
  text: string,
  vars: { nome: string; numero: string; email: string },
  custom: { key: string; value: string }[],
): string {
  const map = new Map<string, string>(Object.entries(vars))
  for (const v of custom) if (!map.has(v.key)) map.set(v.key, v.value)
  return text.replace(/\{([^{}]{1,50})\}/g, (all, key: string) => map.get(key) ?? all)
}

/** A Brazilian mobile with and without its ninth digit (55 + DDD + 9 + 8 digits), else the number alone. */
export function brazilianForms(n: string): string[] {
  if (/^55\d{2}9\d{8}$/.test(n)) return [n, n.slice(0, 4) + n.slice(5)]
  if (/^55\d{2}\d{8}$/.test(n)) return [n, `${n.slice(0, 4)}9${n.slice(4)}`]
  return [n]
}
