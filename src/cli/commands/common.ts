import type { Command } from 'commander'
import { loadConfig } from '../../server/config'
import { confirmOrStop, runCommand } from '../operator-command'
import { fail, printResult } from '../output'

/** The options every operator command takes, described once. */
export const DATA_HELP =
  'data folder (env BALCAO_DATA_DIR, default ./data); uses the server running on it, if any'
export const JSON_HELP = 'print one JSON document (also when the output is not a terminal)'

export type CommonOptions = { data?: string; json?: boolean }

/** The data folder a command works on (`--data`, else the environment, else ./data). */
export const dataDirOf = (options: CommonOptions) => loadConfig({ data: options.data }).dataDir

/**
 * Ends an operator command's declaration: adds `--data` and `--json` after its own options, and runs `action`
 * so that any failure is written (JSON with `--json` or off a terminal) and exits with its documented code.
 * Commander hands the action the arguments, then the options, then the command.
 */
export function operatorAction<A extends unknown[]>(
  command: Command,
  action: (...args: A) => Promise<unknown>,
): Command {
  return command
    .option('-d, --data <dir>', DATA_HELP)
    .option('--json', JSON_HELP)
    .action(async (...args: unknown[]) => {
      const options = args[args.length - 2] as CommonOptions
      try {
        await action(...(args as A))
      } catch (err) {
        fail(options, err)
      }
    })
}

/**
 * `<noun> delete <ref>`: asks first (or needs `--yes` off a terminal), runs the operator command and prints the
 * id and name of what went.
 */
export function deleteCommand(
  parent: Command,
  spec: {
    description: string
    argument: [name: string, description: string]
    question: (ref: string) => string
    command: string
    input: (ref: string) => Record<string, unknown>
    title: string
  },
): Command {
  return operatorAction(
    parent
      .command('delete')
      .description(spec.description)
      .argument(...spec.argument)
      .option('-y, --yes', 'delete without asking (required off a terminal)'),
    async (ref: string, options: CommonOptions & { yes?: boolean }) => {
      await confirmOrStop(options, spec.question(ref))
      const deleted = await runCommand<{ id: number; name: string }>(
        dataDirOf(options),
        spec.command,
        spec.input(ref),
      )
      await printResult(options, deleted, {
        title: spec.title,
        tone: 'warning',
        rows: [
          ['id', String(deleted.id)],
          ['name', deleted.name],
        ],
      })
    },
  )
}
