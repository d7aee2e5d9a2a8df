/**
 * Development server: the API from sources and the UI from src/web with hot reload (Tailwind through
 * bun-plugin-tailwind, configured in bunfig.toml). Flags and env as `balcao serve`.
 *   npm run dev            (add -- --sandbox for the simulated WhatsApp network)
 */
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/server/config'
import { serve } from '../src/server/serve'
import index from '../src/web/index.html'

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    data: { type: 'string' },
    sandbox: { type: 'boolean' },
  },
})
await serve(loadConfig(values), { devIndex: index })
