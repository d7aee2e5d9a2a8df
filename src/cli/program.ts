import { Command } from 'commander'
import { registerBackup } from './commands/backup'
import { registerCompany } from './commands/company'
import { registerConnection } from './commands/connection'
import { registerDoctor } from './commands/doctor'
import { registerMigrate } from './commands/migrate'
import { registerPlan } from './commands/plan'
import { registerServe } from './commands/serve'
import { registerSignupCode } from './commands/signup-code'
import { registerUser } from './commands/user'
import { registerVersion } from './commands/version'
import { EXIT } from './exit-codes'

/** `balcao <noun> <verb>`: the operator's terminal, a thin shell over the same services as the API. */
export function buildProgram(version: string) {
  // With --json (or off a terminal) a usage error is one JSON object on stderr, like every other error.
  const json = process.argv.includes('--json') || !process.stdout.isTTY
  const program = new Command('balcao')
    .description('Balcão: a self-hosted customer-service inbox for WhatsApp')
    .version(version, '-v, --version')
    .showHelpAfterError(!json)
    .configureOutput({
      outputError: (message, write) =>
        write(
          json
            ? `${JSON.stringify({ error: 'ERR_VALIDATION', message: message.replace(/^error: /, '').trim() })}\n`
            : message,
        ),
    })
    // Usage errors (unknown command or option, missing argument) exit with 2, as documented; help and version 0.
    .exitOverride((err) => {
      process.exit(err.exitCode === 0 ? 0 : EXIT.usage)
    })
  registerServe(program)
  registerMigrate(program)
  registerCompany(program)
  registerPlan(program)
  registerUser(program)
  registerSignupCode(program)
  registerDoctor(program)
  registerBackup(program, version)
  registerConnection(program)
  registerVersion(program, version)
  return program
}
