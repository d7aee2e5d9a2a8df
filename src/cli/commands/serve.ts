import type { Command } from 'commander'
import { loadConfig } from '../../server/config'

export function registerServe(program: Command) {
  program
    .command('serve', { isDefault: true })
    .description('run Balcão: the API, the web UI and the WhatsApp sessions')
    .option('-p, --port <port>', 'port to listen on (env PORT, default 8080)')
    .option('--host <host>', 'address to listen on (env HOST, default 127.0.0.1)')
    .option('-d, --data <dir>', 'data folder (env BALCAO_DATA_DIR, default ./data)')
    .option('--sandbox', 'enable the simulated WhatsApp network (env BALCAO_SANDBOX=1)')
    .action(async (options: { port?: string; host?: string; data?: string; sandbox?: boolean }) => {
      const { serve } = await import('../../server/serve')
      await serve(loadConfig(options))
    })
}
