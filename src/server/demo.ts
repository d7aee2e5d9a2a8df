import { eq } from 'drizzle-orm'
import { generatePassword } from './bootstrap'
import type { Deps } from './context'
import { transact } from './context'
import { companies, plans, queues, userQueues, whatsappQueues, whatsapps } from './db/schema'
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
  const exists = deps.db
    .select({ id: companies.id })
    .from(companies)
    .where(eq(companies.name, DEMO_COMPANY_NAME))
    .get()
  if (exists) return null
  const generated = password ? null : generatePassword(12)
  const passwordHash = await hashPassword(password ?? generated!)
  const now = deps.clock.now()
  const companyId = transact(deps, (tx) => {
    const plan = tx.select().from(plans).orderBy(plans.id).get()
    if (!plan) throw new Error('bootstrap must run first')
    const company = tx
      .insert(companies)
      .values({
        name: DEMO_COMPANY_NAME,
        email: DEMO_ADMIN_EMAIL,
        planId: plan.id,
        dueDate: null,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get()
    ensureDefaultSettings(tx, company.id, now)
    const [suporte, vendas] = [
      { name: 'Suporte', color: '#3284FE', orderQueue: 1, greetingMessage: 'Olá! Em que podemos ajudar?' },
      {
        name: 'Vendas',
        color: '#16A34A',
        orderQueue: 2,
        greetingMessage: 'Olá! Quer conhecer nossos planos?',
      },
    ].map((q) =>
      tx
        .insert(queues)
        .values({ ...q, companyId: company.id, createdAt: now, updatedAt: now })
        .returning()
        .get(),
    )
    insertUser(
      tx,
      company.id,
      { name: 'Ana Demo', email: DEMO_ADMIN_EMAIL, profile: 'admin', passwordHash },
      now,
    )
    const attendant = insertUser(
      tx,
      company.id,
      { name: 'Bruno Atendente', email: DEMO_ATTENDANT_EMAIL, profile: 'user', passwordHash },
      now,
    )
    tx.insert(userQueues).values({ userId: attendant.id, queueId: suporte!.id }).run()
    const connection = tx
      .insert(whatsapps)
      .values({
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
      .returning()
      .get()
    tx.insert(whatsappQueues)
      .values([suporte!, vendas!].map((q) => ({ whatsappId: connection.id, queueId: q.id })))
      .run()
    return company.id
  })
  return {
    companyId,
    adminEmail: DEMO_ADMIN_EMAIL,
    attendantEmail: DEMO_ATTENDANT_EMAIL,
    generatedPassword: generated,
  }
}
