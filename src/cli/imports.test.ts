import { describe, expect, test } from 'bun:test'
import { cycles, reachable } from '../server/test/import-graph'

describe('CLI imports', () => {
  test('the entry loads no screen, server or WhatsApp code until a command needs it', () => {
    const { packages, files } = reachable('main.ts', 'static')
    const heavy = [...packages].filter((p) => !p.startsWith('node:') && p !== 'commander')
    expect(heavy).toEqual([])
    expect([...files].filter((f) => f.startsWith('cli/ui/'))).toEqual([])
  })

  test('commands and their screens import one way', () => {
    const inCli = cycles(['main.ts']).filter((c) => c.some((f) => f.startsWith('cli/')))
    expect(inCli).toEqual([])
  })
})
