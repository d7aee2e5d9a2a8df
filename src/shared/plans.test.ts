import { describe, expect, test } from 'bun:test'
import { addRecurrence } from './plans'

describe('addRecurrence', () => {
  test('moves a due date by 1, 2, 3, 6 or 12 months', () => {
    expect(addRecurrence('2026-11-22', 'MENSAL')).toBe('2026-12-22')
    expect(addRecurrence('2026-11-22', 'BIMESTRAL')).toBe('2027-01-22')
    expect(addRecurrence('2026-11-22', 'TRIMESTRAL')).toBe('2027-02-22')
    expect(addRecurrence('2026-11-22', 'SEMESTRAL')).toBe('2027-05-22')
    expect(addRecurrence('2026-11-22', 'ANUAL')).toBe('2027-11-22')
  })

  test('keeps the day, or the last day of a shorter month', () => {
    expect(addRecurrence('2027-01-31', 'MENSAL')).toBe('2027-02-28')
    expect(addRecurrence('2028-01-31', 'MENSAL')).toBe('2028-02-29')
    expect(addRecurrence('2026-08-31', 'SEMESTRAL')).toBe('2027-02-28')
    expect(addRecurrence('2026-12-15', 'MENSAL')).toBe('2027-01-15')
  })
})
