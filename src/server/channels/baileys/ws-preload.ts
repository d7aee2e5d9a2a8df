/**
 * Preloaded by bunfig.toml (`preload`, and `[test] preload`) so that Baileys, run from sources, reaches
 * the WebSocket class chosen by `BALCAO_WA_WEBSOCKET` (see ws-impl.ts). The executable gets the same
 * plugin at build time (scripts/build.ts).
 */
import { baileysWebSocketPlugin } from './ws-plugin'

const registered = Symbol.for('balcao.baileysWebSocketPlugin')
const flags = globalThis as { [registered]?: boolean }
if (!flags[registered]) {
  flags[registered] = true
  Bun.plugin(baileysWebSocketPlugin)
}
