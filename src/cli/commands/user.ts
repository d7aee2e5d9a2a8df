import type { Command } from 'commander'
import { loadConfig } from '../../server/config'
import { AppError } from '../../shared/errors'
import { canPrompt, fail, printResult } from '../output'
import { promptHidden } from '../prompt'

async function choosePassword(given: string | undefined): Promise<{ password: string; generated: boolean }> {
  const { generatePassword } = await import('../../server/db/bootstrap')
  if (given !== undefined) return { password: given, generated: false }
  if (!canPrompt()) return { password: generatePassword(), generated: true }
  const first = await promptHidden('New password (empty to generate one): ')
  if (first === '') return { password: generatePassword(), generated: true }
  const again = await promptHidden('Repeat it: ')
  if (again !== first) throw new AppError('ERR_VALIDATION', 'The passwords do not match')
  return { password: first, generated: false }
}

export function registerUser(program: Command) {
  const user = program.command('user').description('manage users from the terminal')
  user
    .command('reset-password')
    .description('set a new password for a user and end their sessions')
    .argument('<email>', "the user's e-mail")
    .option(
      '--password <password>',
      'the new password (5 to 50 characters); prompted for, or generated, when absent',
    )
    .option('-d, --data <dir>', 'data folder (env BALCAO_DATA_DIR, default ./data)')
    .option('--json', 'print the result as JSON')
    .action(async (email: string, options: { password?: string; data?: string; json?: boolean }) => {
      try {
        const { password, generated } = await choosePassword(options.password)
        if (password.length < 5 || password.length > 50) {
          throw new AppError('ERR_VALIDATION', 'The password must have 5 to 50 characters')
        }
        const { openDataDir } = await import('../../server/deps')
        const { silentLogger } = await import('../../server/logger')
        const { resetPassword } = await import('../../server/modules/users/service')
        const deps = await openDataDir(loadConfig({ data: options.data }).dataDir, { log: silentLogger })
        const result = await resetPassword(deps, email, password)
        deps.sqlite.close()
        await printResult(
          options,
          { ...result, ...(generated ? { password } : {}) },
          {
            title: 'Password changed',
            tone: 'success',
            rows: [
              ['user', result.email],
              ...(generated ? ([['password', password]] as [string, string][]) : []),
            ],
            note: 'Their open sessions were signed out.',
          },
        )
      } catch (err) {
        fail(options, err)
      }
    })
}
