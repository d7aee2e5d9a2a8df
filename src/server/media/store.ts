import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Deps } from '../context'
import { formatOfExt, formatOfMime } from './types'

/** A stored file's name: random, with the allow-listed extension. Nothing a request sends ever names a file. */
export const STORED_NAME = /^[A-Za-z0-9_-]{16,64}\.[a-z0-9]{2,5}$/

function randomName(ext: string) {
  return `${Buffer.from(crypto.getRandomValues(new Uint8Array(18))).toString('base64url')}.${ext}`
}

/** The folder of a company's media. */
export function companyMediaDir(deps: Pick<Deps, 'mediaDir'>, companyId: number) {
  return join(deps.mediaDir, String(companyId))
}

/**
 * The absolute path of a stored file, or null when `path` is not a name this store made (so a value from a
 * row, let alone a request, can never reach outside the company's folder).
 */
export function mediaFilePath(deps: Pick<Deps, 'mediaDir'>, companyId: number, path: string): string | null {
  if (!STORED_NAME.test(path) || !Number.isSafeInteger(companyId) || companyId < 1) return null
  return join(companyMediaDir(deps, companyId), path)
}

/**
 * Writes media under `media/<companyId>/` with a random name and the extension of its type (unknown types
 * are kept as `.bin` and only ever served as a download). Synchronous; returns the path to keep on the row
 * (the file name, relative to the company's folder) and the size.
 */
export function storeMedia(
  deps: Pick<Deps, 'mediaDir'>,
  companyId: number,
  bytes: Uint8Array,
  meta: { mime: string; name?: string | null; ext?: string },
): { path: string; size: number } {
  const format = (meta.ext && formatOfExt(meta.ext)) || formatOfMime(meta.mime)
  const dir = companyMediaDir(deps, companyId)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const path = randomName(format.ext)
  writeFileSync(join(dir, path), bytes, { mode: 0o600, flag: 'wx' })
  return { path, size: bytes.byteLength }
}

/** A display name for a file: its last path segment, without control characters, at most 200 characters. */
export function cleanFileName(name: string | null | undefined, fallback: string) {
  const last = (name ?? '').split(/[\\/]/).pop() ?? ''
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = last.replace(/[\u0000-\u001f\u007f"]/g, '').trim()
  return (clean || fallback).slice(0, 200)
}

/**
 * Removes a stored file of a company (after the row that named it is gone). A file already missing or one that
 * cannot be removed is logged, never thrown: the row's change has committed and stands.
 */
export function removeStoredMedia(
  deps: Pick<Deps, 'mediaDir' | 'log'>,
  companyId: number,
  path: string | null,
  what: string,
) {
  if (!path) return
  const file = mediaFilePath(deps, companyId, path)
  try {
    if (file) unlinkSync(file)
  } catch (err) {
    deps.log.warn(`${what} not removed`, { path, error: (err as Error).message })
  }
}
