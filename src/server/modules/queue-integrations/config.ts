/**
 * An integration as the bots read it (webhook.ts, typebot.ts, dialogflow.ts) and the service stores it: below both,
 * so a bot reads its configuration without importing the service that manages it.
 */
import type { IntegrationLanguage, IntegrationType } from '../../../shared/queue-integrations'
import type { Deps } from '../../context'
import { open } from '../../crypto/sealed'
import { stmt } from '../../db/statements'
import { parseServiceAccount, type ServiceAccount } from './service-account'

export type RawIntegration = {
  id: number
  companyId: number
  type: IntegrationType
  name: string
  projectName: string
  jsonContent: string
  language: string
  urlN8N: string
  typebotSlug: string
  typebotExpires: number
  typebotDelayMessage: number
  typebotKeywordFinish: string
  typebotKeywordRestart: string
  typebotRestartMessage: string
  typebotUnknownMessage: string
  createdAt: number
  updatedAt: number
}

/** An integration as the bots read it: the service account opened (null when there is none or it cannot be opened). */
export type IntegrationConfig = Omit<RawIntegration, 'jsonContent' | 'language'> & {
  language: IntegrationLanguage
  account: ServiceAccount | null
}

export const COLUMNS = `i.id, i.company_id AS companyId, i.type, i.name, i.project_name AS projectName,
  i.json_content AS jsonContent, i.language, i.url_n8n AS urlN8N, i.typebot_slug AS typebotSlug,
  i.typebot_expires AS typebotExpires, i.typebot_delay_message AS typebotDelayMessage,
  i.typebot_keyword_finish AS typebotKeywordFinish, i.typebot_keyword_restart AS typebotKeywordRestart,
  i.typebot_restart_message AS typebotRestartMessage, i.typebot_unknown_message AS typebotUnknownMessage,
  i.created_at AS createdAt, i.updated_at AS updatedAt`

export const languageOf = (value: string): IntegrationLanguage =>
  value === 'en' || value === 'es' ? value : 'pt-BR'

export function openAccount(deps: Pick<Deps, 'secrets'>, sealed: string): ServiceAccount | null {
  if (!sealed) return null
  const plain = open(deps.secrets, sealed)
  return plain ? parseServiceAccount(plain) : null
}

/** The integration a bot runs (its company's only), or null. */
export function integrationConfig(
  deps: Pick<Deps, 'sqlite' | 'secrets'>,
  companyId: number,
  id: number,
): IntegrationConfig | null {
  const row = stmt<RawIntegration, [number, number]>(
    deps.sqlite,
    `SELECT ${COLUMNS} FROM queue_integrations i WHERE i.id = ? AND i.company_id = ?`,
  ).get(id, companyId)
  if (!row) return null
  const { jsonContent, language, ...rest } = row
  return {
    ...rest,
    language: languageOf(language),
    account: row.type === 'dialogflow' ? openAccount(deps, jsonContent) : null,
  }
}
