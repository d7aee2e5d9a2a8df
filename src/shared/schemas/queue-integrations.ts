import { type } from 'arktype'
import {
  INTEGRATION_JSON_MAX,
  INTEGRATION_KEYWORD_MAX,
  INTEGRATION_MESSAGE_MAX,
  INTEGRATION_NAME_MAX,
  INTEGRATION_NAME_MIN,
  INTEGRATION_PROJECT_MAX,
  INTEGRATION_SLUG_MAX,
  INTEGRATION_URL_MAX,
  TYPEBOT_DELAY_MAX,
  TYPEBOT_EXPIRES_MAX,
} from '../queue-integrations'
import { pageQuery, text } from './common'

const language = "'pt-BR' | 'en' | 'es'"

/**
 * `POST /queueIntegration` and `PUT /queueIntegration/{id}`. The rules that depend on the type (a URL for n8n,
 * webhook and typebot; the slug for typebot; the service account for dialogflow) are the service's.
 */
export const queueIntegrationBody = type({
  '+': 'delete',
  type: "'dialogflow' | 'n8n' | 'webhook' | 'typebot'",
  name: text(INTEGRATION_NAME_MIN, INTEGRATION_NAME_MAX),
  'projectName?': `string <= ${INTEGRATION_PROJECT_MAX} | null`,
  'jsonContent?': `string <= ${INTEGRATION_JSON_MAX} | null`,
  'language?': `${language} | null`,
  'urlN8N?': `string <= ${INTEGRATION_URL_MAX} | null`,
  'typebotSlug?': `string <= ${INTEGRATION_SLUG_MAX} | null`,
  'typebotExpires?': `0 <= number.integer <= ${TYPEBOT_EXPIRES_MAX} | null`,
  'typebotDelayMessage?': `0 <= number.integer <= ${TYPEBOT_DELAY_MAX} | null`,
  'typebotKeywordFinish?': `string <= ${INTEGRATION_KEYWORD_MAX} | null`,
  'typebotKeywordRestart?': `string <= ${INTEGRATION_KEYWORD_MAX} | null`,
  'typebotRestartMessage?': `string <= ${INTEGRATION_MESSAGE_MAX} | null`,
  'typebotUnknownMessage?': `string <= ${INTEGRATION_MESSAGE_MAX} | null`,
})
export type QueueIntegrationInput = typeof queueIntegrationBody.infer

/**
 * `POST /queueIntegration/testSession`: a Dialogflow service account to try. `id` (optional) names the saved
 * integration whose private key stands behind a masked one.
 */
export const testSessionBody = type({
  '+': 'delete',
  'projectName?': `string <= ${INTEGRATION_PROJECT_MAX} | null`,
  jsonContent: `string <= ${INTEGRATION_JSON_MAX}`,
  'language?': `${language} | null`,
  'id?': '1 <= number.integer <= 9007199254740991',
})
export type TestSessionInput = typeof testSessionBody.infer

/** `GET /queueIntegration/`: search (name) and page. */
export const listQueueIntegrationsQuery = pageQuery
