import { describe, expect, test } from 'bun:test'
import { normalizeNumber, numberForms, numberKey } from './numbers'

describe('numbers', () => {
  test('digits only, whatever WhatsApp or a person wrote', () => {
    expect(normalizeNumber('+55 (11) 98765-4321')).toBe('5511987654321')
    expect(normalizeNumber('5511987654321@s.whatsapp.net')).toBe('5511987654321')
    expect(normalizeNumber('5511987654321:12@s.whatsapp.net')).toBe('5511987654321')
    expect(normalizeNumber('abc')).toBeNull()
    expect(normalizeNumber('')).toBeNull()
  })

  test('a Brazilian mobile with and without the ninth digit is one person', () => {
    expect(numberKey('551187654321')).toBe('5511987654321')
    expect(numberKey('5511987654321')).toBe('5511987654321')
    expect(numberForms('5511987654321')).toEqual(['5511987654321', '551187654321'])
    expect(numberForms('551187654321')).toEqual(['551187654321', '5511987654321'])
  })

  test('landlines and other countries are left alone', () => {
    expect(numberKey('551132654321')).toBe('551132654321')
    expect(numberForms('551132654321')).toEqual(['551132654321'])
    expect(numberKey('14155552671')).toBe('14155552671')
  })
})
