/**
 * A Bun plugin that points Baileys' WebSocket client at `ws-impl.ts`, where `BALCAO_WA_WEBSOCKET` picks
 * the npm `ws` package or Bun's shim. Registered with `Bun.plugin` by `ws-preload.ts` (bunfig.toml preload,
 * when running from sources) and passed to `Bun.build` by `scripts/build.ts` (the executable).
 */
import { join } from 'node:path'
import type { BunPlugin } from 'bun'

/** Baileys' one module that imports `ws`. */
export const BAILEYS_WEBSOCKET_MODULE = /[\\/]baileys[\\/]lib[\\/]Socket[\\/]Client[\\/]websocket\.js$/
export const WS_IMPL_MODULE = join(import.meta.dir, 'ws-impl.ts')

const WS_IMPORT = /^import\s+WebSocket\s+from\s+['"]ws['"];?[ \t]*$/m

/** Rewrites the module's `import WebSocket from 'ws'`; throws when Baileys' file no longer has it. */
export function rewriteBaileysWebSocket(source: string, implPath = WS_IMPL_MODULE): string {
  if (!WS_IMPORT.test(source)) {
    throw new Error(
      "balcao-baileys-websocket: Baileys' websocket.js no longer has `import WebSocket from 'ws'`; update ws-plugin.ts",
    )
  }
  const spec = JSON.stringify(implPath)
  return source.replace(
    WS_IMPORT,
    `import WebSocket, { markBaileysPatched as __balcaoMarkPatched } from ${spec}; __balcaoMarkPatched();`,
  )
}

export const baileysWebSocketPlugin: BunPlugin = {
  name: 'balcao-baileys-websocket',
  setup(build) {
    build.onLoad({ filter: BAILEYS_WEBSOCKET_MODULE }, async (args) => ({
      contents: rewriteBaileysWebSocket(await Bun.file(args.path).text()),
      loader: 'js',
    }))
  },
}
