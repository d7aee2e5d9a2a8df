import type { Command } from 'commander'
import { loadConfig } from '../../server/config'
import { closeDatabase } from '../../server/db/statements'
import { fail, printResult } from '../output'

export function registerMigrate(program: Command) {
  program
    .command('migrate')
    .description('apply pending database migrations to the data folder (serve also does this at start)')
    .option('-d, --data <dir>', 'data folder (env BALCAO_DATA_DIR, default ./data)')
    .option('--json', 'print the result as JSON')
    .action(async (options: { data?: string; json?: boolean }) => {
      try {
        const { dataDir } = loadConfig({ data: options.data })
        const { openDataDir } = await import('../../server/deps')
        const deps = await openDataDir(dataDir, { log: (await import('../../server/logger')).silentLogger })
        const applied =
          deps.sqlite.query<{ n: number }, []>('SELECT count(*) AS n FROM __drizzle_migrations').get()?.n ?? 0
        closeDatabase(deps.sqlite)
        await printResult(
          options,
          { dataDir, migrations: applied },
          {
            title: 'Database is up to date',
            tone: 'success',
            rows: [
              ['data', dataDir],
              ['migrations', String(applied)],
            ],
          },
        )
      } catch (err) {
        fail(options, err)
      }
    })
}
