import { describe, expect, test } from 'bun:test'
import { AnswerTooLarge, assertHttpUrl, readLimitedText } from './http'

describe('reading an integration answer', () => {
  test('a small answer is read whole; one past the ceiling throws, declared or streamed', async () => {
    expect(await readLimitedText(new Response('olá'), 10)).toBe('olá')
    expect(await readLimitedText(new Response(null), 10)).toBe('')
    await expect(readLimitedText(new Response('x'.repeat(11)), 10)).rejects.toBeInstanceOf(AnswerTooLarge)
    let pulls = 0
    const endless = new Response(
      new ReadableStream({
        pull(c) {
          pulls++
          c.enqueue(new Uint8Array(4))
        },
      }),
    )
    await expect(readLimitedText(endless, 10)).rejects.toBeInstanceOf(AnswerTooLarge)
    expect(pulls).toBeLessThan(10)
  })

  test('only http and https URLs are fetched', () => {
    expect(() => assertHttpUrl('https://example.com/x', 'u')).not.toThrow()
    expect(() => assertHttpUrl('http://127.0.0.1:1/x', 'u')).not.toThrow()
    for (const url of ['file:///etc/passwd', 'data:text/plain,x', 'ftp://h/x', 'nope', ''])
      expect(() => assertHttpUrl(url, 'u')).toThrow()
  })
})
