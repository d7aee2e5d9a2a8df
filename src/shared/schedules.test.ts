import { describe, expect, test } from 'bun:test'
import {
  defaultSchedules,
  effectiveSchedules,
  isValidTime,
  isWithinSchedule,
  parseSchedules,
  serializeSchedules,
  timeToMinutes,
  validateSchedules,
} from './schedules'

describe('schedules', () => {
  test('defaults: Mon-Fri 08-18, Sat 08-12, Sun closed, Monday first', () => {
    const d = defaultSchedules()
    expect(d.map((s) => s.weekdayEn)).toEqual([
      'monday',
      'tuesday',
      'wednesday',
      'thursday',
      'friday',
      'saturday',
      'sunday',
    ])
    expect(d[0]).toEqual({
      weekday: 'Segunda-feira',
      weekdayEn: 'monday',
      startTime: '08:00',
      endTime: '18:00',
    })
    expect(d[5]).toEqual({ weekday: 'Sábado', weekdayEn: 'saturday', startTime: '08:00', endTime: '12:00' })
    expect(d[6]).toEqual({ weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' })
    d[0]!.startTime = '09:00'
    expect(defaultSchedules()[0]!.startTime).toBe('08:00')
  })

  test('HH:MM', () => {
    for (const ok of ['00:00', '08:30', '23:59', '19:05']) expect(isValidTime(ok)).toBe(true)
    for (const bad of ['24:00', '8:00', '08:60', '0800', '08:00:00', '', ' 08:00', 8, null, '٠٨:٠٠'])
      expect(isValidTime(bad)).toBe(false)
    expect(timeToMinutes('13:45')).toBe(825)
  })

  test('validate normalises labels and order, refuses bad input', () => {
    const r = validateSchedules([
      { weekday: 'x', weekdayEn: 'Sunday', startTime: '00:00', endTime: '00:00' },
      { weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
    ])
    expect(r).toEqual({
      ok: true,
      schedules: [
        { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
        { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '00:00', endTime: '00:00' },
      ],
    })
    expect(validateSchedules('x').ok).toBe(false)
    expect(validateSchedules([null]).ok).toBe(false)
    expect(validateSchedules([{ weekdayEn: 'funday', startTime: '08:00', endTime: '09:00' }]).ok).toBe(false)
    expect(validateSchedules([{ weekdayEn: 'monday', startTime: '8:00', endTime: '09:00' }]).ok).toBe(false)
    const dup = validateSchedules([
      { weekdayEn: 'monday', startTime: '08:00', endTime: '09:00' },
      { weekdayEn: 'monday', startTime: '10:00', endTime: '11:00' },
    ])
    expect(dup.ok).toBe(false)
    if (!dup.ok) expect(dup.problems[0]).toMatchObject({ index: 1, field: 'weekdayEn' })
    expect(
      validateSchedules(new Array(8).fill({ weekdayEn: 'monday', startTime: '08:00', endTime: '09:00' })).ok,
    ).toBe(false)
  })

  test('parse never throws and round-trips', () => {
    expect(parseSchedules('not json')).toEqual([])
    expect(parseSchedules('{}')).toEqual([])
    expect(parseSchedules('[]')).toEqual([])
    expect(effectiveSchedules('[]')).toEqual(defaultSchedules())
    expect(effectiveSchedules('broken')).toEqual(defaultSchedules())
    const one = [{ weekday: 'Domingo', weekdayEn: 'sunday' as const, startTime: '09:00', endTime: '10:00' }]
    expect(effectiveSchedules(JSON.stringify(one))).toEqual(one)
    const d = defaultSchedules()
    expect(parseSchedules(serializeSchedules(d))).toEqual(d)
    expect(JSON.parse(serializeSchedules(d))[0]).toEqual({
      weekday: 'Segunda-feira',
      weekdayEn: 'monday',
      startTime: '08:00',
      endTime: '18:00',
    })
  })

  test('isWithinSchedule', () => {
    const d = defaultSchedules()
    // Monday = 1
    expect(isWithinSchedule(d, 1, timeToMinutes('07:59'))).toBe(false)
    expect(isWithinSchedule(d, 1, timeToMinutes('08:00'))).toBe(true)
    expect(isWithinSchedule(d, 1, timeToMinutes('17:59'))).toBe(true)
    expect(isWithinSchedule(d, 1, timeToMinutes('18:00'))).toBe(false)
    expect(isWithinSchedule(d, 6, timeToMinutes('11:00'))).toBe(true)
    expect(isWithinSchedule(d, 6, timeToMinutes('12:00'))).toBe(false)
    expect(isWithinSchedule(d, 0, timeToMinutes('10:00'))).toBe(false)
    expect(isWithinSchedule([], 1, 600)).toBe(false)
    const night = [
      { weekday: 'Sexta-feira', weekdayEn: 'friday' as const, startTime: '22:00', endTime: '02:00' },
    ]
    expect(isWithinSchedule(night, 5, timeToMinutes('23:00'))).toBe(true)
    expect(isWithinSchedule(night, 6, timeToMinutes('01:59'))).toBe(true)
    expect(isWithinSchedule(night, 6, timeToMinutes('02:00'))).toBe(false)
    expect(isWithinSchedule(night, 5, timeToMinutes('01:00'))).toBe(false)
  })
})
