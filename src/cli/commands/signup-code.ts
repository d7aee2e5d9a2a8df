import type { Command } from 'commander'
import { AppError } from '../../shared/errors'
import { runCommand } from '../operator-command'
import { printResult } from '../output'
import { dataDirOf, operatorAction } from './common'

/**
 * `balcao signup-code create`: a sign-up validation code for a visitor, when the platform cannot send it by
 * WhatsApp. Through the running server when there is one, on the database otherwise.
 */
export function registerSignupCode(program: Command) {
  const signupCode = program.command('signup-code').description('sign-up validation codes for new companies')
  operatorAction(
    signupCode
      .command('create')
      .description('issue a single-use sign-up code (valid for 15 minutes)')
      .option(
        '--phone <phone>',
        'only this phone may sign up with it (e.g. 5511912345678 or (11) 91234-5678)',
      ),
    async (options: { phone?: string; data?: string; json?: boolean }) => {
      const { normalizePhone } = await import('../../shared/schemas/signup')
      // Checked here too, so a typo is a usage error before anything is opened; the command normalizes it.
      if (options.phone !== undefined && !normalizePhone(options.phone)) {
        throw new AppError(
          'ERR_VALIDATION',
          `Invalid phone number: ${options.phone} (e.g. 5511912345678 or (11) 91234-5678)`,
        )
      }
      const issued = await runCommand<{ code: string; expiresAt: string; phone: string | null }>(
        dataDirOf(options),
        'signup-code.create',
        { phone: options.phone ?? null },
      )
      await printResult(options, issued, {
        title: 'Sign-up code',
        tone: 'success',
        rows: [
          ['code', issued.code],
          ['expires', new Date(issued.expiresAt).toLocaleString()],
          ...(issued.phone ? ([['phone', issued.phone]] as [string, string][]) : []),
        ],
        note: 'Single-use. Give it to the person signing up at /signup.',
      })
    },
  )
}
