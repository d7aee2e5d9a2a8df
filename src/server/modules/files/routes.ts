import { Hono } from 'hono'
import { AppError } from '../../../shared/errors'
import { idParam } from '../../../shared/schemas/common'
import { fileListBody, fileUploadFields, listFilesQuery } from '../../../shared/schemas/files'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { formFields, readForm, readMedias } from '../../media/upload'
import {
  assertFileExists,
  attachFileOptions,
  createFile,
  deleteFile,
  getFile,
  listAllFiles,
  listFiles,
  updateFile,
} from './service'

const NOT_FOUND = 'ERR_NO_FILE_FOUND'

const uploadError = (field: string, message: string) =>
  new AppError('ERR_VALIDATION', `${field} ${message}`, undefined, [{ field, message }])

/**
 * `/files` (spec 3): `GET /` the page `{ files, count, hasMore }`, `GET /list` every list (pickers), `GET /{id}`;
 * admins create, edit and delete, and attach files to the options with `POST /uploadList/{id}` (multipart: per
 * file, `files` and the option's `id`, in the same order; `fileId`, `typeArch`, `name`, `mediaType` as the
 * spec sends them, ignored). The company comes from the session only.
 */
export const filesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listFiles(ctxOf(c), parse(listFilesQuery, c.req.query()))))
  .get('/list', (c) => c.json(listAllFiles(ctxOf(c))))
  .get('/:id', (c) => c.json(getFile(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/', requireAdmin, async (c) => c.json(createFile(ctxOf(c), await parseBody(c, fileListBody)), 201))
  .put('/:id', requireAdmin, async (c) =>
    c.json(updateFile(ctxOf(c), pathId(c, NOT_FOUND), await parseBody(c, fileListBody))),
  )
  .delete('/:id', requireAdmin, (c) => {
    deleteFile(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'File list deleted' })
  })
  .post('/uploadList/:id', requireAdmin, async (c) => {
    const id = pathId(c, NOT_FOUND)
    const ctx = ctxOf(c)
    // Another company's id is refused before the form is read.
    assertFileExists(ctx, id)
    const form = await readForm(c)
    parse(fileUploadFields, formFields(form))
    const ids = form.getAll('id').map((v) => {
      const id = typeof v === 'string' ? idParam(v) : null
      return typeof id === 'number' ? id : null
    })
    const files = await readMedias(form, 'files')
    if (!files.length) throw uploadError('files', 'must hold at least one file')
    if (ids.length !== files.length)
      throw uploadError('id', 'must name one option per file, in the same order')
    const uploads = files.map((media, index) => {
      const optionId = ids[index]
      if (optionId == null) throw uploadError(`id.${index}`, 'must be an option id')
      return { optionId, media }
    })
    return c.json(attachFileOptions(ctx, id, uploads))
  })
