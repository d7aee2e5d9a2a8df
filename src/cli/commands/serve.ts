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
    .option(
      '--wa-simulator <url>',
      'connect WhatsApp sessions to the simulator at ws://127.0.0.1:<port> and trust its key (env BALCAO_WA_SIMULATOR; development and tests)',
    )
    .option(
      '--backup-keep <n>',
      'keep the last N daily backups in <data>/backups (env BALCAO_BACKUP_KEEP; default none)',
    )
    .action(
      async (options: {
        port?: string
        host?: string
        data?: string
        sandbox?: boolean
        backupKeep?: string
        waSimulator?: string
      }) => {
        const { serve } = await import('../../server/serve')
        try {
          await serve(loadConfig(options))
        } catch (err) {
          // A start that cannot go on (a failed upgrade, a folder it cannot write): one clear line, exit 1.
          process.stderr.write(
            `✖ Balcão could not start: ${err instanceof Error ? err.message : String(err)}\n`,
          )
          process.exit(1)
        }
      },
    )
}
