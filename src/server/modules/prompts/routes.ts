import { Hono } from 'hono'
import { listPromptsQuery, promptBody } from '../../../shared/schemas/prompts'
import { ctxOf, requireAdmin, requireAuth, requirePlanFeature } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { readForm, readMedias } from '../../media/upload'
import { createPrompt, deletePrompt, getPrompt, listPrompts, updatePrompt } from './service'
import { transcribeMessage, transcribeUpload } from './transcription'

const NOT_FOUND = 'ERR_NO_PROMPT_FOUND'

/**
 * `/prompt` (spec 3), for admins of a company whose plan has useOpenAi (the plan gate is app-wide,
 * PLAN_GATED_PATHS): `GET /` the page `{ prompts, count, hasMore }`, `GET|PUT|DELETE /{id}`, `POST /`.
 */
export const promptsRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireAdmin)
  .get('/', (c) => c.json(listPrompts(ctxOf(c), parse(listPromptsQuery, c.req.query()))))
  .get('/:id', (c) => c.json(getPrompt(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/', async (c) => c.json(createPrompt(ctxOf(c), await parseBody(c, promptBody)), 201))
  .put('/:id', async (c) =>
    c.json(updatePrompt(ctxOf(c), pathId(c, NOT_FOUND), await parseBody(c, promptBody))),
  )
  .delete('/:id', (c) => {
    deletePrompt(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'Prompt deleted' })
  })

/** The audio fields `POST /test/audio` reads, the first one present. */
const AUDIO_FIELDS = ['audio', 'file', 'medias'] as const

/**
 * `POST /test/audio` (spec 1): a multipart audio file transcribed with the company's AI key -> `{ text }`.
 * Any signed-in user of a company whose plan has useOpenAi.
 */
export const testAudioRoutes = new Hono<AppEnv>().post(
  '/audio',
  requireAuth,
  requirePlanFeature('useOpenAi'),
  async (c) => {
    const form = await readForm(c)
    const field = AUDIO_FIELDS.find((f) => form.getAll(f).some((v) => typeof v !== 'string')) ?? 'audio'
    const uploads = await readMedias(form, field)
    return c.json(await transcribeUpload(ctxOf(c), uploads[0]))
  },
)

/**
 * `POST /messages/{id}/transcribe`: a received voice note the user may see, transcribed and kept on the
 * message. Mounted at `/api/messages` beside the messages area's routes; authentication is on the route itself
 * (a sub-app's `use()` would run for every `/messages/*` request mounted after it).
 */
export const transcribeRoutes = new Hono<AppEnv>().post(
  '/:id/transcribe',
  requireAuth,
  requirePlanFeature('useOpenAi'),
  async (c) => c.json(await transcribeMessage(ctxOf(c), pathId(c, 'ERR_NO_MESSAGE_FOUND'))),
)
