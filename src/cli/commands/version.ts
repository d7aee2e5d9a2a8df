import type { Command } from 'commander'
import { printResult } from '../output'

export function registerVersion(program: Command, version: string) {
  program
    .command('version')
    .description('print the version of this executable')
    .option('--json', 'print the result as JSON')
    .action(async (options: { json?: boolean }) => {
      const info = { version, bun: Bun.version, standalone: Bun.isStandaloneExecutable }
      await printResult(options, info, {
        title: `Balcão ${version}`,
        rows: [
          ['bun', Bun.version],
          ['build', Bun.isStandaloneExecutable ? 'executable' : 'sources'],
        ],
      })
    })
}
