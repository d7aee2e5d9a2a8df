/**
 * Imports run one way (ARCHITECTURE.md, "Layers"): these tests read the import graph of the sources (type-only and
 * dynamic imports included) and name every file that breaks a rule.
 */
import { describe, expect, test } from 'bun:test'
import { cycles, importsOf, isTestFile, sourceFiles } from './test/import-graph'

const ALL = sourceFiles('server', 'shared', 'web', 'cli')
const PRODUCTION = ALL.filter((f) => !isTestFile(f))

/** `from → to` for each production file under `from` that imports a file under `to`. */
function crossings(from: string, to: string) {
  return PRODUCTION.filter((f) => f.startsWith(from)).flatMap((f) =>
    importsOf(f)
      .filter((g) => g.startsWith(to))
      .map((g) => `${f} → ${g}`),
  )
}

/** The area of a server module file (`server/modules/<area>/…`), or null. */
const areaOf = (file: string) => /^server\/modules\/([^/]+)\//.exec(file)?.[1] ?? null

describe('imports run one way', () => {
  test('no file imports another, directly or around a cycle', () => {
    expect(cycles(ALL).map((c) => c.join(' → '))).toEqual([])
  })

  test('db/ imports no module: bootstrap and the demo company live beside serve.ts', () => {
    expect(crossings('server/db/', 'server/modules/')).toEqual([])
  })

  test('http/ imports no module: tokens and the company gate live in access/', () => {
    expect(crossings('server/http/', 'server/modules/')).toEqual([])
  })

  test('realtime/ imports no module: serve.ts hands it roomsOfUser, setOnline and ticketAccess', () => {
    expect(crossings('server/realtime/', 'server/modules/')).toEqual([])
  })

  test('tickets import nothing from the chatbot: a ticket change reaches it through transition listeners', () => {
    expect(crossings('server/modules/tickets/', 'server/modules/chatbot/')).toEqual([])
  })

  test('no two server areas import each other: what both need lives in the lower one, or below both', () => {
    const imported = new Map<string, Set<string>>()
    for (const f of PRODUCTION) {
      const from = areaOf(f)
      if (!from) continue
      for (const g of importsOf(f)) {
        const to = areaOf(g)
        if (to && to !== from) imported.set(from, (imported.get(from) ?? new Set()).add(to))
      }
    }
    const pairs = [...imported].flatMap(([a, tos]) =>
      [...tos].filter((b) => a < b && imported.get(b)?.has(a)).map((b) => `${a} ↔ ${b}`),
    )
    expect(pairs.sort()).toEqual([])
  })

  test('no routes file imports another area’s routes', () => {
    const found = PRODUCTION.filter((f) => f.endsWith('/routes.ts')).flatMap((f) =>
      importsOf(f)
        .filter((g) => g.endsWith('/routes.ts') && areaOf(g) !== areaOf(f))
        .map((g) => `${f} → ${g}`),
    )
    expect(found).toEqual([])
  })

  test('web components (layout, history, the design system) import no page', () => {
    expect(crossings('web/components/', 'web/pages/')).toEqual([])
  })

  test('the web imports nothing from the server', () => {
    expect(crossings('web/', 'server/')).toEqual([])
  })
})
