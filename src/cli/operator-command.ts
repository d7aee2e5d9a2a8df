import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { closeDatabase } from '../server/db/statements'
import { AppError } from '../shared/errors'
import { OperatorClient, OperatorError } from './operator-client'
import { canPrompt } from './output'

/**
 * The operator's commands (`balcao company|plan|user|signup-code|connection …`) run in one of two places, with
 * the same JSON result and the same errors (so the same exit codes):
 * - through the running server on this data folder (`<data>/operator.json`), so the browsers get live events;
 * - when no server runs, in this process on the database itself (the server's code loads only then).
 * The table of commands is the server's: src/server/modules/operator/commands.ts.
 */
export async function runCommand<T = unknown>(
  dataDir: string,
  name: string,
  input: Record<string, unknown>,
): Promise<T> {
  let client: OperatorClient | undefined
  try {
    client = OperatorClient.open(dataDir)
  } catch (err) {
    if (!isNotRunning(err)) throw err
  }
  if (client) {
    try {
      return await client.command<T>(name, withoutUndefined(input))
    } catch (err) {
      if (!isNotRunning(err) || !neverReached(err)) throw err
    }
  }
  return runInProcess<T>(dataDir, name, input)
}

function isNotRunning(err: unknown): err is OperatorError {
  return err instanceof OperatorError && err.code === 'ERR_NOT_RUNNING'
}

/** The request never reached a server (refused): running it here cannot do the work twice. */
function neverReached(err: OperatorError) {
  const code = (err.cause as { code?: unknown } | undefined)?.code
  return err.cause === undefined || code === 'ECONNREFUSED' || code === 'ConnectionRefused'
}

function withoutUndefined(input: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined))
}

async function runInProcess<T>(dataDir: string, name: string, input: Record<string, unknown>): Promise<T> {
  // Opening a folder that holds no Balcão would create an empty one: say so instead.
  if (!existsSync(join(dataDir, 'balcao.db'))) {
    throw new OperatorError(
      'ERR_NO_DATA',
      `No Balcão data in ${dataDir} (no balcao.db): pass the right --data (or BALCAO_DATA_DIR), or start \`balcao serve --data ${dataDir}\` once`,
      503,
    )
  }
  const { openDataDir } = await import('../server/deps')
  const { silentLogger } = await import('../server/logger')
  const { runOperatorCommand } = await import('../server/modules/operator/commands')
  const deps = await openDataDir(dataDir, { log: silentLogger })
  try {
    const result = await runOperatorCommand(deps, name, withoutUndefined(input), { live: false })
    // The same JSON the server would have answered (dates as text, no undefined keys).
    return JSON.parse(JSON.stringify(result ?? null)) as T
  } finally {
    closeDatabase(deps.sqlite)
  }
}

/**
 * A destructive command goes on only with `--yes`; on a terminal it asks instead. Off a terminal, without
 * `--yes`, it is a usage error (exit 2).
 */
export async function confirmOrStop(options: { yes?: boolean }, question: string) {
  if (options.yes) return
  if (!canPrompt())
    throw new AppError('ERR_VALIDATION', `${question.replace(/\?$/, '')}: add --yes to confirm`)
  const { confirm } = await import('./prompt')
  if (!(await confirm(question))) throw new AppError('ERR_VALIDATION', 'Cancelled: nothing was changed')
}

/**
 * Fills the required values that are missing: asked for on a terminal, a usage error (exit 2) naming the flags
 * otherwise. `fields` maps an option key to its flag (`name` → `--name`).
 */
export async function requireValues<O extends Record<string, unknown>>(
  options: O,
  fields: [key: keyof O & string, flag: string][],
) {
  const missing = fields.filter(([key]) => options[key] === undefined || options[key] === '')
  if (missing.length === 0) return
  if (!canPrompt()) {
    throw new AppError(
      'ERR_VALIDATION',
      `Missing ${missing.map(([, flag]) => flag).join(', ')}`,
      undefined,
      missing.map(([key, flag]) => ({ field: key, message: `${flag} is required` })),
    )
  }
  const { ask } = await import('./prompt')
  for (const [key, flag] of missing) {
    const value = await ask(`${flag.replace(/^--/, '')}: `)
    if (value === '') throw new AppError('ERR_VALIDATION', `${flag} is required`)
    ;(options as Record<string, unknown>)[key] = value
  }
}

/**
 * The password of a new account or a reset: the one given, or asked for (hidden) on a terminal, or generated
 * (then printed once with the result).
 */
export async function choosePassword(
  given: string | undefined,
): Promise<{ password: string; generated: boolean }> {
  if (given !== undefined) return { password: given, generated: false }
  const { generatePassword } = await import('../server/bootstrap')
  if (!canPrompt()) return { password: generatePassword(), generated: true }
  const { promptHidden } = await import('./prompt')
  const first = await promptHidden('Password (empty to generate one): ')
  if (first === '') return { password: generatePassword(), generated: true }
  const again = await promptHidden('Repeat it: ')
  if (again !== first) throw new AppError('ERR_VALIDATION', 'The passwords do not match')
  return { password: first, generated: false }
}

/** A number typed on the command line; anything else is passed on as typed, for the command to refuse by name. */
export function numberOrText(value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined
  return /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value
}
