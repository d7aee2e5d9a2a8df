/**
 * Queue integrations (spec 3): an external bot a queue hands its customers to — Dialogflow (a service account),
 * n8n or a webhook (a URL that gets each message), Typebot (its public chat API). Admins of a company with the
 * plan flag useIntegrations manage them (the routes say so); the dispatcher (bots/dispatch.ts) runs them.
 *
 * Dialogflow's service account is sealed in the database (crypto/sealed.ts) and its private key never leaves
 * the server: answers show PRIVATE_KEY_MASK instead, and a save or a test that sends the mask back keeps the
 * stored key. Changes are live to the company's admins (`company-{id}-queueIntegration`). Deleting one lets go
 * of the queues and connections that named it.
 */

import type { Database } from 'bun:sqlite'
import type { Paged } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { CompanyEvents } from '../../../shared/live'
import {
  INTEGRATION_DEFAULTS,
  isHttpUrl,
  PRIVATE_KEY_MASK,
  type QueueIntegrationDto,
  usesUrl,
} from '../../../shared/queue-integrations'
import type { QueueIntegrationInput, TestSessionInput } from '../../../shared/schemas/queue-integrations'
import { isoString } from '../../clock'
import type { Ctx, Deps } from '../../context'
import { transact, userActor } from '../../context'
import { seal } from '../../crypto/sealed'
import { listPage, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import { OutboundError } from '../../net/guarded-fetch'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'
import { COLUMNS, languageOf, openAccount, type RawIntegration } from './config'
import { detectIntent } from './dialogflow'
import { parseServiceAccount, type ServiceAccount } from './service-account'

export const QUEUE_INTEGRATIONS_PAGE_SIZE = 20

const SEARCH = `($term IS NULL OR instr(lower(i.name), lower($term)) > 0)`

const notFound = () => new AppError('ERR_NO_QUEUE_INTEGRATION_FOUND', 'Queue integration not found')

/** The service account as the browser sees it: the private key masked. */
export function maskedAccount(account: ServiceAccount | null): string {
  if (!account) return ''
  return JSON.stringify({ ...account.raw, private_key: PRIVATE_KEY_MASK }, null, 2)
}

function toDto(deps: Pick<Deps, 'secrets'>, row: RawIntegration): QueueIntegrationDto {
  return {
    id: row.id,
    companyId: row.companyId,
    type: row.type,
    name: row.name,
    projectName: row.projectName,
    jsonContent: row.type === 'dialogflow' ? maskedAccount(openAccount(deps, row.jsonContent)) : '',
    language: languageOf(row.language),
    urlN8N: row.urlN8N,
    typebotSlug: row.typebotSlug,
    typebotExpires: row.typebotExpires,
    typebotDelayMessage: row.typebotDelayMessage,
    typebotKeywordFinish: row.typebotKeywordFinish,
    typebotKeywordRestart: row.typebotKeywordRestart,
    typebotRestartMessage: row.typebotRestartMessage,
    typebotUnknownMessage: row.typebotUnknownMessage,
    createdAt: isoString(row.createdAt),
    updatedAt: isoString(row.updatedAt),
  }
}

/** The one way to load an integration: another company's id is simply not found. */
function getRow(sqlite: Database, companyId: number, id: number): RawIntegration {
  const row = stmt<RawIntegration, [number, number]>(
    sqlite,
    `SELECT ${COLUMNS} FROM queue_integrations i WHERE i.id = ? AND i.company_id = ?`,
  ).get(id, companyId)
  if (!row) throw notFound()
  return row
}

/** Whether an integration of this company exists (the queues' selector). */
export function integrationExists(sqlite: Database, companyId: number, id: number): boolean {
  return !!stmt<{ id: number }, [number, number]>(
    sqlite,
    'SELECT id FROM queue_integrations WHERE id = ? AND company_id = ?',
  ).get(id, companyId)
}

function publish(events: EventBuffer, companyId: number, data: CompanyEvents['queueIntegration']) {
  events.publish(rooms.admins(companyId), channel(companyId, 'queueIntegration'), data)
}

/**
 * A service account from the form: the JSON must hold client_email, private_key and project_id; a masked key
 * stands for the stored one (`stored`), if any.
 */
function accountOf(jsonContent: string | null | undefined, stored: ServiceAccount | null): ServiceAccount {
  const text = jsonContent?.trim() ?? ''
  if (!text) throw fieldError('jsonContent', 'must be the service account JSON')
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw fieldError('jsonContent', 'must be valid JSON')
  }
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const key = (parsed as Record<string, unknown>).private_key
    if (key === PRIVATE_KEY_MASK) {
      if (!stored) throw fieldError('jsonContent', 'private_key: paste the full private key')
      ;(parsed as Record<string, unknown>).private_key = stored.privateKey
    }
  }
  const tokenUri = (parsed as Record<string, unknown> | null)?.token_uri
  if (tokenUri != null && !(typeof tokenUri === 'string' && (!tokenUri.trim() || isHttpUrl(tokenUri.trim()))))
    throw fieldError('jsonContent', 'token_uri must be an http or https URL')
  const account = parseServiceAccount(JSON.stringify(parsed))
  if (!account) throw fieldError('jsonContent', 'must hold client_email, private_key and project_id')
  return account
}

type Stored = Omit<RawIntegration, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>

/** The row a valid input becomes (type rules of spec 3 §5). */
function storedOf(ctx: Ctx, input: QueueIntegrationInput, current: RawIntegration | null): Stored {
  const type = input.type
  const url = input.urlN8N?.trim() ?? ''
  const slug = input.typebotSlug?.trim() ?? ''
  const base = {
    type,
    name: input.name,
    language: input.language ?? INTEGRATION_DEFAULTS.language,
    urlN8N: '',
    typebotSlug: '',
    typebotExpires: input.typebotExpires ?? INTEGRATION_DEFAULTS.typebotExpires,
    typebotDelayMessage: input.typebotDelayMessage ?? INTEGRATION_DEFAULTS.typebotDelayMessage,
    typebotKeywordFinish: input.typebotKeywordFinish?.trim() ?? '',
    typebotKeywordRestart: input.typebotKeywordRestart?.trim() ?? '',
    typebotRestartMessage: input.typebotRestartMessage ?? '',
    typebotUnknownMessage: input.typebotUnknownMessage ?? '',
  }
  if (usesUrl(type)) {
    if (!url) throw fieldError('urlN8N', 'is required')
    if (!isHttpUrl(url)) throw fieldError('urlN8N', 'must be an http or https URL')
    if (type === 'typebot' && !slug) throw fieldError('typebotSlug', 'is required')
    if (type === 'typebot' && /[/?#\s]/.test(slug))
      throw fieldError('typebotSlug', 'must be the bot public id, without slashes or spaces')
    return {
      ...base,
      projectName: input.name,
      jsonContent: '',
      urlN8N: url,
      typebotSlug: type === 'typebot' ? slug : '',
    }
  }
  const stored = current?.type === 'dialogflow' ? openAccount(ctx, current.jsonContent) : null
  const account = accountOf(input.jsonContent, stored)
  return {
    ...base,
    projectName: input.projectName?.trim() || account.projectId,
    jsonContent: seal(ctx.secrets, JSON.stringify(account.raw)),
  }
}

type ListParams = { companyId: number; term: string | null }

/** `GET /queueIntegration/`: the company's integrations, 20 a page by name, searched in the name. */
export function listQueueIntegrations(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'queueIntegrations', QueueIntegrationDto> {
  const actor = userActor(ctx)
  const at = pageWindow(query.pageNumber, QUEUE_INTEGRATIONS_PAGE_SIZE)
  const params: ListParams = { companyId: actor.companyId, term: query.searchParam?.trim() || null }
  const page = listPage<RawIntegration, ListParams>(
    ctx.sqlite,
    {
      columns: COLUMNS,
      from: 'queue_integrations i',
      where: `i.company_id = $companyId AND ${SEARCH}`,
      order: 'ORDER BY i.name COLLATE NOCASE, i.id',
    },
    params,
    at,
  )
  return { queueIntegrations: page.rows.map((r) => toDto(ctx, r)), count: page.count, hasMore: page.hasMore }
}

export function getQueueIntegration(ctx: Ctx, id: number): QueueIntegrationDto {
  return toDto(ctx, getRow(ctx.sqlite, userActor(ctx).companyId, id))
}

const WRITE_COLUMNS = `type = $type, name = $name, project_name = $projectName, json_content = $jsonContent,
  language = $language, url_n8n = $urlN8N, typebot_slug = $typebotSlug, typebot_expires = $typebotExpires,
  typebot_delay_message = $typebotDelayMessage, typebot_keyword_finish = $typebotKeywordFinish,
  typebot_keyword_restart = $typebotKeywordRestart, typebot_restart_message = $typebotRestartMessage,
  typebot_unknown_message = $typebotUnknownMessage, updated_at = $now`

export function createQueueIntegration(ctx: Ctx, input: QueueIntegrationInput): QueueIntegrationDto {
  const actor = userActor(ctx)
  const values = storedOf(ctx, input, null)
  return transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    const { id } = stmt<{ id: number }, [Stored & { companyId: number; now: number }]>(
      sqlite,
      `INSERT INTO queue_integrations (company_id, type, name, project_name, json_content, language, url_n8n,
              typebot_slug, typebot_expires, typebot_delay_message, typebot_keyword_finish, typebot_keyword_restart,
              typebot_restart_message, typebot_unknown_message, created_at, updated_at)
         VALUES ($companyId, $type, $name, $projectName, $jsonContent, $language, $urlN8N, $typebotSlug,
              $typebotExpires, $typebotDelayMessage, $typebotKeywordFinish, $typebotKeywordRestart,
              $typebotRestartMessage, $typebotUnknownMessage, $now, $now) RETURNING id`,
    ).get({ ...values, companyId: actor.companyId, now })!
    const queueIntegration = toDto(ctx, getRow(sqlite, actor.companyId, id))
    publish(events, actor.companyId, { action: 'create', queueIntegration })
    return queueIntegration
  })
}

export function updateQueueIntegration(
  ctx: Ctx,
  id: number,
  input: QueueIntegrationInput,
): QueueIntegrationDto {
  const actor = userActor(ctx)
  const current = getRow(ctx.sqlite, actor.companyId, id)
  const values = storedOf(ctx, input, current)
  return transact(ctx, (sqlite, events) => {
    getRow(sqlite, actor.companyId, id)
    stmt<unknown, [Stored & { id: number; now: number }]>(
      sqlite,
      `UPDATE queue_integrations SET ${WRITE_COLUMNS} WHERE id = $id`,
    ).run({ ...values, id, now: ctx.clock.now() })
    const queueIntegration = toDto(ctx, getRow(sqlite, actor.companyId, id))
    publish(events, actor.companyId, { action: 'update', queueIntegration })
    return queueIntegration
  })
}

export function deleteQueueIntegration(ctx: Ctx, id: number): void {
  const actor = userActor(ctx)
  transact(ctx, (sqlite, events) => {
    getRow(sqlite, actor.companyId, id)
    stmt(sqlite, 'UPDATE queues SET integration_id = NULL WHERE company_id = ? AND integration_id = ?').run(
      actor.companyId,
      id,
    )
    stmt(
      sqlite,
      'UPDATE whatsapps SET integration_id = NULL WHERE company_id = ? AND integration_id = ?',
    ).run(actor.companyId, id)
    stmt(sqlite, 'DELETE FROM queue_integrations WHERE id = ?').run(id)
    publish(events, actor.companyId, { action: 'delete', integrationId: id })
  })
}

export const TEST_SESSION_TIMEOUT_MS = 10_000

/**
 * `POST /queueIntegration/testSession`: a detectIntent with 'Olá' through the given service account (a masked key
 * is the saved integration's, `id`). Answers the agent's reply; a refusal or no answer is a 502 with the reason.
 */
export async function testSession(
  ctx: Ctx,
  input: TestSessionInput,
): Promise<{ message: string; reply: string; intent: string | null }> {
  const actor = userActor(ctx)
  let stored: ServiceAccount | null = null
  if (input.id != null) {
    const row = getRow(ctx.sqlite, actor.companyId, input.id)
    if (row.type === 'dialogflow') stored = openAccount(ctx, row.jsonContent)
  }
  const account = accountOf(input.jsonContent, stored)
  const projectId = input.projectName?.trim() || account.projectId
  const controller = new AbortController()
  const timer = ctx.clock.setTimeout(
    () => controller.abort(new Error(`no answer within ${TEST_SESSION_TIMEOUT_MS / 1000} s`)),
    TEST_SESSION_TIMEOUT_MS,
  )
  try {
    const result = await detectIntent(ctx, {
      account,
      projectId,
      sessionId: `balcao-test-${actor.companyId}-${ctx.clock.now()}`,
      text: 'Olá',
      language: input.language ?? INTEGRATION_DEFAULTS.language,
      signal: controller.signal,
    })
    return { message: 'Session test succeeded', reply: result.replies.join('\n'), intent: result.intent }
  } catch (err) {
    // What the remote server wrote goes to the log only: the URL is the tenant's, the answer anyone's.
    const outbound = err instanceof OutboundError ? err : null
    ctx.log.warn('dialogflow test session failed', {
      companyId: actor.companyId,
      error: outbound?.detail ?? (err as Error)?.message ?? String(err),
    })
    if (outbound?.refused)
      throw new AppError(
        'ERR_URL_NOT_ALLOWED',
        `The service account's URL may not be reached: ${outbound.message}`,
      )
    const reason = controller.signal.aborted
      ? `no answer within ${TEST_SESSION_TIMEOUT_MS / 1000} s`
      : // our own words (a key that cannot sign, no token in the answer), never the remote text
        outbound?.message || (err as Error)?.message || 'unknown error'
    throw new AppError('ERR_INTEGRATION_TEST_FAILED', `Dialogflow refused the test: ${reason}`)
  } finally {
    ctx.clock.clearTimeout(timer)
  }
}
