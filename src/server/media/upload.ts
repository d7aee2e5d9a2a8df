import type { Context } from 'hono'
import { AppError } from '../../shared/errors'
import { webmOpusToOgg } from './ogg-opus'
import {
  describeLimit,
  FORMATS,
  type Sniffed,
  sniffFormat,
  UPLOAD_LIMITS,
  UPLOAD_MAX_FILES,
  UPLOAD_REQUEST_LIMIT,
} from './types'

/** An uploaded file that passed the allow-list and its kind's limit, ready to store. */
export type UploadedMedia = {
  bytes: Uint8Array
  format: Sniffed
  /** The name the sender gave (display only; never a path). */
  name: string
  /** Ogg/Opus audio: sent as a voice note WhatsApp plays. */
  ptt: boolean
  /** The type WhatsApp is told: `audio/ogg; codecs=opus` for a voice note, else the format's. */
  sendMime: string
}

const LABEL: Record<string, string> = { image: 'image', audio: 'audio', video: 'video', document: 'document' }

/** Multipart requests (uploads) may be up to UPLOAD_REQUEST_LIMIT; the rest of the API keeps its 2 MiB. */
export function isUploadRequest(method: string, path: string, contentType: string | undefined) {
  if (method !== 'POST' || !contentType?.toLowerCase().startsWith('multipart/form-data')) return false
  if (/^\/api\/quick-messages\/[1-9]\d{0,15}\/media-upload\/?$/.test(path)) return true
  if (/^\/api\/queue-options\/[1-9]\d{0,15}\/media-upload\/?$/.test(path)) return true
  if (/^\/api\/schedules\/[1-9]\d{0,15}\/media-upload\/?$/.test(path)) return true
  // Spreadsheet imports (contact lists and contacts): a 10,000-row .xlsx is about 1.5 MiB.
  if (/^\/api\/(?:contact-lists\/[1-9]\d{0,15}\/upload|contacts\/import)\/?$/.test(path)) return true
  if (/^\/api\/files\/uploadList\/[1-9]\d{0,15}\/?$/.test(path)) return true
  if (/^\/api\/campaigns\/[1-9]\d{0,15}\/media-upload\/?$/.test(path)) return true
  if (/^\/api\/announcements\/[1-9]\d{0,15}\/media-upload\/?$/.test(path)) return true
  // A voice recording to transcribe (AI prompts): audio's own limit applies.
  if (/^\/api\/test\/audio\/?$/.test(path)) return true
  return /^\/api\/messages\/(?:send|[1-9]\d{0,15})\/?$/.test(path)
}

export const uploadTooLarge = () =>
  new AppError(
    'ERR_PAYLOAD_TOO_LARGE',
    `The upload is larger than ${describeLimit(UPLOAD_REQUEST_LIMIT)} (images and audio up to ${describeLimit(UPLOAD_LIMITS.image)}, videos and documents up to ${describeLimit(UPLOAD_LIMITS.video)})`,
    { limit: UPLOAD_REQUEST_LIMIT },
  )

/** The form of a multipart request, or a 400 when it cannot be read. */
export async function readForm(c: Context): Promise<FormData> {
  try {
    return await c.req.formData()
  } catch (err) {
    if ((err as { status?: number }).status === 413) throw uploadTooLarge()
    throw new AppError('ERR_VALIDATION', 'The multipart form could not be read', undefined, [
      { field: 'medias', message: 'must be a multipart/form-data body' },
    ])
  }
}

/** The form's text fields (files left out), for the route's schema. */
export function formFields(form: FormData): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [key, value] of form.entries()) if (typeof value === 'string') out[key] = value
  return out
}

/**
 * The one file of an attachment upload (form field `file`): none or several is a 400 before any file is read,
 * then the allow-list and limits of `readMedias`. `what` names it in the message ("file", "image (png, jpg or
 * jpeg)").
 */
export async function readOneMedia(form: FormData, what = 'file'): Promise<UploadedMedia> {
  const files = form.getAll('file').filter((v) => typeof v !== 'string')
  if (files.length !== 1)
    throw new AppError('ERR_VALIDATION', `Send exactly one ${what}`, undefined, [
      { field: 'file', message: `must be exactly one ${what}` },
    ])
  const [media] = await readMedias(form, 'file')
  return media!
}

/**
 * The `medias` files of a form, each checked against the allow-list by its first bytes (415 otherwise) and
 * against its kind's limit (413 with the limit). A browser's WebM/Opus recording is rewrapped as Ogg/Opus
 * so it reaches the customer as a voice note.
 */
export async function readMedias(form: FormData, field = 'medias'): Promise<UploadedMedia[]> {
  const files = form.getAll(field).filter((v): v is File => typeof v !== 'string')
  if (files.length > UPLOAD_MAX_FILES) {
    throw new AppError('ERR_VALIDATION', `At most ${UPLOAD_MAX_FILES} files per message`, undefined, [
      { field, message: `must hold at most ${UPLOAD_MAX_FILES} files` },
    ])
  }
  const out: UploadedMedia[] = []
  for (const file of files) {
    const name = file.name || 'file'
    if (file.size === 0) {
      throw new AppError('ERR_VALIDATION', `${name} is empty`, undefined, [{ field, message: 'is empty' }])
    }
    const head = new Uint8Array(await file.slice(0, 8192).arrayBuffer())
    const format = sniffFormat(head, file.type, name)
    if (!format) {
      throw new AppError(
        'ERR_UNSUPPORTED_MEDIA_TYPE',
        `${name}: this type of file cannot be sent (images, audio, videos, PDF, office documents, text and ZIP can)`,
        { name, type: file.type || null },
      )
    }
    const limit = UPLOAD_LIMITS[format.category]
    if (file.size > limit) {
      throw new AppError(
        'ERR_PAYLOAD_TOO_LARGE',
        `${name} is larger than ${describeLimit(limit)}, the limit for ${LABEL[format.category]} files`,
        { name, limit, size: file.size, kind: format.category },
      )
    }
    let bytes: Uint8Array = new Uint8Array(await file.arrayBuffer())
    let sniffed: Sniffed = format
    let shownName = name
    if (format.ext === 'weba') {
      const ogg = webmOpusToOgg(bytes)
      if (ogg) {
        bytes = ogg
        sniffed = { ...FORMATS.ogg!, opus: true }
        shownName = `${name.replace(/\.(webm|weba)$/i, '')}.ogg`
      }
    }
    const ptt = !!sniffed.opus
    out.push({
      bytes,
      format: sniffed,
      name: shownName,
      ptt,
      sendMime: ptt ? 'audio/ogg; codecs=opus' : sniffed.mime,
    })
  }
  return out
}
