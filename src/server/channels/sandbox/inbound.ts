/**
 * What a virtual customer can do, as `SandboxNetwork.inject` (and `POST /api/sandbox/connections/{id}/inbound`)
 * accepts it, and its validation: every problem is reported at once as AppError('ERR_VALIDATION') with fields.
 */
import { AppError, type FieldError } from '../../../shared/errors'
import type { MediaKind } from '../types'
import { isPhone } from './identities'
import { vcardOf } from './shapes'

export type SandboxInboundMedia = {
  kind: MediaKind
  mimetype: string
  fileName?: string
  /** The bytes; when absent the network stores a small placeholder (a 1×1 PNG for images and stickers). */
  dataBase64?: string
  caption?: string
  /** Audio only: a voice note. */
  ptt?: boolean
  /** Audio and video length. */
  seconds?: number
}

export type SandboxInbound = {
  /** The customer's phone number, digits only (8 to 15). */
  from: string
  /** Push name; remembered for the customer's later messages. Defaults to a deterministic name. */
  name?: string
  body?: string
  /** Message id; generated like Baileys' `3EB0…` when absent. */
  id?: string
  media?: SandboxInboundMedia
  /** Quotes this message id. */
  replyTo?: string
  /** Reacts to a message; an empty emoji removes the reaction. */
  reaction?: { to: string; emoji: string }
  /** Edits one of the customer's messages. */
  edit?: { id: string; body: string }
  /** Deletes one of the customer's messages for everyone. */
  delete?: { id: string }
  location?: { latitude: number; longitude: number; name?: string; address?: string }
  /**
   * Shares a contact card: `{ displayName, vcard }` as WhatsApp carries it (displayName defaults to the
   * card's FN), or the short form `{ name, phone }`, from which the card is written.
   */
  contact?: { displayName: string; vcard: string }
  /** Written in a group (digits, or `…@g.us`) rather than in the 1:1 chat. */
  group?: { id: string; name?: string }
  /** The chat is addressed by the customer's LID, with the phone number in `remoteJidAlt`. */
  lidOnly?: boolean
  /** Queued while we were offline: delivered as upsert type `append`. */
  offline?: boolean
  /** Sent from the company's own phone rather than by the customer (key.fromMe). */
  fromMe?: boolean
  /** Epoch ms; defaults to the network clock. */
  timestamp?: number
  /** Places a voice call (no message): the connection sees WhatsApp's call offer. */
  call?: boolean
  /** With `call`: a video call. */
  video?: boolean
}

const MEDIA_KINDS: MediaKind[] = ['image', 'video', 'audio', 'document', 'sticker']
const MAX_MEDIA_BYTES = 16 * 1024 * 1024
const ID_PATTERN = /^[A-Za-z0-9]{6,64}$/
const MAX_VCARD_CHARS = 10_000

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** Checks an inject request; throws AppError('ERR_VALIDATION') listing every bad field. */
export function validateInbound(input: unknown): SandboxInbound {
  const errors: FieldError[] = []
  const fail = (field: string, message: string) => errors.push({ field, message })
  if (!isObj(input)) {
    throw new AppError('ERR_VALIDATION', 'The message must be an object', undefined, [
      { field: '', message: 'must be an object' },
    ])
  }
  const str = (obj: Obj, key: string, path: string, required = false, allowEmpty = false) => {
    const v = obj[key]
    if (v === undefined || v === null) {
      if (required) fail(path, 'is required')
      return undefined
    }
    if (typeof v !== 'string') {
      fail(path, 'must be a string')
      return undefined
    }
    if (!allowEmpty && v.trim() === '') {
      fail(path, 'must not be empty')
      return undefined
    }
    return v
  }
  const bool = (obj: Obj, key: string, path: string) => {
    const v = obj[key]
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'boolean') {
      fail(path, 'must be true or false')
      return undefined
    }
    return v
  }
  const numIn = (obj: Obj, key: string, path: string, min: number, max: number, required = false) => {
    const v = obj[key]
    if (v === undefined || v === null) {
      if (required) fail(path, 'is required')
      return undefined
    }
    if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
      fail(path, `must be a number from ${min} to ${max}`)
      return undefined
    }
    return v
  }
  const sub = (key: string) => {
    const v = input[key]
    if (v === undefined || v === null) return undefined
    if (!isObj(v)) {
      fail(key, 'must be an object')
      return undefined
    }
    return v
  }
  const messageId = (obj: Obj, key: string, path: string, required: boolean) => {
    const v = str(obj, key, path, required)
    if (v !== undefined && !ID_PATTERN.test(v)) fail(path, 'must be 6 to 64 letters or digits')
    return v
  }

  const out: SandboxInbound = { from: '' }
  const from = str(input, 'from', 'from', true)
  if (from !== undefined) {
    if (!isPhone(from)) fail('from', 'must be a phone number: 8 to 15 digits, no + or spaces')
    else out.from = from
  }
  const name = str(input, 'name', 'name')
  if (name !== undefined) out.name = name.trim().slice(0, 100)
  const body = str(input, 'body', 'body', false, true)
  if (body !== undefined) out.body = body
  const id = messageId(input, 'id', 'id', false)
  if (id !== undefined) out.id = id
  const replyTo = messageId(input, 'replyTo', 'replyTo', false)
  if (replyTo !== undefined) out.replyTo = replyTo
  for (const key of ['lidOnly', 'offline', 'fromMe', 'call', 'video'] as const) {
    const v = bool(input, key, key)
    if (v !== undefined) out[key] = v
  }
  const timestamp = numIn(input, 'timestamp', 'timestamp', 0, 8_640_000_000_000_000)
  if (timestamp !== undefined) out.timestamp = Math.floor(timestamp)

  const media = sub('media')
  if (media) {
    const kind = str(media, 'kind', 'media.kind', true)
    if (kind !== undefined && !MEDIA_KINDS.includes(kind as MediaKind))
      fail('media.kind', `must be one of ${MEDIA_KINDS.join(', ')}`)
    const mimetype = str(media, 'mimetype', 'media.mimetype', true)
    if (mimetype !== undefined && !/^[\w.+-]+\/[\w.+-]+(\s*;.*)?$/.test(mimetype))
      fail('media.mimetype', 'must be a MIME type such as image/jpeg')
    const m: SandboxInboundMedia = { kind: kind as MediaKind, mimetype: mimetype ?? '' }
    const fileName = str(media, 'fileName', 'media.fileName')
    if (fileName !== undefined) m.fileName = fileName
    const caption = str(media, 'caption', 'media.caption', false, true)
    if (caption !== undefined) m.caption = caption
    const ptt = bool(media, 'ptt', 'media.ptt')
    if (ptt !== undefined) {
      if (ptt && kind !== 'audio') fail('media.ptt', 'only audio can be a voice note')
      m.ptt = ptt
    }
    const seconds = numIn(media, 'seconds', 'media.seconds', 0, 86_400)
    if (seconds !== undefined) m.seconds = Math.round(seconds)
    const data = str(media, 'dataBase64', 'media.dataBase64')
    if (data !== undefined) {
      const clean = data.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, '')
      if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(clean) || clean.length % 4 === 1)
        fail('media.dataBase64', 'must be base64')
      else if ((clean.length * 3) / 4 > MAX_MEDIA_BYTES)
        fail('media.dataBase64', `must be at most ${MAX_MEDIA_BYTES / 1024 / 1024} MB`)
      else m.dataBase64 = clean
    }
    out.media = m
  }

  const reaction = sub('reaction')
  if (reaction) {
    const to = messageId(reaction, 'to', 'reaction.to', true)
    const emoji = str(reaction, 'emoji', 'reaction.emoji', true, true)
    if (emoji !== undefined && [...emoji].length > 10) fail('reaction.emoji', 'must be one emoji, or empty')
    out.reaction = { to: to ?? '', emoji: emoji ?? '' }
  }
  const edit = sub('edit')
  if (edit) {
    const target = messageId(edit, 'id', 'edit.id', true)
    const text = str(edit, 'body', 'edit.body', true)
    out.edit = { id: target ?? '', body: text ?? '' }
  }
  const del = sub('delete')
  if (del) out.delete = { id: messageId(del, 'id', 'delete.id', true) ?? '' }
  const location = sub('location')
  if (location) {
    const l: NonNullable<SandboxInbound['location']> = {
      latitude: numIn(location, 'latitude', 'location.latitude', -90, 90, true) ?? 0,
      longitude: numIn(location, 'longitude', 'location.longitude', -180, 180, true) ?? 0,
    }
    const lname = str(location, 'name', 'location.name')
    if (lname !== undefined) l.name = lname
    const address = str(location, 'address', 'location.address')
    if (address !== undefined) l.address = address
    out.location = l
  }
  const contact = sub('contact')
  if (contact && (contact.vcard !== undefined || contact.displayName !== undefined)) {
    const vcard = str(contact, 'vcard', 'contact.vcard', true)
    if (vcard !== undefined && vcard.length > MAX_VCARD_CHARS)
      fail('contact.vcard', `must be at most ${MAX_VCARD_CHARS} characters`)
    else if (vcard !== undefined && !/^BEGIN:VCARD\r?\n[\s\S]*\nEND:VCARD$/i.test(vcard.trim()))
      fail('contact.vcard', 'must be a vCard (BEGIN:VCARD … END:VCARD)')
    const displayName = str(contact, 'displayName', 'contact.displayName') ?? (vcard && fullNameOf(vcard))
    if (vcard !== undefined && !displayName)
      fail('contact.displayName', 'is required when the vCard has no FN')
    out.contact = { displayName: displayName?.trim().slice(0, 100) ?? '', vcard: vcard?.trim() ?? '' }
  } else if (contact) {
    const cname = str(contact, 'name', 'contact.name', true)
    const phone = str(contact, 'phone', 'contact.phone', true)
    if (phone !== undefined && !isPhone(phone)) fail('contact.phone', 'must be 8 to 15 digits')
    out.contact = { displayName: cname ?? '', vcard: vcardOf(cname ?? '', phone ?? '') }
  }
  const group = sub('group')
  if (group) {
    const gid = str(group, 'id', 'group.id', true)
    if (gid !== undefined && !/^\d[\d-]{4,40}(@g\.us)?$/.test(gid))
      fail('group.id', 'must be a group id (digits)')
    const g: NonNullable<SandboxInbound['group']> = { id: gid?.replace(/@g\.us$/, '') ?? '' }
    const gname = str(group, 'name', 'group.name')
    if (gname !== undefined) g.name = gname
    out.group = g
  }

  // a call carries nothing else
  if (out.call) {
    for (const k of [
      'body',
      'media',
      'location',
      'contact',
      'reaction',
      'edit',
      'delete',
      'group',
      'replyTo',
    ] as const)
      if (out[k] !== undefined) fail(k, 'cannot be combined with call')
    if (out.fromMe) fail('fromMe', 'cannot be combined with call')
    if (errors.length) throw new AppError('ERR_VALIDATION', 'Invalid sandbox message', undefined, errors)
    return out
  }
  if (out.video) fail('video', 'only with call')

  // what the message is: exactly one action, and content only with a plain message
  const actions = (['reaction', 'edit', 'delete'] as const).filter((k) => out[k])
  const contents = (['media', 'location', 'contact'] as const).filter((k) => out[k])
  if (actions.length > 1) fail(actions[1]!, `cannot be combined with ${actions[0]}`)
  else if (actions.length === 1) {
    for (const k of contents) fail(k, `cannot be combined with ${actions[0]}`)
    if (out.body !== undefined) fail('body', `cannot be combined with ${actions[0]}`)
    if (out.replyTo !== undefined) fail('replyTo', `cannot be combined with ${actions[0]}`)
  } else if (contents.length > 1) fail(contents[1]!, `cannot be combined with ${contents[0]}`)
  else if (contents.length === 0 && (out.body === undefined || out.body.trim() === ''))
    fail('body', 'is required (or media, location, contact, reaction, edit or delete)')
  if (out.body !== undefined && (out.location || out.contact))
    fail('body', 'cannot be combined with a location or a contact')

  if (errors.length) throw new AppError('ERR_VALIDATION', 'Invalid sandbox message', undefined, errors)
  return out
}

/** The FN (formatted name) of a vCard, unescaped; undefined when it has none. */
function fullNameOf(vcard: string) {
  const line = vcard.split(/\r?\n/).find((l) => /^FN[;:]/i.test(l))
  const value = line
    ?.slice(line.indexOf(':') + 1)
    .replace(/\\([,;\\])/g, '$1')
    .trim()
  return value || undefined
}

/** The bytes of an injected media: the given base64, or a placeholder. */
export function mediaBytes(media: SandboxInboundMedia): Uint8Array {
  if (media.dataBase64 !== undefined) return new Uint8Array(Buffer.from(media.dataBase64, 'base64'))
  if (media.kind === 'image' || media.kind === 'sticker')
    return new Uint8Array(Buffer.from(PIXEL_PNG, 'base64'))
  return new TextEncoder().encode(`sandbox ${media.kind} placeholder`)
}

/** A 1×1 PNG. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
