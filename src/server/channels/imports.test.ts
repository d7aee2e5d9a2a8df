import { describe, expect, test } from 'bun:test'
import { cycles, reachable } from '../test/import-graph'

describe('channel imports', () => {
  test('the manager and the server context do not import each other', () => {
    const found = cycles(['server/context.ts', 'server/deps.ts', 'server/channels/providers.ts'])
    expect(
      found.filter((c) => c.includes('server/context.ts') || c.includes('server/channels/manager.ts')),
    ).toEqual([])
  })

  test('test-only builders stay out of production code', async () => {
    const normalize = await import('./normalize')
    expect(Object.keys(normalize).filter((name) => name.startsWith('build'))).toEqual([])
    const production = new Set([
      ...reachable('server/deps.ts', 'all').files,
      ...reachable('server/channels/providers.ts', 'all').files,
    ])
    const testOnly = [...production].filter((f) => /\.fixtures\.ts$|\/testing(\.ts$|\/)|\/test\//.test(f))
    expect(testOnly).toEqual([])
  })
})
