/**
 * AI prompts (spec 3): an assistant's instructions and settings (model, tokens, temperature, how many of the
 * ticket's last messages it reads, voice) for a queue of the company. Admins of a company whose plan has
 * useOpenAi manage them (the routes say so); the prompt bot (bot.ts) runs them for the queues and connections
 * that name one, and transcription (transcription.ts) uses their key.
 *
 * `apiKey` and `voiceKey` are sealed in the database (crypto/sealed.ts) and never leave the server: answers
 * and live events carry them masked (maskKey) with a flag saying whether one is set; a save that leaves a key
 * out or sends the mask back keeps the stored one, '' removes it. Changes are live to the company's admins
 * (`company-{id}-prompt`). Deleting one lets go of the queues and connections that named it.
 */

import type { Database } from 'bun:sqlite'
import type { Paged } from '../../../shared/api'
import { AppError, fieldError } from '../../../shared/errors'
import type { CompanyEvents } from '../../../shared/live'
import {
  isHttpUrl,
  maskKey,
  PROMPT_DEFAULTS,
  PROMPT_VOICES,
  type PromptDto,
  type PromptVoice,
} from '../../../shared/prompts'
import type { PromptInput } from '../../../shared/schemas/prompts'
import { isoString } from '../../clock'
import type { Ctx, Deps } from '../../context'
import { transact, userActor } from '../../context'
import { open, seal } from '../../crypto/sealed'
import { listPage, pageWindow } from '../../db/paging'
import { stmt } from '../../db/statements'
import type { EventBuffer } from '../../realtime/hub'
import { channel, rooms } from '../../realtime/rooms'

export const PROMPTS_PAGE_SIZE = 20

type RawPrompt = {
  id: number
  companyId: number
  name: string
  prompt: string
  queueId: number | null
  queueName: string | null
  maxTokens: number
  temperature: number
  maxMessages: number
  voice: string
  voiceKey: string
  voiceRegion: string
  apiKey: string
  baseUrl: string
  model: string
  createdAt: number
  updatedAt: number
}

/** A prompt as the bot and transcription read it: the keys opened ('' when none or unreadable). */
export type PromptConfig = Omit<RawPrompt, 'queueName' | 'voice'> & { voice: PromptVoice }

const COLUMNS = `p.id, p.company_id AS companyId, p.name, p.prompt, p.queue_id AS queueId, q.name AS queueName,
  p.max_tokens AS maxTokens, p.temperature, p.max_messages AS maxMessages, p.voice, p.voice_key AS voiceKey,
  p.voice_region AS voiceRegion, p.api_key AS apiKey, p.base_url AS baseUrl, p.model,
  p.created_at AS createdAt, p.updated_at AS updatedAt`

/** A prompt with its queue's name. */
const TABLES = 'prompts p LEFT JOIN queues q ON q.id = p.queue_id AND q.company_id = p.company_id'
const FROM = `FROM ${TABLES}`

const SEARCH = '($term IS NULL OR instr(lower(p.name), lower($term)) > 0)'

const notFound = () => new AppError('ERR_NO_PROMPT_FOUND', 'Prompt not found')

const voiceOf = (value: string): PromptVoice =>
  (PROMPT_VOICES as readonly string[]).includes(value) ? (value as PromptVoice) : PROMPT_DEFAULTS.voice

function openKey(deps: Pick<Deps, 'secrets'>, sealed: string): string {
  if (!sealed) return ''
  return open(deps.secrets, sealed) ?? ''
}

function toDto(deps: Pick<Deps, 'secrets'>, row: RawPrompt): PromptDto {
  const apiKey = openKey(deps, row.apiKey)
  const voiceKey = openKey(deps, row.voiceKey)
  return {
    id: row.id,
    companyId: row.companyId,
    name: row.name,
    prompt: row.prompt,
    queueId: row.queueId,
    queue: row.queueId != null && row.queueName != null ? { id: row.queueId, name: row.queueName } : null,
    maxTokens: row.maxTokens,
    temperature: row.temperature,
    maxMessages: row.maxMessages,
    voice: voiceOf(row.voice),
    voiceKey: maskKey(voiceKey),
    voiceKeySet: !!row.voiceKey,
    voiceRegion: row.voiceRegion,
    apiKey: maskKey(apiKey),
    apiKeySet: !!row.apiKey,
    baseUrl: row.baseUrl,
    model: row.model,
    createdAt: isoString(row.createdAt),
    updatedAt: isoString(row.updatedAt),
  }
}

function findRow(sqlite: Database, companyId: number, id: number): RawPrompt | null {
  return stmt<RawPrompt, [number, number]>(
    sqlite,
    `SELECT ${COLUMNS} ${FROM} WHERE p.id = ? AND p.company_id = ?`,
  ).get(id, companyId)
}

/** The one way to load a prompt: another company's id is simply not found. */
function getRow(sqlite: Database, companyId: number, id: number): RawPrompt {
  const row = findRow(sqlite, companyId, id)
  if (!row) throw notFound()
  return row
}

/** Whether a prompt of this company exists (the queues' and connections' selectors). */
export function promptExists(sqlite: Database, companyId: number, id: number): boolean {
  return !!stmt<{ id: number }, [number, number]>(
    sqlite,
    'SELECT id FROM prompts WHERE id = ? AND company_id = ?',
  ).get(id, companyId)
}

function configOf(deps: Pick<Deps, 'secrets'>, row: RawPrompt): PromptConfig {
  const { queueName: _q, voice, apiKey, voiceKey, ...rest } = row
  return { ...rest, voice: voiceOf(voice), apiKey: openKey(deps, apiKey), voiceKey: openKey(deps, voiceKey) }
}

/** The prompt a bot runs (its company's only), keys opened, or null. */
export function promptConfig(
  deps: Pick<Deps, 'sqlite' | 'secrets'>,
  companyId: number,
  id: number,
): PromptConfig | null {
  const row = findRow(deps.sqlite, companyId, id)
  return row ? configOf(deps, row) : null
}

/**
 * The prompt whose key transcribes a ticket's audio: the one its queue names, else one made for its queue,
 * else the company's first with a key; null when the company has none with a key.
 */
export function transcriptionPrompt(
  deps: Pick<Deps, 'sqlite' | 'secrets'>,
  companyId: number,
  queueId: number | null,
): PromptConfig | null {
  const candidates: (RawPrompt | null)[] = []
  if (queueId != null) {
    candidates.push(
      stmt<RawPrompt, [number, number]>(
        deps.sqlite,
        `SELECT ${COLUMNS} ${FROM} WHERE p.company_id = ?2 AND p.api_key <> ''
            AND p.id = (SELECT prompt_id FROM queues WHERE id = ?1 AND company_id = ?2)`,
      ).get(queueId, companyId),
      stmt<RawPrompt, [number, number]>(
        deps.sqlite,
        `SELECT ${COLUMNS} ${FROM} WHERE p.queue_id = ?1 AND p.company_id = ?2 AND p.api_key <> ''
          ORDER BY p.id LIMIT 1`,
      ).get(queueId, companyId),
    )
  }
  candidates.push(
    stmt<RawPrompt, [number]>(
      deps.sqlite,
      `SELECT ${COLUMNS} ${FROM} WHERE p.company_id = ? AND p.api_key <> '' ORDER BY p.id LIMIT 1`,
    ).get(companyId),
  )
  for (const row of candidates) {
    if (!row) continue
    const config = configOf(deps, row)
    if (config.apiKey) return config
  }
  return null
}

function publish(events: EventBuffer, companyId: number, data: CompanyEvents['prompt']) {
  events.publish(rooms.admins(companyId), channel(companyId, 'prompt'), data)
}

type Stored = {
  name: string
  prompt: string
  queueId: number
  maxTokens: number
  temperature: number
  maxMessages: number
  voice: string
  voiceKey: string
  voiceRegion: string
  apiKey: string
  baseUrl: string
  model: string
}

/**
 * A key from the form, sealed: absent (undefined or null) or the mask of the stored one keeps it; '' removes it;
 * anything else is the new key.
 */
function keyOf(ctx: Pick<Deps, 'secrets'>, sent: string | null | undefined, storedSealed: string): string {
  if (sent == null) return storedSealed
  const value = sent.trim()
  if (!value) return ''
  if (storedSealed && value === maskKey(openKey(ctx, storedSealed))) return storedSealed
  return seal(ctx.secrets, value)
}

function storedOf(ctx: Ctx, companyId: number, input: PromptInput, current: RawPrompt | null): Stored {
  const queue = stmt<{ id: number }, [number, number]>(
    ctx.sqlite,
    'SELECT id FROM queues WHERE id = ? AND company_id = ?',
  ).get(input.queueId, companyId)
  if (!queue) throw fieldError('queueId', 'No such queue in this company')
  const baseUrl = input.baseUrl?.trim() ?? ''
  if (baseUrl && !isHttpUrl(baseUrl)) throw fieldError('baseUrl', 'must be an http or https URL')
  return {
    name: input.name,
    prompt: input.prompt,
    queueId: input.queueId,
    maxTokens: input.maxTokens ?? PROMPT_DEFAULTS.maxTokens,
    temperature: input.temperature ?? PROMPT_DEFAULTS.temperature,
    maxMessages: input.maxMessages ?? PROMPT_DEFAULTS.maxMessages,
    voice: input.voice ?? PROMPT_DEFAULTS.voice,
    voiceKey: keyOf(ctx, input.voiceKey, current?.voiceKey ?? ''),
    voiceRegion: input.voiceRegion?.trim() ?? '',
    apiKey: keyOf(ctx, input.apiKey, current?.apiKey ?? ''),
    baseUrl: baseUrl.replace(/\/+$/, ''),
    model: input.model?.trim() ?? '',
  }
}

type ListParams = { companyId: number; term: string | null }

/** `GET /prompt/`: the company's prompts, 20 a page by name, searched in the name. */
export function listPrompts(
  ctx: Ctx,
  query: { searchParam?: string; pageNumber?: number },
): Paged<'prompts', PromptDto> {
  const actor = userActor(ctx)
  const at = pageWindow(query.pageNumber, PROMPTS_PAGE_SIZE)
  const params: ListParams = { companyId: actor.companyId, term: query.searchParam?.trim() || null }
  const page = listPage<RawPrompt, ListParams>(
    ctx.sqlite,
    {
      columns: COLUMNS,
      from: TABLES,
      countFrom: 'prompts p',
      where: `p.company_id = $companyId AND ${SEARCH}`,
      order: 'ORDER BY p.name COLLATE NOCASE, p.id',
    },
    params,
    at,
  )
  return { prompts: page.rows.map((r) => toDto(ctx, r)), count: page.count, hasMore: page.hasMore }
}

export function getPrompt(ctx: Ctx, id: number): PromptDto {
  return toDto(ctx, getRow(ctx.sqlite, userActor(ctx).companyId, id))
}

export function createPrompt(ctx: Ctx, input: PromptInput): PromptDto {
  const actor = userActor(ctx)
  const values = storedOf(ctx, actor.companyId, input, null)
  return transact(ctx, (sqlite, events) => {
    const now = ctx.clock.now()
    const { id } = stmt<{ id: number }, [Stored & { companyId: number; now: number }]>(
      sqlite,
      `INSERT INTO prompts (company_id, name, prompt, queue_id, max_tokens, temperature, max_messages, voice,
              voice_key, voice_region, api_key, base_url, model, created_at, updated_at)
         VALUES ($companyId, $name, $prompt, $queueId, $maxTokens, $temperature, $maxMessages, $voice, $voiceKey,
              $voiceRegion, $apiKey, $baseUrl, $model, $now, $now) RETURNING id`,
    ).get({ ...values, companyId: actor.companyId, now })!
    const prompt = toDto(ctx, getRow(sqlite, actor.companyId, id))
    publish(events, actor.companyId, { action: 'create', prompt })
    return prompt
  })
}

export function updatePrompt(ctx: Ctx, id: number, input: PromptInput): PromptDto {
  const actor = userActor(ctx)
  const current = getRow(ctx.sqlite, actor.companyId, id)
  const values = storedOf(ctx, actor.companyId, input, current)
  return transact(ctx, (sqlite, events) => {
    getRow(sqlite, actor.companyId, id)
    stmt<unknown, [Stored & { id: number; now: number }]>(
      sqlite,
      `UPDATE prompts SET name = $name, prompt = $prompt, queue_id = $queueId, max_tokens = $maxTokens,
              temperature = $temperature, max_messages = $maxMessages, voice = $voice, voice_key = $voiceKey,
              voice_region = $voiceRegion, api_key = $apiKey, base_url = $baseUrl, model = $model,
              updated_at = $now
        WHERE id = $id`,
    ).run({ ...values, id, now: ctx.clock.now() })
    const prompt = toDto(ctx, getRow(sqlite, actor.companyId, id))
    publish(events, actor.companyId, { action: 'update', prompt })
    return prompt
  })
}

export function deletePrompt(ctx: Ctx, id: number): void {
  const actor = userActor(ctx)
  transact(ctx, (sqlite, events) => {
    getRow(sqlite, actor.companyId, id)
    stmt(sqlite, 'UPDATE queues SET prompt_id = NULL WHERE company_id = ? AND prompt_id = ?').run(
      actor.companyId,
      id,
    )
    stmt(sqlite, 'UPDATE whatsapps SET prompt_id = NULL WHERE company_id = ? AND prompt_id = ?').run(
      actor.companyId,
      id,
    )
    stmt(sqlite, 'DELETE FROM prompts WHERE id = ?').run(id)
    publish(events, actor.companyId, { action: 'delete', promptId: id })
  })
}
