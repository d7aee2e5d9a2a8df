import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative } from 'node:path'
import type { Context } from 'hono'

type Asset = {
  path: string
  /** Read on first request, so start-up and an idle server do not hold files nobody asked for. */
  body: Uint8Array<ArrayBuffer> | undefined
  /** Compressed on first request, so start-up does not pay for files nobody asks for. */
  gzip: Uint8Array<ArrayBuffer> | null | undefined
  compressible: boolean
  etag: string | undefined
  type: string
  immutable: boolean
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
}

/** Where the prebuilt UI is: embedded in the executable, or dist/web when running from sources. */
export function webDir() {
  if (Bun.isStandaloneExecutable) return join(import.meta.dir, 'web')
  return join(import.meta.dir, '../../dist/web')
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })
}

/**
 * The built UI, listed at start-up and read on first request: each file with its ETag (and its gzip once asked for). Hashed file names are cached
 * for a year; index.html is revalidated on every load, so a new version is picked up at once.
 */
export class WebAssets {
  private readonly files = new Map<string, Asset>()

  constructor(dir: string) {
    if (!existsSync(dir)) return
    for (const path of walk(dir)) {
      const type = TYPES[extname(path)] ?? 'application/octet-stream'
      this.files.set(`/${relative(dir, path)}`, {
        path,
        body: undefined,
        gzip: undefined,
        compressible: /^(text\/|application\/json|image\/svg)/.test(type) && statSync(path).size > 1024,
        etag: undefined,
        type,
        immutable: /-[a-z0-9]{8}\.[a-z0-9]+$/.test(path),
      })
    }
  }

  get available() {
    return this.files.has('/index.html')
  }

  serve(c: Context): Response {
    const path = c.req.path
    let asset = this.files.get(path)
    if (!asset) {
      if (extname(path)) return c.text('Not found', 404)
      asset = this.files.get('/index.html')
      if (!asset) return c.text('The web UI is not built. Run `npm run build:web`.', 503)
    }
    if (!asset.body) {
      asset.body = new Uint8Array(readFileSync(asset.path)) as Uint8Array<ArrayBuffer>
      asset.etag = `"${Bun.hash(asset.body).toString(36)}"`
    }
    const body = asset.body
    const etag = asset.etag as string
    const headers: Record<string, string> = {
      'content-type': asset.type,
      etag,
      'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'accept-encoding',
    }
    if (c.req.header('if-none-match') === etag) return new Response(null, { status: 304, headers })
    if (asset.compressible && /\bgzip\b/.test(c.req.header('accept-encoding') ?? '')) {
      asset.gzip ??= Bun.gzipSync(body) as Uint8Array<ArrayBuffer>
      return new Response(asset.gzip, { headers: { ...headers, 'content-encoding': 'gzip' } })
    }
    return new Response(body, { headers })
  }
}
