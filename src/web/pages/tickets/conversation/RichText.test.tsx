import { describe, expect, test } from 'bun:test'
import { plainText } from './RichText'

describe('plainText', () => {
  test('drops WhatsApp formatting marks and keeps the words', () => {
    expect(plainText('*Sara Suporte:*\nOi _Joana_, ~não~ ```code```')).toBe(
      'Sara Suporte:\nOi Joana, não code',
    )
    expect(plainText('2 * 3 = 6 and a_b_c')).toBe('2 * 3 = 6 and a_b_c')
  })
})
