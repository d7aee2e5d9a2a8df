import { describe, expect, test } from 'bun:test'
import { createLogger, logFormat, prettyLine } from './logger'

describe('logs', () => {
  test('BALCAO_LOG_FORMAT chooses; unset, a terminal gets pretty and anything else JSON', () => {
    expect(logFormat({ BALCAO_LOG_FORMAT: 'json' }, true)).toBe('json')
    expect(logFormat({ BALCAO_LOG_FORMAT: 'PRETTY' }, false)).toBe('pretty')
    expect(logFormat({}, true)).toBe('pretty')
    expect(logFormat({}, false)).toBe('json')
    expect(logFormat({ BALCAO_LOG_FORMAT: 'xml' }, false)).toBe('json')
  })

  test('JSON: one object per line with time, level, message and fields', () => {
    const lines: string[] = []
    createLogger((l) => lines.push(l), 'json').warn('disk low', { freeMb: 120, err: new Error('x') })
    const entry = JSON.parse(lines[0] ?? '')
    expect(entry).toMatchObject({ level: 'warn', msg: 'disk low', freeMb: 120, err: 'x' })
    expect(Date.parse(entry.t)).not.toBeNaN()
  })

  test('pretty: a line a person reads, values quoted only when they need it', () => {
    const at = new Date('2026-11-22T14:03:07Z')
    expect(
      prettyLine(at, 'info', 'Balcão is listening', { url: 'http://127.0.0.1:8080', data: '/srv/a b' }),
    ).toBe('14:03:07 INFO  Balcão is listening  url=http://127.0.0.1:8080 data="/srv/a b"')
    expect(prettyLine(at, 'error', 'boom')).toBe('14:03:07 ERROR boom')
    const lines: string[] = []
    createLogger((l) => lines.push(l), 'pretty', false).info('ok', { n: 3 })
    expect(lines[0]).toEndWith('INFO  ok  n=3')
  })
})
