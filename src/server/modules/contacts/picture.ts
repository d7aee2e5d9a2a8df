/**
 * Profile pictures, asked of WhatsApp and kept on the contact, at most once a day per contact (a message from
 * the contact is the usual trigger; `force` after WhatsApp says the picture changed). Never inside the inbound
 * transaction: call `refreshProfilePicture` after commit, without awaiting it on the hot path.
 *
 * The page's CSP loads images only from this origin and data: URLs, so a picture WhatsApp serves from its own
 * host is downloaded (an image, at most 2 MB) and stored with the company's media; the contact keeps a signed
 * link to it (`/api/media/...`, valid `PICTURE_LINK_TTL_MS`, renewed by the daily refresh). A data: URL (the
 * sandbox's) is kept as it is. No picture (or privacy settings that hide it) leaves the field empty.
 */

import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { contactRef } from '../../channels/address'
import type { ChannelSession } from '../../channels/types'
import type { Deps } from '../../context'
import { transact } from '../../context'
import { signedMediaUrl } from '../../media/sign'
import { mediaFilePath, storeMedia } from '../../media/store'
import { guardedFetch } from '../../net/guarded-fetch'
import {
  CONTACT_ROW_COLUMNS,
  contactRowInCompany,
  loadContactDtos,
  type RawContactRow,
  toContactRow,
} from './dto'
import { publishContact } from './live'

export const PICTURE_REFRESH_MS = 24 * 60 * 60 * 1000
/** A stored picture's link lives this long; a contact refreshed daily keeps renewing it. */
export const PICTURE_LINK_TTL_MS = 30 * 24 * 60 * 60 * 1000
const MAX_PICTURE_BYTES = 2 * 1024 * 1024

export type ImageFetcher = (url: string) => Promise<{ bytes: Uint8Array; mime: string } | null>

/**
 * Downloads a picture WhatsApp gave the URL of: https only, an image, at most 2 MB, 10 s, through the guarded
 * fetch (the URL comes from outside: no private address, no redirect).
 */
export async function fetchImage(
  deps: Pick<Deps, 'env' | 'log'>,
  url: string,
): Promise<{ bytes: Uint8Array; mime: string } | null> {
  if (!/^https:\/\//i.test(url)) return null
  const res = await guardedFetch(deps, url, {
    signal: AbortSignal.timeout(10_000),
    maxBytes: MAX_PICTURE_BYTES,
  })
  if (!res.ok) return null
  const mime = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (!/^image\/(jpeg|png|webp)$/.test(mime)) return null
  return { bytes: res.bytes, mime }
}

/** Contacts whose picture is being asked for right now, per server: a burst of messages asks once. */
const inFlight = new WeakMap<object, Set<number>>()

/** A connected session of the contact's connection, or else of any of the company's connections. */
function sessionFor(deps: Deps, companyId: number, whatsappId: number | null): ChannelSession | undefined {
  const connected = (id: number) => {
    const session = deps.channels.session(id)
    return session?.status === 'CONNECTED' ? session : undefined
  }
  if (whatsappId != null) {
    const own = connected(whatsappId)
    if (own) return own
  }
  const ids = deps.sqlite
    .query<{ id: number }, [number]>(
      'SELECT id FROM whatsapps WHERE company_id = ? ORDER BY is_default DESC, id',
    )
    .all(companyId)
  for (const { id } of ids) {
    const session = connected(id)
    if (session) return session
  }
  return undefined
}

/** The stored file a picture link points to (`/api/media/<company>/<file>?...`), if it is one of ours. */
function storedFileOf(link: string, companyId: number): string | null {
  const match = /^\/api\/media\/(\d+)\/([^?]+)\?/.exec(link)
  return match && Number(match[1]) === companyId ? match[2]! : null
}

/** Deletes the stored file a picture link points to, if it is one of ours (after its contact was deleted). */
export function removeStoredPicture(deps: Pick<Deps, 'mediaDir'>, companyId: number, link: string) {
  const file = storedFileOf(link, companyId)
  const path = file ? mediaFilePath(deps, companyId, file) : null
  if (path) rmSync(path, { force: true })
}

function sameBytes(path: string | null, bytes: Uint8Array) {
  if (!path) return false
  try {
    const old = readFileSync(path)
    if (old.byteLength !== bytes.byteLength) return false
    const hash = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')
    return hash(old) === hash(bytes)
  } catch {
    return false
  }
}

/**
 * Asks WhatsApp for the contact's picture unless it was asked within a day (or `force`), and stores what comes
 * back; publishes a contact update when the picture changed. Quietly does nothing without a connected session
 * (the next message tries again). Resolves once done; failures of the channel or the download reject.
 */
export async function refreshProfilePicture(
  deps: Deps,
  contactId: number,
  options: { force?: boolean; fetch?: ImageFetcher } = {},
): Promise<void> {
  const raw = deps.sqlite
    .query<RawContactRow, [number]>(`SELECT ${CONTACT_ROW_COLUMNS} FROM contacts WHERE id = ?`)
    .get(contactId)
  if (!raw) return
  const contact = toContactRow(raw)
  if (!contact.number && !contact.lid) return
  const now = deps.clock.now()
  if (
    !options.force &&
    contact.profilePicCheckedAt != null &&
    now - contact.profilePicCheckedAt < PICTURE_REFRESH_MS
  )
    return
  let busy = inFlight.get(deps)
  if (!busy) {
    busy = new Set()
    inFlight.set(deps, busy)
  }
  if (busy.has(contactId)) return
  const session = sessionFor(deps, contact.companyId, contact.whatsappId)
  if (!session) return
  busy.add(contactId)
  try {
    // Marked before asking: a failure waits for tomorrow rather than retrying on every message.
    deps.sqlite.query('UPDATE contacts SET profile_pic_checked_at = ? WHERE id = ?').run(now, contactId)
    const url = await session.profilePictureUrl(contactRef(contact))
    const previousFile = storedFileOf(contact.profilePicUrl, contact.companyId)
    const previousPath = previousFile ? mediaFilePath(deps, contact.companyId, previousFile) : null
    let next = ''
    if (url?.startsWith('data:image/')) next = url
    else if (url) {
      const image = await (options.fetch ? options.fetch(url) : fetchImage(deps, url))
      if (!image) return
      const file =
        previousFile && sameBytes(previousPath, image.bytes)
          ? previousFile
          : storeMedia(deps, contact.companyId, image.bytes, { mime: image.mime }).path
      next = signedMediaUrl(deps, contact.companyId, file, PICTURE_LINK_TTL_MS)
    }
    const current = contactRowInCompany(deps.sqlite, contact.companyId, contactId)
    if (!current) return
    if (next !== current.profilePicUrl) {
      transact(deps, (sqlite, events) => {
        sqlite
          .query('UPDATE contacts SET profile_pic_url = ?, updated_at = ? WHERE id = ?')
          .run(next, deps.clock.now(), contactId)
        const [dto] = loadContactDtos(sqlite, [contactId])
        if (dto) publishContact(events, dto)
      })
    }
    if (previousPath && previousFile && !next.includes(`/${previousFile}?`))
      rmSync(previousPath, { force: true })
  } finally {
    busy.delete(contactId)
  }
}
