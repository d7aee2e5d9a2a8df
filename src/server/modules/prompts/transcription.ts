/**
 * Audio transcription through the company's AI endpoint (`POST {baseUrl}/audio/transcriptions`, model
 * BALCAO_AI_TRANSCRIBE_MODEL, default whisper-1) with the key of a prompt of the company: the one the ticket's
 * queue names, else one made for that queue, else the company's first with a key (service.ts,
 * `transcriptionPrompt`). None is ERR_AI_NOT_CONFIGURED (400); a base URL whose address the server may not reach
 * is ERR_URL_NOT_ALLOWED (400); a refusal or no answer within 30 s is ERR_AI_REQUEST_FAILED (502) with a generic
 * reason (the status class, timed out, unreachable): what the endpoint wrote goes to the log only.
 *
 * - `POST /test/audio` (spec 1): a multipart audio file (`audio`, `file` or `medias`) -> `{ text }`.
 * - `POST /messages/{id}/transcribe`: a received voice note or audio the user may see; the text is kept on the
 *   message (`messages.transcription`), published as an `appMessage` update, and the message answered.
 */

import type { MessageDto } from '../../../shared/api'
import { AppError } from '../../../shared/errors'
import type { Ctx, Deps } from '../../context'
import { transact, userActor } from '../../context'
import { mediaFilePath } from '../../media/store'
import type { UploadedMedia } from '../../media/upload'
import { loadMessageDtos } from '../messages/dto'
import { publishMessageUpdates } from '../messages/live'
import { actorScope, assertCanSeeTicket } from '../tickets/access'
import { AI_TIMEOUT_MS, AiRequestError, endpointOf, transcribeAudio, transcribeModelOf } from './ai-client'
import { transcriptionPrompt } from './service'

export type TranscribeOptions = { timeoutMs?: number }

const notConfigured = () =>
  new AppError(
    'ERR_AI_NOT_CONFIGURED',
    'Transcription needs an AI prompt with an API key in this company (Prompts)',
  )

async function transcribe(
  deps: Pick<Deps, 'sqlite' | 'secrets' | 'clock' | 'env' | 'log'>,
  companyId: number,
  queueId: number | null,
  audio: { bytes: Uint8Array; name: string; mime: string },
  options: TranscribeOptions,
): Promise<string> {
  const prompt = transcriptionPrompt(deps, companyId, queueId)
  if (!prompt) throw notConfigured()
  const endpoint = { ...endpointOf(deps.env, prompt), model: transcribeModelOf(deps.env) }
  try {
    return await transcribeAudio(deps, endpoint, audio, { timeoutMs: options.timeoutMs ?? AI_TIMEOUT_MS })
  } catch (err) {
    const known = err instanceof AiRequestError
    deps.log.warn('transcription failed', {
      companyId,
      promptId: prompt.id,
      error: known ? err.detail : String((err as Error)?.message ?? err),
    })
    if (known && err.refused)
      throw new AppError('ERR_URL_NOT_ALLOWED', `The prompt's base URL may not be reached: ${err.message}`)
    throw new AppError(
      'ERR_AI_REQUEST_FAILED',
      `The transcription failed: ${known ? err.message : 'unknown error'}`,
    )
  }
}

/** `POST /test/audio`: the text of an uploaded audio file. */
export async function transcribeUpload(
  ctx: Ctx,
  upload: UploadedMedia | undefined,
  options: TranscribeOptions = {},
): Promise<{ text: string }> {
  const actor = userActor(ctx)
  if (!upload)
    throw new AppError('ERR_VALIDATION', 'Attach an audio file', undefined, [
      { field: 'audio', message: 'is required' },
    ])
  if (!upload.format.mime.startsWith('audio/'))
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', `${upload.name}: only audio files can be transcribed`)
  const text = await transcribe(
    ctx,
    actor.companyId,
    null,
    { bytes: upload.bytes, name: upload.name, mime: upload.format.mime },
    options,
  )
  ctx.log.info('audio transcribed (test)', { companyId: actor.companyId, chars: text.length })
  return { text }
}

type AudioMessage = {
  id: number
  ticketId: number
  companyId: number
  fromMe: number
  mediaType: string
  mediaState: string
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  isDeleted: number
  queueId: number | null
  userId: number | null
}

/** `POST /messages/{id}/transcribe`: transcribes a received audio message and keeps the text on it. */
export async function transcribeMessage(
  ctx: Ctx,
  id: number,
  options: TranscribeOptions = {},
): Promise<MessageDto> {
  const actor = userActor(ctx)
  const scope = actorScope(ctx)
  const m = ctx.sqlite
    .query<AudioMessage, [number, number]>(
      `SELECT m.id, m.ticket_id AS ticketId, m.company_id AS companyId, m.from_me AS fromMe,
              m.media_type AS mediaType, m.media_state AS mediaState, m.media_path AS mediaPath,
              m.media_name AS mediaName, m.media_mime AS mediaMime, m.is_deleted AS isDeleted,
              t.queue_id AS queueId, t.user_id AS userId
         FROM messages m JOIN tickets t ON t.id = m.ticket_id WHERE m.id = ? AND m.company_id = ?`,
    )
    .get(id, actor.companyId)
  if (!m) throw new AppError('ERR_NO_MESSAGE_FOUND', 'Message not found')
  assertCanSeeTicket(scope, m)
  const notAudio = (message: string) =>
    new AppError('ERR_VALIDATION', message, undefined, [{ field: 'id', message }])
  if (m.mediaType !== 'audio' || m.fromMe || m.isDeleted)
    throw notAudio('must be a received voice note or audio')
  const path = m.mediaPath && m.mediaState === 'stored' ? mediaFilePath(ctx, m.companyId, m.mediaPath) : null
  const file = path ? Bun.file(path) : null
  if (!file || !(await file.exists())) throw notAudio('the audio of this message is not stored yet')
  const bytes = new Uint8Array(await file.arrayBuffer())
  const mime = (m.mediaMime ?? 'audio/ogg').split(';')[0]!.trim() || 'audio/ogg'
  const ext = m.mediaPath?.split('.').pop() ?? 'ogg'
  const text = await transcribe(
    ctx,
    m.companyId,
    m.queueId,
    { bytes, name: m.mediaName || `audio.${ext}`, mime },
    options,
  )
  transact(ctx, (sqlite, events) => {
    sqlite
      .query('UPDATE messages SET transcription = ?, updated_at = ? WHERE id = ?')
      .run(text, ctx.clock.now(), id)
    publishMessageUpdates(ctx, sqlite, events, m.ticketId, [id])
  })
  return loadMessageDtos(ctx, [id])[0]!
}
