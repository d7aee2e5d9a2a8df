/**
 * Shared set-up for the browser tests and tests/e2e/shoot.ts: the BUILT executable (dist/balcao) on a free
 * port with a throw-away data folder, and Debian's chromium through playwright-core with a throw-away
 * profile. Every helper hands back a stop()/close() that ends what it started and removes its temp dirs.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type BrowserContext, chromium, type Page } from 'playwright-core'

/** The repository root. */
export const ROOT = resolve(import.meta.dir, '../..')
/** The built executable (`npx bun scripts/build.ts`). */
export const BINARY = join(ROOT, 'dist/balcao')
/** The chromium playwright drives: Debian's, or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** Where screenshots land (gitignored). */
export const ARTIFACTS = join(import.meta.dir, 'artifacts')
/** The first admin the servers started here create from BALCAO_ADMIN_EMAIL / BALCAO_ADMIN_PASSWORD. */
export const ADMIN = { email: 'admin@balcao.local', password: 'admin12345' }

/** Creates `dir` (default ARTIFACTS) if needed and returns it. */
export function artifactsDir(dir = ARTIFACTS): string {
  mkdirSync(dir, { recursive: true })
  return dir
}

/** Fails with a hint when dist/balcao has not been built. */
export function requireBinary(): void {
  if (!existsSync(BINARY)) throw new Error('dist/balcao is missing: run `npx bun scripts/build.ts` first')
}

/** Builds dist/balcao (scripts/build.ts) unless it is there already. */
export async function ensureBinary(): Promise<void> {
  if (existsSync(BINARY)) return
  const build = Bun.spawn([process.execPath, 'scripts/build.ts'], {
    cwd: ROOT,
    stdout: 'inherit',
    stderr: 'inherit',
  })
  const code = await build.exited
  if (code !== 0) throw new Error(`scripts/build.ts exited with ${code}`)
}

/** A TCP port on 127.0.0.1 that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer()
    srv.once('error', fail)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => ok(port))
    })
  })
}

/** Resolves once `${url}/api/health` answers 2xx; throws after `ms`. */
export async function waitHealthy(url: string, ms = 20_000): Promise<void> {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/api/health`)
      if (res.ok) return
    } catch {
      // not listening yet
    }
    await Bun.sleep(100)
  }
  throw new Error(`server at ${url} did not become healthy`)
}

export type BalcaoOptions = {
  /** Serve with the simulated WhatsApp network (`--sandbox`). */
  sandbox?: boolean
  /** Prefix of the temp data folder's name. */
  prefix?: string
  /** The first admin (default ADMIN). */
  admin?: { email: string; password: string }
  /** Real Baileys sessions connect to the WhatsApp simulator at this `ws://127.0.0.1:P` (`--wa-simulator`). */
  waSimulator?: string
}

export type Balcao = {
  /** http://127.0.0.1:<port> */
  url: string
  pid: number
  /** SIGTERMs the server by pid, waits for it to exit and removes its data folder. Safe to call twice. */
  stop: () => Promise<void>
}

/**
 * Starts `dist/balcao serve` on a free port of 127.0.0.1 with a fresh data folder (also its cwd) and waits
 * until it is healthy. If it never gets healthy it is stopped before the error is thrown.
 */
export async function startBalcao(options: BalcaoOptions = {}): Promise<Balcao> {
  requireBinary()
  const admin = options.admin ?? ADMIN
  const data = mkdtempSync(join(tmpdir(), options.prefix ?? 'balcao-e2e-data-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const args = [BINARY, 'serve', '--port', String(port), '--host', '127.0.0.1', '--data', data]
  if (options.sandbox) args.push('--sandbox')
  if (options.waSimulator) args.push('--wa-simulator', options.waSimulator)
  const server = Bun.spawn(args, {
    cwd: data,
    env: { ...process.env, BALCAO_ADMIN_EMAIL: admin.email, BALCAO_ADMIN_PASSWORD: admin.password },
    stdout: 'ignore',
    stderr: 'pipe',
  })
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    if (server.exitCode === null && server.signalCode === null) {
      try {
        process.kill(server.pid, 'SIGTERM')
      } catch {
        // already gone
      }
    }
    await server.exited
    rmSync(data, { recursive: true, force: true })
  }
  try {
    await waitHealthy(url)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, pid: server.pid, stop }
}

export type BrowserOptions = {
  viewport?: { width: number; height: number }
  colorScheme?: 'light' | 'dark'
  locale?: string
  /** Prefix of the temp profile folder's name. */
  prefix?: string
  /** More chromium switches (e.g. a fake microphone). */
  args?: string[]
}

export type Browser = {
  context: BrowserContext
  /** Closes chromium and removes its profile folder. Safe to call twice. */
  close: () => Promise<void>
}

/** Launches headless chromium with a fresh profile (default viewport 1280x800). */
export async function launchBrowser(options: BrowserOptions = {}): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), options.prefix ?? 'balcao-e2e-chromium-'))
  let context: BrowserContext
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        ...(options.args ?? []),
      ],
      viewport: options.viewport ?? { width: 1280, height: 800 },
      ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
      ...(options.locale ? { locale: options.locale } : {}),
    })
  } catch (error) {
    rmSync(profile, { recursive: true, force: true })
    throw error
  }
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await context.close().catch(() => {})
    rmSync(profile, { recursive: true, force: true })
  }
  return { context, close }
}

/** Launches chromium (launchBrowser) and hands back its first page as well. */
export async function launchPage(options: BrowserOptions = {}): Promise<Browser & { page: Page }> {
  const browser = await launchBrowser(options)
  const page = browser.context.pages()[0] ?? (await browser.context.newPage())
  return { ...browser, page }
}

/** Signs a user in through the login screen at `base` and waits for the tickets page. */
export async function signIn(
  page: Page,
  base: string,
  user: { email: string; password: string },
): Promise<void> {
  await page.goto(`${base}/login`)
  await page.getByLabel('E-mail').fill(user.email)
  await page.getByLabel('Senha', { exact: true }).fill(user.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await page.waitForURL('**/tickets')
}

/** Calls the API as one user: JSON in and out, POST when there is a body (else GET) unless `method` says. */
export type Api = <T = unknown>(path: string, init?: { method?: string; body?: unknown }) => Promise<T>

/** Signs the first admin (ADMIN) in through the API at `base` and hands back a client that uses its token. */
export async function adminApi(base: string): Promise<Api> {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  })
  const { token } = (await login.json()) as { token: string }
  return async <T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> => {
    const method = init.method ?? (init.body ? 'POST' : 'GET')
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    })
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as T
  }
}

/** Creates a sandbox connection (name 'Loja' unless `body` says) and pairs it; returns its id. */
export async function pairedSandbox(api: Api, body: Record<string, unknown> = {}): Promise<number> {
  const { id } = await api<{ id: number }>('/whatsapp', {
    body: { name: 'Loja', provider: 'sandbox', ...body },
  })
  await api(`/sandbox/connections/${id}/pair`, { body: {} })
  return id
}

/** Switches the page to the dark theme (if it is not already) and waits for it. */
export async function useDarkTheme(page: Page): Promise<void> {
  if ((await page.locator('html.dark').count()) === 0) await page.getByTestId('theme-toggle').click()
  await page.locator('html.dark').waitFor({ state: 'attached' })
}

/**
 * How far the page is wider than the screen (0 or less: nothing overflows). When something does, the first
 * elements sticking out are logged, to say which.
 */
export async function horizontalOverflow(page: Page): Promise<number> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  if (overflow > 0)
    console.log(
      await page.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(0, 8)
          .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`),
      ),
    )
  return overflow
}
