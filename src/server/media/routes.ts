import { type } from 'arktype'
import { Hono } from 'hono'
import { AppError } from '../../shared/errors'
import { idParam } from '../../shared/schemas/common'
import type { AppEnv } from '../http/env'
import { checkMediaLink } from './sign'
import { mediaFilePath } from './store'
import { formatOfExt } from './types'

/** What a stored file may do when opened on its own: nothing (its own document needs no source to show it). */
export const MEDIA_CSP = "default-src 'none'; sandbox"

type Range = { start: number; end: number } | 'unsatisfiable' | null

/**
 * One `bytes=` range of a file of `size` bytes (`a-b`, `a-`, `-n`). Several ranges, or anything else, are
 * answered with the whole file (a server may ignore a Range header); a range past the end is 416.
 */
export function parseRange(header: string | undefined, size: number): Range {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '')
  if (!m || (m[1] === '' && m[2] === '')) return null
  if (m[1] === '') {
    const suffix = Number(m[2])
    if (suffix === 0 || size === 0) return 'unsatisfiable'
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(m[1])
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1)
  if (start >= size || end < start) return 'unsatisfiable'
  return { start, end }
}

/**
 * `GET /api/media/<companyId>/<file>?exp=&sig=`: a stored file, only through a link the server signed and
 * before it expires (403 otherwise). The file name must be one the store made; the content type comes from
 * the allow-list by its extension; range requests are answered (audio and video seek with them).
 */
export const mediaRoutes = new Hono<AppEnv>().on(['GET', 'HEAD'], '/:companyId/:file', async (c) => {
  const deps = c.get('deps')
  const companyId = idParam(c.req.param('companyId'))
  const file = c.req.param('file')
  const path = companyId instanceof type.errors ? null : mediaFilePath(deps, companyId, file)
  const format = formatOfExt(file.slice(file.lastIndexOf('.') + 1))
  if (!path || !format || companyId instanceof type.errors)
    throw new AppError('ERR_NOT_FOUND', 'No such media')
  const check = checkMediaLink(deps, companyId, file, c.req.query('exp'), c.req.query('sig'))
  if (check === 'invalid') throw new AppError('ERR_NO_PERMISSION', 'This media link is not valid')
  if (check === 'expired')
    throw new AppError('ERR_NO_PERMISSION', 'This media link has expired', { expired: true })
  const blob = Bun.file(path)
  if (!(await blob.exists())) throw new AppError('ERR_NOT_FOUND', 'No such media')
  const size = blob.size
  const maxAge = Math.max(0, Number(c.req.query('exp')) - Math.floor(deps.clock.now() / 1000))
  const headers: Record<string, string> = {
    'content-type': format.mime.startsWith('text/') ? `${format.mime}; charset=utf-8` : format.mime,
    'accept-ranges': 'bytes',
    'cache-control': `private, max-age=${maxAge}, immutable`,
    'x-content-type-options': 'nosniff',
    'content-disposition': format.inline ? 'inline' : `attachment; filename="${file}"`,
    // Even opened directly, a stored file runs and loads nothing (the app's own CSP is not used here).
    'content-security-policy': MEDIA_CSP,
  }
  const range = parseRange(c.req.header('range'), size)
  if (range === 'unsatisfiable') {
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } })
  }
  const head = c.req.method === 'HEAD'
  if (range) {
    const length = range.end - range.start + 1
    return new Response(head ? null : blob.slice(range.start, range.end + 1), {
      status: 206,
      headers: {
        ...headers,
        'content-range': `bytes ${range.start}-${range.end}/${size}`,
        'content-length': String(length),
      },
    })
  }
  return new Response(head ? null : blob, {
    status: 200,
    headers: { ...headers, 'content-length': String(size) },
  })
})
