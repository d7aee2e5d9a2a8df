/**
 * Builds Balcão.
 *   bun scripts/build.ts web   -> the React UI into dist/web (what `npm start` serves from source)
 *   bun scripts/build.ts       -> the UI, then one executable at dist/balcao carrying the API, the
 *                                 migrations and the UI; it runs from any folder with nothing beside it.
 */
import { rmSync } from 'node:fs'
import type { BunPlugin } from 'bun'
import tailwind from 'bun-plugin-tailwind'
import pkg from '../package.json'
import { baileysWebSocketPlugin } from '../src/server/channels/baileys/ws-plugin'

const production = { 'process.env.NODE_ENV': '"production"' }

/** Ink imports react-devtools-core only in its DEV mode; an empty module keeps it out of the executable. */
const stubReactDevtools: BunPlugin = {
  name: 'stub-react-devtools-core',
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({
      path: 'react-devtools-core',
      namespace: 'stub-devtools',
    }))
    build.onLoad({ filter: /.*/, namespace: 'stub-devtools' }, () => ({
      contents: 'export default { initialize() {}, connectToDevTools() {} }',
      loader: 'js',
    }))
  },
}

function fail(result: Awaited<ReturnType<typeof Bun.build>>, what: string): never {
  for (const log of result.logs) console.error(log)
  throw new Error(`${what} build failed`)
}

export async function buildWeb(outdir = 'dist/web') {
  rmSync(outdir, { recursive: true, force: true })
  const result = await Bun.build({
    entrypoints: ['src/web/index.html'],
    outdir,
    target: 'browser',
    publicPath: '/',
    minify: true,
    sourcemap: 'linked',
    plugins: [tailwind],
    define: { ...production, __BALCAO_VERSION__: JSON.stringify(pkg.version) },
  })
  if (!result.success) fail(result, 'web')
  return result
}

export async function buildExecutable(outfile = 'dist/balcao') {
  const result = await Bun.build({
    // A Worker's module is an entrypoint of its own, embedded beside main (Bun's documented form for --compile);
    // the code starts it with `new Worker(new URL('./parse-worker.ts', import.meta.url).href)`.
    entrypoints: ['src/main.ts', 'src/server/modules/contact-lists/parse-worker.ts'],
    // Every file at the root of the embedded filesystem, as the chunks are: the chunk that starts the worker
    // resolves './parse-worker.ts' against its own URL (/$bunfs/root/chunk-….js), so the worker must sit beside it.
    naming: { entry: '[name].[ext]' },
    compile: { outfile, assets: ['./dist/web', './migrations'] },
    minify: true,
    // Start-up: each command's code is its own chunk, loaded by its dynamic import (serve never parses Baileys,
    // Ink or the API until it needs them), and precompiled bytecode spares parsing what does load.
    splitting: true,
    bytecode: true,
    format: 'esm',
    sourcemap: 'none',
    plugins: [stubReactDevtools, baileysWebSocketPlugin],
    define: production,
  } as Parameters<typeof Bun.build>[0])
  if (!result.success) fail(result, 'executable')
  return result
}

if (import.meta.main) {
  const started = performance.now()
  await buildWeb()
  if (process.argv[2] !== 'web') await buildExecutable()
  console.log(`built in ${Math.round(performance.now() - started)} ms`)
}
