/**
 * Junk input for the "no client input throws out of a handler" probes: bodies, path ids, field values and
 * content types that a route must refuse with a 4xx and a JSON `error` code (a 500 is a bug).
 */
import { expect } from 'bun:test'
import { samples } from '../media/testing'
import type { Harness } from './harness'

// biome-ignore lint/suspicious/noExplicitAny: probes read whatever JSON the API answered
export type Answer = { status: number; body: any }

/** JSON bodies that are not the object a route wants: raw text (sent as is) or values (sent as JSON). */
export const JUNK_BODIES: unknown[] = [
  '',
  ' ',
  'null',
  'true',
  '1',
  '-1',
  '"x"',
  '[]',
  '[{}]',
  '{',
  '{"a":',
  'NaN',
  '{"a":NaN}',
  '1e999',
  `${'['.repeat(100)}${']'.repeat(100)}`,
  `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`,
]

/** Objects that may be valid for a route whose fields are all optional, but must never be a 500. */
export const ODD_BODIES: string[] = [
  '{}',
  // A byte-order mark is dropped when the body is decoded as UTF-8.
  '\ufeff{}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  `{"a":${'['.repeat(30)}${']'.repeat(30)}}`,
]

/** Path ids that name no record: each must be the area's 404, never a 500 (nor another record). */
export const JUNK_IDS = [
  '0',
  '-1',
  '-0',
  '1.5',
  'NaN',
  'Infinity',
  '1e3',
  '0x10',
  '+1',
  '01',
  '%201',
  '%00',
  '١',
  'abc',
  '9007199254740993',
  '99999999999999999999',
]

/** Values every field of a body is replaced with in turn: wrong types, edges, unicode, arrays and objects. */
export const JUNK_VALUES: unknown[] = [
  null,
  0,
  -1,
  -0,
  1.5,
  1e308,
  Number.MAX_SAFE_INTEGER,
  2 ** 53, // the first integer past Number.MAX_SAFE_INTEGER
  '',
  ' ',
  '1',
  'x'.repeat(5000),
  '\u0000',
  '👋🏽\u202e',
  true,
  [],
  [1],
  {},
  { a: 1 },
]

/** Each field of `base` replaced by each junk value, and each field left out. */
export function mutations(base: Record<string, unknown>): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = []
  for (const key of Object.keys(base)) {
    for (const value of JUNK_VALUES) out.push({ ...base, [key]: value })
    const { [key]: _left, ...rest } = base
    out.push(rest)
  }
  return out
}

/** Bodies that are not JSON at all, by content type. */
export const WRONG_CONTENT: [contentType: string | null, body: string][] = [
  [null, ''],
  ['text/plain', 'a=1'],
  ['application/x-www-form-urlencoded', 'a=1&b=2'],
  ['multipart/form-data', 'no boundary'],
  ['multipart/form-data; boundary=zz', '--zz--\r\n'],
  ['application/xml', '<a/>'],
]

/** A request with a chosen content type and raw body. */
export async function rawRequest(
  h: Harness,
  method: string,
  path: string,
  token: string,
  contentType: string | null,
  body: BodyInit | null,
): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (contentType) headers['content-type'] = contentType
  const res = await h.app.request(`/api${path}`, { method, headers, body })
  const text = await res.text()
  let parsed: unknown = text
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {}
  return { status: res.status, body: parsed }
}

/** A multipart upload of `files` (field `file` unless named) plus text fields. */
export function uploadTo(
  h: Harness,
  path: string,
  token: string,
  parts: { name?: string; value: string | File }[],
): Promise<Answer> {
  const form = new FormData()
  for (const part of parts) form.append(part.name ?? 'file', part.value)
  return rawRequest(h, 'POST', path, token, null, form)
}

/** A small PNG to upload (`a.png` unless named). */
export const png = (name = 'a.png') => new File([samples.png()], name, { type: 'image/png' })

/**
 * The multipart junk every one-file upload route (field `file`) refuses: no file, two files, a string for the file,
 * the file under another field (each 400), and no body or a text body (a 4xx).
 */
export async function expectUploadJunkRefused(h: Harness, path: string, token: string) {
  expectRefused(`${path} no file`, await uploadTo(h, path, token, []), 400)
  expectRefused(
    `${path} two files`,
    await uploadTo(h, path, token, [{ value: png() }, { value: png() }]),
    400,
  )
  expectRefused(`${path} file as text`, await uploadTo(h, path, token, [{ value: 'not a file' }]), 400)
  expectRefused(
    `${path} other field`,
    await uploadTo(h, path, token, [{ name: 'medias', value: png() }]),
    400,
  )
  expectRefused(`${path} no body`, await rawRequest(h, 'POST', path, token, null, null))
  expectRefused(`${path} text body`, await rawRequest(h, 'POST', path, token, 'text/plain', 'x'))
}

/** Refused cleanly: a 4xx (optionally this one) with a JSON error code. */
export function expectRefused(label: string, res: Answer, status?: number) {
  expect({ label, status: res.status < 500 && res.status >= 400 }).toEqual({ label, status: true })
  if (status !== undefined) expect({ label, status: res.status }).toEqual({ label, status })
  expect({ label, error: typeof res.body?.error }).toEqual({ label, error: 'string' })
}

/** Never a 500: either an answer below 400, or a 4xx with a JSON error code. */
export function expectNo500(label: string, res: Answer) {
  expect({ label, below500: res.status < 500 }).toEqual({ label, below500: true })
  if (res.status >= 400) expect({ label, error: typeof res.body?.error }).toEqual({ label, error: 'string' })
}

/** A method and path sent every junk id: each answers 404 with the area's code. */
export async function expectJunkIds404(
  h: Harness,
  token: string,
  routes: [method: string, path: string][],
  code: string,
) {
  for (const id of JUNK_IDS)
    for (const [method, path] of routes) {
      const res = await h.call(method, path.replace(':id', id), {
        token,
        body: method === 'GET' || method === 'DELETE' ? undefined : {},
      })
      const label = `${method} ${path} id=${id}`
      expectRefused(label, res, 404)
      expect({ label, error: res.body.error }).toEqual({ label, error: code })
    }
}

/** Every junk body and wrong content type to a JSON route: each a 4xx with an error code. */
export async function expectJunkBodiesRefused(h: Harness, token: string, method: string, path: string) {
  for (const body of JUNK_BODIES)
    expectRefused(
      `${method} ${path} ${JSON.stringify(body).slice(0, 60)}`,
      await h.call(method, path, { token, body }),
    )
  for (const [type, body] of WRONG_CONTENT)
    expectRefused(`${method} ${path} as ${type}`, await rawRequest(h, method, path, token, type, body))
  // JSON under another content type or charset is read as UTF-8 JSON today (http/validate.ts jsonBody): never a
  // 500 at least. Latin-1 bytes that are not UTF-8 become U+FFFD.
  expectNo500(
    `${method} ${path} JSON as text/plain`,
    await rawRequest(h, method, path, token, 'text/plain', '{}'),
  )
  const latin1 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xe9, 0x22, 0x7d])
  expectNo500(
    `${method} ${path} latin1`,
    await rawRequest(h, method, path, token, 'application/json; charset=latin1', latin1),
  )
  for (const body of ODD_BODIES)
    expectNo500(`${method} ${path} ${body.slice(0, 60)}`, await h.call(method, path, { token, body }))
  const huge = { a: 'x'.repeat(3 * 1024 * 1024) }
  expectRefused(`${method} ${path} 3 MiB`, await h.call(method, path, { token, body: huge }), 413)
}
