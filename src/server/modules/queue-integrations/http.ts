/**
 * Reading what an integration's server answers. The URLs are typed by a company's admin, so an answer is read
 * with a ceiling: a server that answers endlessly (or a huge file) cannot fill the memory. The body is read as a
 * stream and the request is cancelled as soon as it passes `MAX_ANSWER_BYTES`.
 */

/** The most an integration's answer may hold (replies are a few kilobytes; Dialogflow's answers tens). */
export const MAX_ANSWER_BYTES = 1024 * 1024

export class AnswerTooLarge extends Error {
  constructor(limit: number) {
    super(`the answer is larger than ${Math.round(limit / 1024)} KiB`)
  }
}

/** The body of `res` as UTF-8 text, or AnswerTooLarge once it passes `limit` bytes (the rest is not read). */
export async function readLimitedText(res: Response, limit = MAX_ANSWER_BYTES): Promise<string> {
  const declared = Number(res.headers.get('content-length'))
  if (Number.isFinite(declared) && declared > limit) {
    await res.body?.cancel().catch(() => {})
    throw new AnswerTooLarge(limit)
  }
  if (!res.body) return ''
  const reader = res.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      await reader.cancel().catch(() => {})
      throw new AnswerTooLarge(limit)
    }
    chunks.push(value)
  }
  const all = new Uint8Array(size)
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return new TextDecoder().decode(all)
}

/** Only http and https URLs are fetched (never file:, data: or anything Bun's fetch would also open). */
export function assertHttpUrl(url: string, what: string): void {
  let protocol = ''
  try {
    protocol = new URL(url).protocol
  } catch {}
  if (protocol !== 'http:' && protocol !== 'https:') throw new Error(`${what} is not an http or https URL`)
}
