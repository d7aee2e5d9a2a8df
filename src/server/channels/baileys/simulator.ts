/**
 * Running against the WhatsApp simulator (tests/wa-sim): `balcao serve --wa-simulator ws://127.0.0.1:P`
 * (env BALCAO_WA_SIMULATOR). Only such a process
 * - trusts the simulator's root key: Baileys pins WhatsApp's in `WA_CERT_DETAILS` (Defaults/index.js), which its
 *   noise handler reads at every handshake, so the simulator's `{publicKey, serial}` (GET /control/root) replaces
 *   it for this process alone;
 * - points every Baileys socket at the simulator and keeps Baileys's bundled WhatsApp Web version (no fetch);
 * - reaches the simulator for media: Baileys builds `https://<media_conn host>/mms/...` upload URLs and
 *   `https://mmg.whatsapp.net/...` download URLs and fetches them with the global `fetch` (uploadWithFetch and
 *   getHttpStream in Utils/messages-media.js; no option takes a fetch or a URL rewrite). So the process's `fetch`
 *   is wrapped: https requests to WhatsApp's hosts (`*.whatsapp.net`, `*.whatsapp.com`) or to the simulator's own
 *   host go to `http://127.0.0.1:P` instead; every other request passes through untouched. Nothing of this is
 *   installed in a normal process.
 * Only a loopback simulator is accepted: trusting a key served from elsewhere would let that host read the sessions.
 */
import type { Logger } from '../../logger'

export const WA_SIMULATOR_ENV = 'BALCAO_WA_SIMULATOR'

export type WaSimulator = {
  /** The WebSocket URL Baileys connects to (as given). */
  url: string
  /** `http://<host>:<port>`: the control API and the media host. */
  httpOrigin: string
  /** `<host>:<port>`, as the simulator names itself in media_conn. */
  host: string
}

export type SimulatorRoot = { publicKey: Uint8Array; serial: number }

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]'])

function isLoopback(hostname: string) {
  return LOOPBACK_HOSTS.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
}

/** `ws://127.0.0.1:P[/path]`; refuses another scheme and any host that is not this machine's loopback. */
export function parseWaSimulatorUrl(value: string): WaSimulator {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    throw new Error(`--wa-simulator: not a URL: "${value}"`)
  }
  if (url.protocol !== 'ws:')
    throw new Error(`--wa-simulator: expected ws://127.0.0.1:<port> (got "${value}")`)
  if (!isLoopback(url.hostname))
    throw new Error(
      `--wa-simulator: the simulator must run on this machine (127.0.0.1), not "${url.hostname}"`,
    )
  return { url: url.toString(), httpOrigin: `http://${url.host}`, host: url.host }
}

/** The simulator's root certificate key and serial (`GET /control/root`). */
export async function fetchSimulatorRoot(
  sim: WaSimulator,
  fetchImpl: typeof fetch = fetch,
): Promise<SimulatorRoot> {
  let res: Response
  try {
    res = await fetchImpl(`${sim.httpOrigin}/control/root`, { signal: AbortSignal.timeout(10_000) })
  } catch (err) {
    throw new Error(`WhatsApp simulator at ${sim.url} is not answering: ${(err as Error).message}`)
  }
  if (!res.ok) throw new Error(`WhatsApp simulator at ${sim.url}: /control/root answered ${res.status}`)
  const body = (await res.json()) as { publicKey?: unknown; serial?: unknown }
  const publicKey = typeof body.publicKey === 'string' ? Buffer.from(body.publicKey, 'base64') : undefined
  if (publicKey?.length !== 32 || typeof body.serial !== 'number' || !Number.isInteger(body.serial))
    throw new Error(
      `WhatsApp simulator at ${sim.url}: /control/root is not {publicKey (32 bytes, base64), serial}`,
    )
  return { publicKey: new Uint8Array(publicKey), serial: body.serial }
}

/** Makes Baileys accept certificates signed by `root` (and no longer WhatsApp's); answers how to undo it. */
export async function trustSimulatorRoot(root: SimulatorRoot): Promise<() => void> {
  const { WA_CERT_DETAILS } = await import('@whiskeysockets/baileys/lib/Defaults/index.js')
  const before = { PUBLIC_KEY: WA_CERT_DETAILS.PUBLIC_KEY, SERIAL: WA_CERT_DETAILS.SERIAL }
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(root.publicKey)
  WA_CERT_DETAILS.SERIAL = root.serial
  return () => {
    WA_CERT_DETAILS.PUBLIC_KEY = before.PUBLIC_KEY
    WA_CERT_DETAILS.SERIAL = before.SERIAL
  }
}

/** The URL a request for WhatsApp's hosts goes to instead, or undefined to leave it alone. */
export function simulatorUrlFor(sim: WaSimulator, url: string): string | undefined {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return undefined
  }
  const host = parsed.hostname
  const whatsapp = host.endsWith('.whatsapp.net') || host.endsWith('.whatsapp.com')
  if (!whatsapp && parsed.host !== sim.host) return undefined
  return `${sim.httpOrigin}${parsed.pathname}${parsed.search}`
}

/** `base`, with requests for WhatsApp's hosts (and https to the simulator's host) sent to the simulator. */
export function routeToSimulator(sim: WaSimulator, base: typeof fetch): typeof fetch {
  const routed = (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url
    const target = simulatorUrlFor(sim, url)
    if (!target) return base(input, init)
    return base(input instanceof Request ? new Request(target, input) : target, init)
  }
  return Object.assign(routed, { preconnect: base.preconnect }) as typeof fetch
}

/** Replaces the process's fetch with `routeToSimulator`; answers how to undo it. */
export function installSimulatorFetch(sim: WaSimulator): () => void {
  const original = globalThis.fetch
  globalThis.fetch = routeToSimulator(sim, original)
  return () => {
    globalThis.fetch = original
  }
}

/** At start in simulator mode: trust its root, route media to it, say so. Throws if it does not answer. */
export async function connectToWaSimulator(sim: WaSimulator, log: Logger): Promise<() => void> {
  const root = await fetchSimulatorRoot(sim)
  const untrust = await trustSimulatorRoot(root)
  const unroute = installSimulatorFetch(sim)
  log.warn(`WhatsApp simulator at ${sim.url}: sessions trust its key`, { serial: root.serial })
  return () => {
    unroute()
    untrust()
  }
}
