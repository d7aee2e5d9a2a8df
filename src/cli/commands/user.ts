import type { Command } from 'commander'
import type { UserDto } from '../../shared/api'
import { choosePassword, confirmOrStop, requireValues, runCommand } from '../operator-command'
import { printResult, type ResultView, wantsJson } from '../output'
import { type CommonOptions, dataDirOf, operatorAction } from './common'

type ListedUser = UserDto & { companyName: string }

function userView(title: string, u: UserDto, extra: [string, string][] = [], note?: string): ResultView {
  return {
    title,
    tone: u.disabled ? 'warning' : 'success',
    rows: [
      ['id', String(u.id)],
      ['name', u.name],
      ['e-mail', u.email],
      ['company', String(u.companyId)],
      ['profile', u.super ? `${u.profile} (super)` : u.profile],
      ['status', u.disabled ? 'disabled' : 'enabled'],
      ...extra,
    ],
    note,
  }
}

/** `balcao user list|create|reset-password|disable|enable`: the users of every company. */
export function registerUser(program: Command) {
  const user = program.command('user').description("the companies' users")

  operatorAction(
    user
      .command('list')
      .description("every company's users (or one company's)")
      .option('--company <company>', 'only this company (id, name or e-mail)'),
    async (options: CommonOptions & { company?: string }) => {
      const list = await runCommand<ListedUser[]>(dataDirOf(options), 'user.list', {
        company: options.company,
      })
      if (wantsJson(options)) return void process.stdout.write(`${JSON.stringify(list)}\n`)
      const { renderTable } = await import('../ui/table')
      await renderTable({
        rows: list,
        rowKey: (u) => u.id,
        empty: 'No users.',
        footer: `${list.length} ${list.length === 1 ? 'user' : 'users'}`,
        columns: [
          { title: 'ID', cell: (u) => String(u.id), dim: true, align: 'right' },
          { title: 'COMPANY', cell: (u) => u.companyName },
          { title: 'NAME', cell: (u) => u.name },
          { title: 'E-MAIL', cell: (u) => u.email, max: 40 },
          { title: 'PROFILE', cell: (u) => (u.super ? 'super' : u.profile) },
          {
            title: 'STATUS',
            cell: (u) => (u.disabled ? 'disabled' : u.online ? 'online' : 'offline'),
            color: (u) => (u.disabled ? 'red' : u.online ? 'green' : 'gray'),
          },
        ],
      })
    },
  )

  operatorAction(
    user
      .command('create')
      .description("create a user in a company (within its plan's user limit)")
      .option('--company <company>', 'company id, name or e-mail')
      .option('--name <name>', 'full name (2 to 50 characters)')
      .option('--email <email>', 'login e-mail')
      .option('--profile <profile>', 'admin or user', 'user')
      .option('--password <password>', 'password (asked for, or generated and printed, when absent)'),
    async (
      options: CommonOptions & {
        company?: string
        name?: string
        email?: string
        profile: string
        password?: string
      },
    ) => {
      await requireValues(options, [
        ['company', '--company'],
        ['name', '--name'],
        ['email', '--email'],
      ])
      const { password, generated } = await choosePassword(options.password)
      const created = await runCommand<UserDto>(dataDirOf(options), 'user.create', {
        company: options.company,
        name: options.name,
        email: options.email,
        profile: options.profile,
        password,
      })
      await printResult(
        options,
        { ...created, ...(generated ? { password } : {}) },
        userView(
          'User created',
          created,
          generated ? [['password', password]] : [],
          generated ? 'Shown only now: give it to the user.' : undefined,
        ),
      )
    },
  )

  operatorAction(
    user
      .command('reset-password')
      .description('set a new password for a user and end their sessions')
      .argument('<user>', "the user's e-mail (or id)")
      .option(
        '--password <password>',
        'the new password (8 to 50 characters with an upper-case letter, a lower-case letter and a digit); prompted for, or generated, when absent',
      ),
    async (ref: string, options: CommonOptions & { password?: string }) => {
      const { password, generated } = await choosePassword(options.password)
      const result = await runCommand<{ id: number; email: string; companyId: number }>(
        dataDirOf(options),
        'user.reset-password',
        { user: ref, password },
      )
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
    },
  )

  operatorAction(
    user
      .command('disable')
      .description('stop a user from signing in and end their sessions at once')
      .argument('<user>', "the user's e-mail (or id)")
      .option('-y, --yes', 'disable without asking (required off a terminal)'),
    async (ref: string, options: CommonOptions & { yes?: boolean }) => {
      await confirmOrStop(options, `Disable ${ref} and sign them out?`)
      const disabled = await runCommand<UserDto>(dataDirOf(options), 'user.disable', { user: ref })
      await printResult(
        options,
        disabled,
        userView('User disabled', disabled, [], 'Enable again with `balcao user enable`.'),
      )
    },
  )

  operatorAction(
    user
      .command('enable')
      .description('let a disabled user sign in again')
      .argument('<user>', "the user's e-mail (or id)"),
    async (ref: string, options: CommonOptions) => {
      const enabled = await runCommand<UserDto>(dataDirOf(options), 'user.enable', { user: ref })
      await printResult(options, enabled, userView('User enabled', enabled))
    },
  )
}
