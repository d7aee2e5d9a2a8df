/**
 * Queue integrations (spec 3): an external bot a queue hands its customers to — Dialogflow, n8n, a webhook or
 * Typebot. Shared by the API, the dispatcher and the web page.
 */
export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const
export type IntegrationType = (typeof INTEGRATION_TYPES)[number]

/** The languages a Dialogflow agent is asked in. */
export const INTEGRATION_LANGUAGES = ['pt-BR', 'en', 'es'] as const
export type IntegrationLanguage = (typeof INTEGRATION_LANGUAGES)[number]

export const INTEGRATION_NAME_MIN = 2
export const INTEGRATION_NAME_MAX = 50
export const INTEGRATION_URL_MAX = 500
export const INTEGRATION_PROJECT_MAX = 100
export const INTEGRATION_SLUG_MAX = 200
export const INTEGRATION_KEYWORD_MAX = 100
export const INTEGRATION_MESSAGE_MAX = 1000
export const INTEGRATION_JSON_MAX = 20_000
/** Typebot: minutes of silence after which the next message starts a new session (0: never). */
export const TYPEBOT_EXPIRES_MAX = 10_080
/** Typebot: milliseconds between the messages of one answer. */
export const TYPEBOT_DELAY_MAX = 60_000

export const INTEGRATION_DEFAULTS = {
  language: 'pt-BR' as IntegrationLanguage,
  typebotExpires: 1,
  typebotDelayMessage: 1000,
}

/** What stands for the service account's private key in every answer (the key never leaves the server). */
export const PRIVATE_KEY_MASK = '********'

/** The types whose name is copied to projectName and which need a URL. */
export function usesUrl(type: IntegrationType): boolean {
  return type !== 'dialogflow'
}

/** An http(s) URL, or false. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname
  } catch {
    return false
  }
}

export type QueueIntegrationDto = {
  id: number
  companyId: number
  type: IntegrationType
  name: string
  projectName: string
  /** Dialogflow's service account JSON, its private_key replaced by PRIVATE_KEY_MASK; '' for the others. */
  jsonContent: string
  language: IntegrationLanguage
  urlN8N: string
  typebotSlug: string
  typebotExpires: number
  typebotDelayMessage: number
  typebotKeywordFinish: string
  typebotKeywordRestart: string
  typebotRestartMessage: string
  typebotUnknownMessage: string
  createdAt: string
  updatedAt: string
}
