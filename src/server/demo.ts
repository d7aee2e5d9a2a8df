import { generatePassword } from './bootstrap'
import { insertConnectionRow } from './channels/connection-row'
import type { Deps } from './context'
import { transact } from './context'
import { stmt } from './db/statements'
import { newApiToken } from './modules/connections/service'
import { ensureDefaultSettings } from './modules/settings/service'
import { hashPassword, insertUser } from './modules/users/service'

export const DEMO_COMPANY_NAME = 'Demo Balcão'
export const DEMO_ADMIN_EMAIL = 'demo@balcao.local'
export const DEMO_ATTENDANT_EMAIL = 'atendente@balcao.local'

/**
 * With --sandbox on a fresh database: a company to try everything without a phone. Two queues, an admin
 * and an attendant (one password, from BALCAO_DEMO_PASSWORD or generated and printed once) and a sandbox
 * connection that pairs itself a few seconds after start-up.
 */
export async function createDemoCompany(deps: Deps, password?: string) {
  const exists = stmt<{ id: number }, [string]>(deps.sqlite, 'SELECT id FROM companies WHERE name = ?').get(
    DEMO_COMPANY_NAME,
  )
  if (exists) return null
  const generated = password ? null : generatePassword(12)
  const passwordHash = await hashPassword(password ?? generated!)
  const now = deps.clock.now()
  const companyId = transact(deps, (sqlite) => {
    const plan = stmt<{ id: number }, []>(sqlite, 'SELECT id FROM plans ORDER BY id LIMIT 1').get()
    if (!plan) throw new Error('bootstrap must run first')
    const company = stmt<{ id: number }, [string, string, number, number, number]>(
      sqlite,
      `INSERT INTO companies (name, email, plan_id, due_date, created_at, updated_at)
       VALUES (?, ?, ?, NULL, ?, ?) RETURNING id`,
    ).get(DEMO_COMPANY_NAME, DEMO_ADMIN_EMAIL, plan.id, now, now)!
    ensureDefaultSettings(sqlite, company.id, now)
    const [suporte, vendas] = [
      { name: 'Suporte', color: '#3284FE', orderQueue: 1, greetingMessage: 'Olá! Em que podemos ajudar?' },
      {
        name: 'Vendas',
        color: '#16A34A',
        orderQueue: 2,
        greetingMessage: 'Olá! Quer conhecer nossos planos?',
      },
    ].map(
      (q) =>
        stmt<{ id: number }, [string, string, number, string, number, number, number]>(
          sqlite,
          `INSERT INTO queues (name, color, order_queue, greeting_message, company_id, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
        ).get(q.name, q.color, q.orderQueue, q.greetingMessage, company.id, now, now)!,
    )
    insertUser(
      sqlite,
      company.id,
      { name: 'Ana Demo', email: DEMO_ADMIN_EMAIL, profile: 'admin', passwordHash },
      now,
    )
    const attendant = insertUser(
      sqlite,
      company.id,
      { name: 'Bruno Atendente', email: DEMO_ATTENDANT_EMAIL, profile: 'user', passwordHash },
      now,
    )
    stmt<unknown, [number, number]>(sqlite, 'INSERT INTO user_queues (user_id, queue_id) VALUES (?, ?)').run(
      attendant.id,
      suporte!.id,
    )
    const connection = insertConnectionRow(sqlite, {
      companyId: company.id,
      name: 'WhatsApp Demo',
      provider: 'sandbox',
      isDefault: true,
      // OPENING: the boot resumes it like any working session, so it pairs by itself.
      status: 'OPENING',
      greetingMessage: 'Olá, {{name}}! Escolha uma opção: 1 - Suporte, 2 - Vendas',
      token: newApiToken(),
      createdAt: now,
      updatedAt: now,
    })
    const link = stmt<unknown, [number, number]>(
      sqlite,
      'INSERT INTO whatsapp_queues (whatsapp_id, queue_id) VALUES (?, ?)',
    )
    for (const q of [suporte!, vendas!]) link.run(connection.id, q.id)
    return company.id
  })
  return {
    companyId,
    adminEmail: DEMO_ADMIN_EMAIL,
    attendantEmail: DEMO_ATTENDANT_EMAIL,
    generatedPassword: generated,
  }
}
