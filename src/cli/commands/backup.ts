import { isAbsolute, join, resolve } from 'node:path'
import type { Command } from 'commander'
import { loadConfig } from '../../server/config'
import { AppError } from '../../shared/errors'
import { canPrompt, fail, printResult, wantsJson } from '../output'

type Options = { data?: string; json?: boolean; yes?: boolean }

/** A bar on a terminal; nothing (and nothing on stdout) when the output is JSON. */
async function progressFor(options: Options, label: string) {
  if (wantsJson(options) || !process.stderr.isTTY) return null
  const { startProgress } = await import('../ui/progress')
  return startProgress(label)
}

/**
 * `balcao backup [FILE]` and `balcao restore FILE`: one archive with a consistent copy of the database, the
 * secrets and the media, made while the server keeps serving; restored only into a folder no server runs on,
 * after the whole archive was checked (src/server/ops/).
 */
export function registerBackup(program: Command, version: string) {
  program
    .command('backup')
    .description(
      'write one archive (.tar.gz) of the database, secrets and media, while the server keeps serving',
    )
    .argument('[file]', 'where to write it (default: balcao-<time>.tar.gz in the current folder)')
    .option('-d, --data <dir>', 'data folder (env BALCAO_DATA_DIR, default ./data)')
    .option('--json', 'print { file, bytes } as JSON')
    .action(async (file: string | undefined, options: Options) => {
      try {
        const { dataDir } = loadConfig({ data: options.data })
        const { createBackup, defaultBackupName } = await import('../../server/ops/backup')
        const target = resolve(file ?? defaultBackupName())
        const bar = await progressFor(options, 'Backing up')
        let result: Awaited<ReturnType<typeof createBackup>>
        try {
          result = await createBackup({
            dataDir,
            file: target,
            version,
            onProgress: (d, t) => bar?.update(d, t),
          })
        } finally {
          await bar?.finish()
        }
        const { formatBytes } = await import('../ui/progress')
        await printResult(
          options,
          { file: result.file, bytes: result.bytes },
          {
            title: 'Backup written',
            tone: 'success',
            rows: [
              ['file', result.file],
              ['size', formatBytes(result.bytes)],
              ['files', String(result.entries)],
            ],
            note: 'Copy it off this machine. Restore with `balcao restore FILE --data DIR --yes`.',
          },
        )
      } catch (err) {
        fail(
          options,
          err instanceof Error && !(err instanceof AppError)
            ? new AppError('ERR_VALIDATION', err.message)
            : err,
        )
      }
    })

  program
    .command('restore')
    .description('replace a data folder with a backup (the server must be stopped; the folder is kept aside)')
    .argument('<file>', 'the archive written by `balcao backup`')
    .option('-d, --data <dir>', 'data folder (env BALCAO_DATA_DIR, default ./data)')
    .option('-y, --yes', 'replace the data folder without asking')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, options: Options) => {
      try {
        const { dataDir } = loadConfig({ data: options.data })
        const archive = isAbsolute(file) ? file : join(process.cwd(), file)
        if (!options.yes) {
          if (!canPrompt())
            throw new AppError('ERR_VALIDATION', `restore replaces ${dataDir}: add --yes to confirm`)
          const { confirm } = await import('../prompt')
          if (!(await confirm(`Replace the data in ${dataDir} with ${archive}?`)))
            throw new AppError('ERR_VALIDATION', 'Nothing was restored')
        }
        const { restoreBackup } = await import('../../server/ops/restore')
        const { knownMigrations } = await import('../../server/ops/upgrade')
        const bar = await progressFor(options, 'Restoring ')
        let result: Awaited<ReturnType<typeof restoreBackup>>
        try {
          result = await restoreBackup({
            file: archive,
            dataDir,
            knownMigrations: knownMigrations(),
            onProgress: (d) => bar?.update(d),
          })
        } finally {
          await bar?.finish()
        }
        await printResult(
          options,
          { dataDir, ...result },
          {
            title: 'Backup restored',
            tone: 'success',
            rows: [
              ['data', dataDir],
              ['files', String(result.restored)],
              ['previous data', result.previous ?? '(the folder was empty)'],
            ],
            note: 'Start Balcão on it: `balcao serve --data DIR` (it migrates the database if the backup is older).',
          },
        )
      } catch (err) {
        fail(options, err)
      }
    })
}
