/**
 * The WebSocket class Baileys uses, chosen at runtime: `BALCAO_WA_WEBSOCKET=npm|bun` (default `npm`).
 *
 * Bun substitutes its own shim for every bare `import … from 'ws'`, even with the npm package installed,
 * and public reports say the shim can fail WhatsApp's real upgrade. `ws-plugin.ts` rewrites the `'ws'`
 * import of Baileys' `lib/Socket/Client/websocket.js` to this module, whose default export constructs:
 * - `npm`: the real `ws` package, reached through its `wrapper.mjs` by path (its `exports` map hides the
 *   file, and a bare specifier would give Bun's shim); it runs over Bun's `node:http` upgrade;
 * - `bun`: Bun's built-in `ws` shim (what Baileys gets with no plugin at all).
 * The plugin runs from `bunfig.toml`'s preload when running from sources and inside `Bun.build` for the
 * executable. Without it Baileys silently keeps Bun's shim: `baileysWebSocketPatched()` tells.
 */
import BunWebSocket from 'ws'
// @ts-expect-error: a plain .mjs file by path (no declarations); typed as the npm class below
import NpmWebSocketUntyped from '../../../../node_modules/ws/wrapper.mjs'

export type WebSocketImpl = 'npm' | 'bun'
export const WEBSOCKET_IMPLS: readonly WebSocketImpl[] = ['npm', 'bun']
export const WEBSOCKET_ENV = 'BALCAO_WA_WEBSOCKET'

/** The npm `ws` package's class (not Bun's shim). */
export const NpmWebSocket = NpmWebSocketUntyped as typeof BunWebSocket
export { BunWebSocket }

let override: WebSocketImpl | undefined
let patched = false
const constructed: Record<WebSocketImpl, number> = { npm: 0, bun: 0 }

export function parseWebSocketImpl(value: string | undefined): WebSocketImpl {
  const v = (value ?? '').trim().toLowerCase()
  if (v === '') return 'npm'
  if (v === 'npm' || v === 'bun') return v
  throw new Error(`${WEBSOCKET_ENV} must be "npm" or "bun" (got "${value}")`)
}

/** The implementation the next Baileys socket will use: the override if set, else the environment. */
export function configuredWebSocketImpl(): WebSocketImpl {
  return override ?? parseWebSocketImpl(process.env[WEBSOCKET_ENV])
}

/** Overrides the environment for sockets created from now on (`undefined` returns to the environment). */
export function setWebSocketImpl(impl: WebSocketImpl | undefined) {
  if (impl !== undefined) parseWebSocketImpl(impl)
  override = impl
}

/** Which class an existing socket really is an instance of. */
export function webSocketImplOf(socket: unknown): WebSocketImpl | 'unknown' {
  if (socket instanceof NpmWebSocket) return 'npm'
  if (socket instanceof BunWebSocket) return 'bun'
  return 'unknown'
}

/** Called by Baileys' websocket module once the plugin has rewritten its import. */
export function markBaileysPatched() {
  patched = true
}

/** Whether Baileys' websocket module was loaded through the plugin (so the setting is honoured). */
export function baileysWebSocketPatched() {
  return patched
}

/** Sockets constructed through this module, per implementation (diagnostics). */
export function webSocketsConstructed(): Readonly<Record<WebSocketImpl, number>> {
  return { ...constructed }
}

/**
 * What Baileys' `new WebSocket(url, options)` and `WebSocket.OPEN` (etc.) reach. Constructing dispatches
 * to the class configured at that moment; the static constants are the same in both classes.
 */
const SwitchingWebSocket = new Proxy(NpmWebSocket, {
  construct(_target, args: ConstructorParameters<typeof BunWebSocket>) {
    const impl = configuredWebSocketImpl()
    const Impl = impl === 'bun' ? BunWebSocket : NpmWebSocket
    const socket = new Impl(...args)
    constructed[impl] += 1
    return socket
  },
})

export default SwitchingWebSocket
