/**
 * What media Balcão stores and serves: an allow-list by type, each with its extension, the content type it is
 * served with, the message kind it travels as, and the upload limit of that kind. The type of an upload is
 * read from its first bytes (a declared type is only a hint among formats that share a container), so a file
 * cannot pass as something else by its name.
 */

export type MediaCategory = 'image' | 'audio' | 'video' | 'document'

export type MediaFormat = {
  mime: string
  ext: string
  category: MediaCategory
  /** Shown in the page (image, audio, video); anything else is served as a download. */
  inline: boolean
}

const MB = 1024 * 1024

/** Upload limits by kind (README: "Media"). A larger file is refused with 413 and the limit in the message. */
export const UPLOAD_LIMITS: Record<MediaCategory, number> = {
  image: 16 * MB,
  audio: 16 * MB,
  video: 64 * MB,
  document: 64 * MB,
}

/** One upload request (every file and field together); above it the body is cut off with 413. */
export const UPLOAD_REQUEST_LIMIT = 70 * MB

/** At most this many files in one send. */
export const UPLOAD_MAX_FILES = 10

const f = (mime: string, ext: string, category: MediaCategory, inline = category !== 'document') => ({
  mime,
  ext,
  category,
  inline,
})

/** The allow-list, by extension (the stored file's extension decides how it is served). */
export const FORMATS: Record<string, MediaFormat> = {
  jpg: f('image/jpeg', 'jpg', 'image'),
  png: f('image/png', 'png', 'image'),
  webp: f('image/webp', 'webp', 'image'),
  gif: f('image/gif', 'gif', 'image'),
  mp4: f('video/mp4', 'mp4', 'video'),
  '3gp': f('video/3gpp', '3gp', 'video'),
  mov: f('video/quicktime', 'mov', 'video'),
  ogg: f('audio/ogg', 'ogg', 'audio'),
  mp3: f('audio/mpeg', 'mp3', 'audio'),
  m4a: f('audio/mp4', 'm4a', 'audio'),
  aac: f('audio/aac', 'aac', 'audio'),
  amr: f('audio/amr', 'amr', 'audio'),
  weba: f('audio/webm', 'weba', 'audio'),
  webm: f('video/webm', 'webm', 'document'),
  wav: f('audio/wav', 'wav', 'document'),
  pdf: f('application/pdf', 'pdf', 'document'),
  txt: f('text/plain', 'txt', 'document'),
  csv: f('text/csv', 'csv', 'document'),
  vcf: f('text/vcard', 'vcf', 'document'),
  rtf: f('application/rtf', 'rtf', 'document'),
  zip: f('application/zip', 'zip', 'document'),
  doc: f('application/msword', 'doc', 'document'),
  xls: f('application/vnd.ms-excel', 'xls', 'document'),
  ppt: f('application/vnd.ms-powerpoint', 'ppt', 'document'),
  docx: f('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx', 'document'),
  xlsx: f('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'xlsx', 'document'),
  pptx: f('application/vnd.openxmlformats-officedocument.presentationml.presentation', 'pptx', 'document'),
  odt: f('application/vnd.oasis.opendocument.text', 'odt', 'document'),
  ods: f('application/vnd.oasis.opendocument.spreadsheet', 'ods', 'document'),
  odp: f('application/vnd.oasis.opendocument.presentation', 'odp', 'document'),
  /** Inbound media of a type not on the list is kept, and only ever served as a download. */
  bin: f('application/octet-stream', 'bin', 'document', false),
}

const BY_MIME = new Map<string, MediaFormat>()
for (const format of Object.values(FORMATS)) if (!BY_MIME.has(format.mime)) BY_MIME.set(format.mime, format)
// Other names the same formats go by.
for (const [alias, ext] of [
  ['image/jpg', 'jpg'],
  ['audio/mp3', 'mp3'],
  ['audio/x-m4a', 'm4a'],
  ['audio/m4a', 'm4a'],
  ['audio/x-wav', 'wav'],
  ['audio/wave', 'wav'],
  ['audio/opus', 'ogg'],
  ['text/x-vcard', 'vcf'],
  ['text/rtf', 'rtf'],
  ['application/x-zip-compressed', 'zip'],
] as const) {
  const format = FORMATS[ext]
  if (format) BY_MIME.set(alias, format)
}

/** `audio/ogg; codecs=opus` -> `audio/ogg`. */
export function baseMime(mime: string | null | undefined) {
  return (mime ?? '').split(';')[0]!.trim().toLowerCase()
}

/** The format of a type WhatsApp (or a browser) names; unknown types become `bin` (a download). */
export function formatOfMime(mime: string | null | undefined): MediaFormat {
  return BY_MIME.get(baseMime(mime)) ?? FORMATS.bin!
}

export function formatOfExt(ext: string): MediaFormat | undefined {
  return Object.hasOwn(FORMATS, ext) ? FORMATS[ext] : undefined
}

const ascii = (bytes: Uint8Array, at: number, text: string) => {
  if (bytes.length < at + text.length) return false
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false
  return true
}

const hex = (bytes: Uint8Array, at: number, values: number[]) =>
  bytes.length >= at + values.length && values.every((v, i) => bytes[at + i] === v)

function indexOfAscii(bytes: Uint8Array, text: string, limit: number) {
  const end = Math.min(bytes.length, limit) - text.length
  for (let i = 0; i <= end; i++) if (ascii(bytes, i, text)) return i
  return -1
}

function extOfName(name: string | undefined) {
  const m = /\.([a-z0-9]{1,5})$/i.exec(name ?? '')
  return m ? m[1]!.toLowerCase() : ''
}

/** Text files have no signature: plain UTF-8 without NUL bytes in their first 8 KiB. */
function looksLikeText(bytes: Uint8Array) {
  const head = bytes.subarray(0, 8192)
  if (head.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.length < bytes.length ? trimUtf8(head) : head)
    return true
  } catch {
    return false
  }
}

/** Drops a multi-byte character cut in half at the end of a slice. */
function trimUtf8(bytes: Uint8Array) {
  let end = bytes.length
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = bytes[end - i]!
    if ((b & 0xc0) === 0x80) continue
    if (b >= 0xc0) end -= i
    break
  }
  return bytes.subarray(0, end)
}

export type Sniffed = MediaFormat & {
  /** An Ogg stream whose codec is Opus: WhatsApp plays it as a voice note. */
  opus?: boolean
}

/**
 * The allow-listed format of an upload from its first bytes, with the declared type and the file name as
 * hints only where one container holds several formats (MP4 audio or video, ZIP-based office files). Null:
 * not on the allow-list.
 */
export function sniffFormat(bytes: Uint8Array, declared: string | undefined, name?: string): Sniffed | null {
  const mime = baseMime(declared)
  const ext = extOfName(name)
  const pick = (e: string) => FORMATS[e]!
  if (hex(bytes, 0, [0xff, 0xd8, 0xff])) return pick('jpg')
  if (hex(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return pick('png')
  if (ascii(bytes, 0, 'GIF87a') || ascii(bytes, 0, 'GIF89a')) return pick('gif')
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WEBP')) return pick('webp')
  if (ascii(bytes, 0, 'RIFF') && ascii(bytes, 8, 'WAVE')) return pick('wav')
  if (ascii(bytes, 4, 'ftyp')) {
    const brand = new TextDecoder().decode(bytes.subarray(8, 12))
    if (brand === 'M4A ' || brand === 'M4B ') return pick('m4a')
    if (brand.startsWith('3gp') || brand.startsWith('3g2')) return pick('3gp')
    if (brand === 'qt  ') return pick('mov')
    return mime.startsWith('audio/') || ext === 'm4a' ? pick('m4a') : pick('mp4')
  }
  if (ascii(bytes, 0, 'OggS')) {
    const opus = indexOfAscii(bytes, 'OpusHead', 128) >= 0
    return opus ? { ...pick('ogg'), opus: true } : pick('ogg')
  }
  if (hex(bytes, 0, [0x1a, 0x45, 0xdf, 0xa3])) {
    // WebM: a browser's recording (audio only) or a video, which WhatsApp does not play: a document.
    const video = ['V_VP8', 'V_VP9', 'V_AV1', 'V_MPEG4'].some(
      (codec) => indexOfAscii(bytes, codec, 8192) >= 0,
    )
    // (Decided by its tracks: Bun's form parser reports a .webm file as video/webm whatever the browser said.)
    return video ? pick('webm') : pick('weba')
  }
  if (ascii(bytes, 0, 'ID3')) return pick('mp3')
  if (ascii(bytes, 0, '#!AMR')) return pick('amr')
  if (bytes[0] === 0xff && bytes.length > 1) {
    const b1 = bytes[1]!
    if ((b1 & 0xf6) === 0xf0) return pick('aac') // ADTS: sync word, layer 00
    if ((b1 & 0xe0) === 0xe0 && (b1 & 0x06) !== 0) return pick('mp3') // MPEG audio frame, layer I-III
  }
  if (ascii(bytes, 0, '%PDF-')) return pick('pdf')
  if (ascii(bytes, 0, '{\\rtf')) return pick('rtf')
  if (hex(bytes, 0, [0x50, 0x4b, 0x03, 0x04])) {
    const byMime = BY_MIME.get(mime)
    if (byMime && ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'zip'].includes(byMime.ext)) return byMime
    if (['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp'].includes(ext)) return pick(ext)
    return pick('zip')
  }
  if (hex(bytes, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
    const byMime = BY_MIME.get(mime)
    if (byMime && ['doc', 'xls', 'ppt'].includes(byMime.ext)) return byMime
    if (['doc', 'xls', 'ppt'].includes(ext)) return pick(ext)
    return null
  }
  if (ascii(bytes, 0, 'BEGIN:VCARD') && looksLikeText(bytes)) return pick('vcf')
  if ((mime === 'text/csv' || ext === 'csv') && looksLikeText(bytes)) return pick('csv')
  if ((mime === 'text/plain' || ext === 'txt') && looksLikeText(bytes)) return pick('txt')
  return null
}

/** How a stored format travels in a message (the spec's mediaType). */
export function mediaTypeOf(format: MediaFormat): 'image' | 'audio' | 'video' | 'application' {
  return format.category === 'document' ? 'application' : format.category
}

export function describeLimit(bytes: number) {
  return `${Math.round(bytes / MB)} MB`
}
