import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'

/**
 * A queue integration (spec 3): an external bot a queue hands its customers to (modules/queue-integrations).
 * `json_content` (Dialogflow's service account) is sealed (crypto/sealed.ts): the database alone does not hold
 * the private key in clear.
 */
export const queueIntegrations = sqliteTable(
  'queue_integrations',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['dialogflow', 'n8n', 'webhook', 'typebot'] }).notNull(),
    name: text('name').notNull(),
    projectName: text('project_name').notNull().default(''),
    /** Sealed service account JSON (dialogflow), '' otherwise. */
    jsonContent: text('json_content').notNull().default(''),
    language: text('language').notNull().default('pt-BR'),
    urlN8N: text('url_n8n').notNull().default(''),
    typebotSlug: text('typebot_slug').notNull().default(''),
    typebotExpires: integer('typebot_expires').notNull().default(1),
    typebotDelayMessage: integer('typebot_delay_message').notNull().default(1000),
    typebotKeywordFinish: text('typebot_keyword_finish').notNull().default(''),
    typebotKeywordRestart: text('typebot_keyword_restart').notNull().default(''),
    typebotRestartMessage: text('typebot_restart_message').notNull().default(''),
    typebotUnknownMessage: text('typebot_unknown_message').notNull().default(''),
    ...timestamps,
  },
  (t) => [index('queue_integrations_company_name').on(t.companyId, t.name)],
)
