import { index, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { timestamps } from './columns'
import { companies } from './companies'
import { queues } from './queues'

/**
 * An AI prompt (spec 3): the instructions and settings of an assistant that answers a queue's (or a
 * connection's) customers through an OpenAI-compatible chat-completions endpoint (modules/prompts). `api_key`
 * and `voice_key` are sealed (crypto/sealed.ts) and never leave the server; '' means none. `base_url` and
 * `model` empty mean the server's defaults (BALCAO_AI_BASE_URL, BALCAO_AI_MODEL).
 */
export const prompts = sqliteTable(
  'prompts',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prompt: text('prompt').notNull().default(''),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    maxTokens: integer('max_tokens').notNull().default(100),
    temperature: real('temperature').notNull().default(1),
    maxMessages: integer('max_messages').notNull().default(10),
    voice: text('voice').notNull().default('texto'),
    voiceKey: text('voice_key').notNull().default(''),
    voiceRegion: text('voice_region').notNull().default(''),
    apiKey: text('api_key').notNull().default(''),
    baseUrl: text('base_url').notNull().default(''),
    model: text('model').notNull().default(''),
    ...timestamps,
  },
  (t) => [index('prompts_company_name').on(t.companyId, t.name)],
)
