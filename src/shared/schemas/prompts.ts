import { type } from 'arktype'
import {
  PROMPT_KEY_MAX,
  PROMPT_MAX_MESSAGES,
  PROMPT_MAX_TOKENS,
  PROMPT_MODEL_MAX,
  PROMPT_NAME_MAX,
  PROMPT_REGION_MAX,
  PROMPT_TEMPERATURE_MAX,
  PROMPT_TEXT_MAX,
  PROMPT_URL_MAX,
  PROMPT_VOICES,
} from '../prompts'
import { text } from './common'

const voice = type.enumerated(...PROMPT_VOICES).or('null')

/**
 * `POST /prompt` and `PUT /prompt/{id}`. `apiKey` and `voiceKey`: absent or the masked text an answer showed
 * keeps the stored key; '' removes it. `baseUrl` and `model`: '' or absent for the server's defaults. The
 * queue must be one of the company's (the service checks).
 */
export const promptBody = type({
  '+': 'delete',
  name: text(1, PROMPT_NAME_MAX),
  prompt: text(1, PROMPT_TEXT_MAX),
  queueId: '1 <= number.integer <= 9007199254740991',
  'maxTokens?': `1 <= number.integer <= ${PROMPT_MAX_TOKENS} | null`,
  'temperature?': `0 <= number <= ${PROMPT_TEMPERATURE_MAX} | null`,
  'maxMessages?': `1 <= number.integer <= ${PROMPT_MAX_MESSAGES} | null`,
  'voice?': voice,
  'voiceKey?': `string <= ${PROMPT_KEY_MAX} | null`,
  'voiceRegion?': `string <= ${PROMPT_REGION_MAX} | null`,
  'apiKey?': `string <= ${PROMPT_KEY_MAX} | null`,
  'baseUrl?': `string <= ${PROMPT_URL_MAX} | null`,
  'model?': `string <= ${PROMPT_MODEL_MAX} | null`,
})
export type PromptInput = typeof promptBody.infer

/** `GET /prompt/`: search (name) and page. */
export { pageQuery as listPromptsQuery } from './common'
