import type { Command } from 'commander'
import type { CompanyDto } from '../../shared/api'
import { AppError } from '../../shared/errors'
import { realDueDate } from '../../shared/plans'
import { choosePassword, requireValues, runCommand } from '../operator-command'
import { printResult, type ResultView, wantsJson } from '../output'
import { type CommonOptions, dataDirOf, deleteCommand, operatorAction } from './common'

type Fields = {
  name?: string
  email?: string
  plan?: string
  phone?: string
  document?: string
  dueDate?: string
  recurrence?: string
}
type CreateOptions = CommonOptions & Fields & { password?: string; userName?: string }
type UpdateOptions = CommonOptions & Fields & { activate?: boolean; deactivate?: boolean }

function companyView(
  title: string,
  c: CompanyDto,
  extra: [string, string][] = [],
  note?: string,
): ResultView {
  return {
    title,
    tone: 'success',
    rows: [
      ['id', String(c.id)],
      ['name', c.name],
      ['e-mail', c.email ?? '-'],
      ['plan', c.plan?.name ?? '-'],
      ['status', c.status ? 'active' : 'inactive'],
      ['due date', realDueDate(c.dueDate) ?? 'never'],
      ['recurrence', c.recurrence],
      ...extra,
    ],
    note,
  }
}

/** The fields both create and update take, as the command's input (unset ones left out). */
function fieldsOf(options: Fields) {
  return {
    name: options.name,
    email: options.email,
    plan: options.plan,
    phone: options.phone,
    document: options.document,
    // `--due-date ''` clears it on update (the API's rule: an empty due date is none).
    dueDate: options.dueDate,
    recurrence: options.recurrence?.toUpperCase(),
  }
}

function withFieldOptions(cmd: Command) {
  return cmd
    .option('--name <name>', 'company name (2 to 100 characters)')
    .option('--email <email>', "the company's e-mail (also its first admin's login)")
    .option('--plan <plan>', 'plan id or name (see `balcao plan list`)')
    .option('--phone <phone>', 'phone')
    .option('--document <document>', 'CPF/CNPJ')
    .option('--due-date <YYYY-MM-DD>', 'next due date')
    .option('--recurrence <recurrence>', 'MENSAL, BIMESTRAL, TRIMESTRAL, SEMESTRAL or ANUAL')
}

/** `balcao company list|create|update|delete|extend`: the platform's companies, as the super user manages them. */
export function registerCompany(program: Command) {
  const company = program.command('company').description("the platform's companies (tenants)")

  operatorAction(
    company.command('list').description('every company with its plan, status and due date'),
    async (options: CommonOptions) => {
      const list = await runCommand<CompanyDto[]>(dataDirOf(options), 'company.list', {})
      if (wantsJson(options)) return void process.stdout.write(`${JSON.stringify(list)}\n`)
      const { renderTable } = await import('../ui/table')
      await renderTable({
        rows: list,
        rowKey: (c) => c.id,
        empty: 'No companies yet. Create one with `balcao company create`.',
        footer: `${list.length} ${list.length === 1 ? 'company' : 'companies'}`,
        columns: [
          { title: 'ID', cell: (c) => String(c.id), dim: true, align: 'right' },
          { title: 'NAME', cell: (c) => c.name },
          { title: 'E-MAIL', cell: (c) => c.email ?? '-' },
          { title: 'PLAN', cell: (c) => c.plan?.name ?? '-' },
          {
            title: 'STATUS',
            cell: (c) => (c.status ? 'active' : 'inactive'),
            color: (c) => (c.status ? 'green' : 'red'),
          },
          { title: 'DUE', cell: (c) => realDueDate(c.dueDate) ?? 'never' },
          { title: 'USERS', cell: (c) => String(c.counts.users), align: 'right' },
          { title: 'CONNECTIONS', cell: (c) => String(c.counts.connections), align: 'right' },
        ],
      })
    },
  )

  operatorAction(
    withFieldOptions(
      company
        .command('create')
        .description('create a company with its first admin (its e-mail and password)'),
    )
      .option(
        '--password <password>',
        "the first admin's password (asked for, or generated and printed, when absent)",
      )
      .option('--user-name <name>', "the first admin's name (default: the company's name)"),
    async (options: CreateOptions) => {
      await requireValues(options, [
        ['name', '--name'],
        ['email', '--email'],
        ['plan', '--plan'],
      ])
      const { password, generated } = await choosePassword(options.password)
      const created = await runCommand<CompanyDto>(dataDirOf(options), 'company.create', {
        ...fieldsOf(options),
        userName: options.userName,
        password,
      })
      await printResult(
        options,
        { ...created, ...(generated ? { password } : {}) },
        companyView(
          'Company created',
          created,
          generated ? [['password', password]] : [],
          generated ? 'The admin signs in with the e-mail and this password (shown only now).' : undefined,
        ),
      )
    },
  )

  operatorAction(
    withFieldOptions(
      company
        .command('update')
        .description('change a company: only the options given change')
        .argument('<company>', 'company id, name or e-mail'),
    )
      .option('--activate', 'let its users sign in again')
      .option('--deactivate', 'stop its users from signing in (their sessions end)'),
    async (ref: string, options: UpdateOptions) => {
      const status = options.activate ? true : options.deactivate ? false : undefined
      if (options.activate && options.deactivate)
        throw new AppError('ERR_VALIDATION', 'Use --activate or --deactivate, not both')
      const updated = await runCommand<CompanyDto>(dataDirOf(options), 'company.update', {
        company: ref,
        ...fieldsOf(options),
        status,
      })
      await printResult(options, updated, companyView('Company updated', updated))
    },
  )

  operatorAction(
    company
      .command('extend')
      .description("move a company's due date forward by its recurrence (+1 month for MENSAL, ...)")
      .argument('<company>', 'company id, name or e-mail'),
    async (ref: string, options: CommonOptions) => {
      const extended = await runCommand<CompanyDto>(dataDirOf(options), 'company.extend', { company: ref })
      await printResult(options, extended, companyView('Due date moved', extended))
    },
  )

  deleteCommand(company, {
    description: 'delete a company with all its users, tickets, contacts and messages',
    argument: ['<company>', 'company id, name or e-mail'],
    question: (ref) => `Delete company ${ref} and everything in it?`,
    command: 'company.delete',
    input: (ref) => ({ company: ref }),
    title: 'Company deleted',
  })
}
