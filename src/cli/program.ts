import { Command } from 'commander'
import { registerConnection } from './commands/connection'
import { registerDoctor } from './commands/doctor'
import { registerMigrate } from './commands/migrate'
import { registerServe } from './commands/serve'
import { registerUser } from './commands/user'
import { registerVersion } from './commands/version'

/** `balcao <noun> <verb>`: the operator's terminal, a thin shell over the same services as the API. */
export function buildProgram(version: string) {
  const program = new Command('balcao')
    .description('Balcão: a self-hosted customer-service inbox for WhatsApp')
    .version(version, '-v, --version')
    .showHelpAfterError()
  registerServe(program)
  registerMigrate(program)
  registerUser(program)
  registerDoctor(program)
  registerConnection(program)
  registerVersion(program, version)
  return program
}
