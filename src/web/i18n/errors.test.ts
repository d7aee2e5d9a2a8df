import { describe, expect, test } from 'bun:test'
import { ERROR_STATUS } from '../../shared/errors'
import { en } from './en'
import { es } from './es'
import { pt } from './pt'

/**
 * Every code the server can answer is shown translated (spec section 8): a code without a text in a locale
 * would show the server's English message, or another locale's text through the fallback. Codes added to the
 * catalogue later fail here until all three locales say them.
 */
describe('error texts', () => {
  const codes = Object.keys(ERROR_STATUS)
  for (const [lang, texts] of [
    ['pt', pt],
    ['en', en],
    ['es', es],
  ] as const) {
    test(`${lang} has a text for every code of src/shared/errors.ts`, () => {
      const errors = texts.errors as Record<string, unknown>
      const missing = codes.filter((code) => typeof errors[code] !== 'string' || !String(errors[code]).trim())
      expect(missing).toEqual([])
    })
  }
})
