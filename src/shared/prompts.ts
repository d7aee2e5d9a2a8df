/**
 * AI prompts (spec 3): an assistant that answers a queue's (or a connection's) customers through an
 * OpenAI-compatible chat-completions endpoint. Shared by the API, the prompt bot and the web page.
 */

/** 'texto' answers in text; the others are the spec's Brazilian neural voices (for spoken answers). */
export const PROMPT_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const
export type PromptVoice = (typeof PROMPT_VOICES)[number]

/** A voice's name as the selector shows it ('Francisca' for pt-BR-FranciscaNeural). */
export function voiceLabel(voice: PromptVoice): string {
  return voice === 'texto' ? 'Texto' : voice.replace(/^pt-BR-/, '').replace(/Neural$/, '')
}

export const PROMPT_DEFAULTS = {
  maxTokens: 100,
  temperature: 1,
  maxMessages: 10,
  voice: 'texto' as PromptVoice,
}

export const PROMPT_NAME_MAX = 100
export const PROMPT_TEXT_MAX = 20_000
export const PROMPT_MAX_TOKENS = 32_000
export const PROMPT_MAX_MESSAGES = 100
export const PROMPT_TEMPERATURE_MAX = 2
export const PROMPT_KEY_MAX = 500
export const PROMPT_URL_MAX = 500
export const PROMPT_MODEL_MAX = 100
export const PROMPT_REGION_MAX = 100

/** The API used when neither the prompt nor BALCAO_AI_BASE_URL names one. */
export const DEFAULT_AI_BASE_URL = 'https://api.openai.com/v1'
/** The model used when neither the prompt nor BALCAO_AI_MODEL names one. */
export const DEFAULT_AI_MODEL = 'gpt-4o-mini'
/** The transcription model when BALCAO_AI_TRANSCRIBE_MODEL names none. */
export const DEFAULT_TRANSCRIBE_MODEL = 'whisper-1'

/**
 * How a stored key is shown: its first three and last four characters around an ellipsis when it is long
 * enough to spare them, otherwise only the ellipsis; '' when there is none. An update that sends this text
 * back (or leaves the field out) keeps the stored key.
 */
export function maskKey(key: string): string {
  if (!key) return ''
  if (key.length >= 16) return `${key.slice(0, 3)}…${key.slice(-4)}`
  return '…'
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

export type PromptDto = {
  id: number
  companyId: number
  name: string
  prompt: string
  queueId: number | null
  queue: { id: number; name: string } | null
  maxTokens: number
  temperature: number
  maxMessages: number
  voice: PromptVoice
  /** The voice key masked (maskKey); '' when none. */
  voiceKey: string
  voiceKeySet: boolean
  voiceRegion: string
  /** The API key masked (maskKey); '' when none. */
  apiKey: string
  apiKeySet: boolean
  /** '' for the server's default (BALCAO_AI_BASE_URL, else the OpenAI API). */
  baseUrl: string
  /** '' for the server's default (BALCAO_AI_MODEL, else gpt-4o-mini). */
  model: string
  createdAt: string
  updatedAt: string
}

/**
 * The words that make the prompt bot hand the customer to a person without asking the model, matched as whole
 * words (or phrases), ignoring case and accents. Portuguese, English and Spanish.
 */
export const HANDOFF_WORDS = [
  'atendente',
  'humano',
  'humana',
  'pessoa',
  'falar com alguem',
  'falar com uma pessoa',
  'agent',
  'human',
  'person',
  'operator',
  'representative',
  'talk to someone',
  'agente',
  'persona',
  'operador',
  'hablar con alguien',
] as const

/** Lower case, accents dropped, anything but letters and digits as single spaces. */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}

/** Whether a customer's text asks for a person (HANDOFF_WORDS as whole words). */
export function asksForPerson(text: string): boolean {
  const folded = ` ${foldText(text)} `
  return HANDOFF_WORDS.some((w) => folded.includes(` ${w} `))
}

/** What the prompt bot says when it hands the customer to a person. */
export const HANDOFF_REPLY =
  'Certo! Vou transferir você para um de nossos atendentes. Aguarde um momento, por favor.'
