import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'

const flag = (name: string) => integer(name, { mode: 'boolean' }).notNull().default(true)

export const plans = sqliteTable(
  'plans',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    /** Monthly price in BRL cents. */
    valueCents: integer('value_cents').notNull().default(0),
    users: integer('users').notNull().default(0),
    connections: integer('connections').notNull().default(0),
    queues: integer('queues').notNull().default(0),
    useWhatsapp: flag('use_whatsapp'),
    useFacebook: flag('use_facebook'),
    useInstagram: flag('use_instagram'),
    useCampaigns: flag('use_campaigns'),
    useSchedules: flag('use_schedules'),
    useInternalChat: flag('use_internal_chat'),
    useExternalApi: flag('use_external_api'),
    useKanban: flag('use_kanban'),
    useOpenAi: flag('use_open_ai'),
    useIntegrations: flag('use_integrations'),
    ...timestamps,
  },
  (t) => [uniqueIndex('plans_name_unique').on(t.name)],
)

export type PlanRow = typeof plans.$inferSelect
