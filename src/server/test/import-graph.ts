/**
 * The import graph of the sources, for tests that keep imports running one way: which files a file reaches,
 * and the cycles among a set of files.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

export const SRC = resolve(import.meta.dir, '../..')

/**
 * `static`: what loads with the file (type-only imports are erased, dynamic `import()` waits);
 * `all`: every reference, type-only and dynamic included (what a reader follows).
 */
export type ImportMode = 'static' | 'all'

const transpilers = { ts: new Bun.Transpiler({ loader: 'ts' }), tsx: new Bun.Transpiler({ loader: 'tsx' }) }
// Type-only imports and exports: the transpiler drops them, a reader still follows them.
const TYPE_IMPORT = /^\s*(?:import|export)\s+type\s+[\w\s{},*$]*?from\s+['"]([^'"]+)['"]/gm

function specifiers(file: string, mode: ImportMode): { path: string; dynamic: boolean }[] {
  const code = readFileSync(file, 'utf8').replace(/^#!.*/, '')
  const found = transpilers[file.endsWith('.tsx') ? 'tsx' : 'ts']
    .scanImports(code)
    .map((i) => ({ path: i.path, dynamic: i.kind === 'dynamic-import' }))
  if (mode === 'all') for (const m of code.matchAll(TYPE_IMPORT)) found.push({ path: m[1]!, dynamic: false })
  return mode === 'static' ? found.filter((i) => !i.dynamic) : found
}

function resolveLocal(from: string, spec: string) {
  const base = resolve(dirname(from), spec)
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
    (c) => /\.tsx?$/.test(c) && existsSync(c),
  )
}

/** Source files (relative to src/) and packages reachable from `entry` (relative to src/). */
export function reachable(entry: string, mode: ImportMode) {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    const name = relative(SRC, file)
    if (files.has(name)) return
    files.add(name)
    for (const { path } of specifiers(file, mode)) {
      if (!path.startsWith('.')) packages.add(path)
      else {
        const next = resolveLocal(file, path)
        if (next) visit(next)
      }
    }
  }
  visit(join(SRC, entry))
  return { files, packages }
}

const localImports = new Map<string, string[]>()

/** The source files `file` (relative to src/) refers to, every reference counted, relative to src/. */
export function importsOf(file: string): string[] {
  let found = localImports.get(file)
  if (found) return found
  const abs = join(SRC, file)
  found = specifiers(abs, 'all')
    .filter((s) => s.path.startsWith('.'))
    .map((s) => resolveLocal(abs, s.path))
    .filter((f): f is string => !!f)
    .map((f) => relative(SRC, f))
  localImports.set(file, found)
  return found
}

/** Every source file (relative to src/) under these folders of src/. */
export function sourceFiles(...folders: string[]): string[] {
  const files: string[] = []
  for (const folder of folders)
    for (const file of new Bun.Glob(`${folder}/**/*.{ts,tsx}`).scanSync({ cwd: SRC })) files.push(file)
  return files.sort()
}

/** Tests and their helpers, which may reach across layers (a harness builds the whole server). */
export const isTestFile = (file: string) =>
  /\.test\.tsx?$|\/testing\.ts$|\/testing\/|\/test\/|fixtures\.ts$/.test(file)

/** The import cycles (every reference counts) among the files reachable from `entries`, as lists of paths. */
export function cycles(entries: string[]) {
  const edges = new Map<string, string[]>()
  const pending = [...entries]
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (edges.has(file)) continue
    edges.set(file, importsOf(file))
    pending.push(...edges.get(file)!)
  }
  // Tarjan: a strongly connected component of more than one file is a cycle.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  let counter = 0
  const connect = (v: string) => {
    index.set(v, counter)
    low.set(v, counter)
    counter++
    stack.push(v)
    onStack.add(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) !== index.get(v)) return
    const component: string[] = []
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w)
      component.push(w)
      if (w === v) break
    }
    if (component.length > 1) found.push(component.sort())
  }
  for (const v of edges.keys()) if (!index.has(v)) connect(v)
  return found
}
