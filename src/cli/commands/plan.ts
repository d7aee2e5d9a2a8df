import type { Command } from 'commander'
import type { PlanDto } from '../../shared/api'
import { AppError } from '../../shared/errors'
import { PLAN_FLAGS, type PlanFlag } from '../../shared/plans'
import { numberOrText, requireValues, runCommand } from '../operator-command'
import { printResult, type ResultView, wantsJson } from '../output'
import { type CommonOptions, dataDirOf, deleteCommand, operatorAction } from './common'

type PlanOptions = CommonOptions & {
  name?: string
  value?: string
  users?: string
  connections?: string
  queues?: string
  enable?: string
  disable?: string
}

/** `useInternalChat` ↔ `internal-chat`: the names `--enable` and `--disable` take. */
export const featureName = (flag: PlanFlag) =>
  flag
    .slice(3)
    .replace(/[A-Z]/g, (l, at: number) => `${at ? '-' : ''}${l.toLowerCase()}`)
    .replace('open-ai', 'openai')
const FEATURES = new Map(PLAN_FLAGS.map((flag) => [featureName(flag), flag]))

function flagsOf(list: string | undefined, on: boolean, option: string): Partial<Record<PlanFlag, boolean>> {
  const out: Partial<Record<PlanFlag, boolean>> = {}
  for (const name of (list ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean)) {
    const flag = FEATURES.get(name)
    if (!flag) {
      throw new AppError(
        'ERR_VALIDATION',
        `Unknown feature in ${option}: ${name} (one of ${[...FEATURES.keys()].join(', ')})`,
      )
    }
    out[flag] = on
  }
  return out
}

function inputOf(options: PlanOptions) {
  const enabled = flagsOf(options.enable, true, '--enable')
  const disabled = flagsOf(options.disable, false, '--disable')
  const both = Object.keys(enabled).filter((flag) => flag in disabled)
  if (both.length) throw new AppError('ERR_VALIDATION', `Both enabled and disabled: ${both.join(', ')}`)
  return {
    name: options.name,
    value: numberOrText(options.value),
    users: numberOrText(options.users),
    connections: numberOrText(options.connections),
    queues: numberOrText(options.queues),
    ...enabled,
    ...disabled,
  }
}

const limit = (n: number) => (n === 0 ? 'unlimited' : String(n))
/** `all`, `all but kanban, campaigns`, or the few that are on. */
const features = (p: PlanDto) => {
  const on = PLAN_FLAGS.filter((flag) => p[flag])
  const off = PLAN_FLAGS.filter((flag) => !p[flag])
  if (off.length === 0) return 'all'
  if (on.length === 0) return 'none'
  return on.length >= off.length
    ? `all but ${off.map(featureName).join(', ')}`
    : on.map(featureName).join(', ')
}

function planView(title: string, p: PlanDto): ResultView {
  return {
    title,
    tone: 'success',
    rows: [
      ['id', String(p.id)],
      ['name', p.name],
      ['value', p.value.toFixed(2)],
      ['users', limit(p.users)],
      ['connections', limit(p.connections)],
      ['queues', limit(p.queues)],
      ['features', features(p)],
    ],
  }
}

function withPlanOptions(cmd: Command) {
  return cmd
    .option('--name <name>', 'plan name (2 to 50 characters)')
    .option('--value <amount>', 'monthly price (BRL)')
    .option('--users <n>', 'most users a company may have (0: no limit)')
    .option('--connections <n>', 'most WhatsApp connections (0: no limit)')
    .option('--queues <n>', 'most queues (0: no limit)')
    .option('--enable <features>', `features to turn on, comma-separated: ${[...FEATURES.keys()].join(', ')}`)
    .option('--disable <features>', 'features to turn off, comma-separated')
}

/** `balcao plan list|create|update|delete`: the plans companies subscribe to. */
export function registerPlan(program: Command) {
  const plan = program.command('plan').description('the plans companies subscribe to (limits and features)')

  operatorAction(
    plan.command('list').description('every plan with its price, limits and features'),
    async (options: CommonOptions) => {
      const list = await runCommand<PlanDto[]>(dataDirOf(options), 'plan.list', {})
      if (wantsJson(options)) return void process.stdout.write(`${JSON.stringify(list)}\n`)
      const { renderTable } = await import('../ui/table')
      await renderTable({
        rows: list,
        rowKey: (p) => p.id,
        empty: 'No plans yet. Create one with `balcao plan create --name NAME`.',
        columns: [
          { title: 'ID', cell: (p) => String(p.id), dim: true, align: 'right' },
          { title: 'NAME', cell: (p) => p.name },
          { title: 'VALUE', cell: (p) => p.value.toFixed(2), align: 'right' },
          { title: 'USERS', cell: (p) => limit(p.users), align: 'right' },
          { title: 'CONNECTIONS', cell: (p) => limit(p.connections), align: 'right' },
          { title: 'QUEUES', cell: (p) => limit(p.queues), align: 'right' },
          { title: 'FEATURES', cell: features, max: 60 },
        ],
      })
    },
  )

  operatorAction(
    withPlanOptions(plan.command('create').description('create a plan (features are on unless disabled)')),
    async (options: PlanOptions) => {
      await requireValues(options, [['name', '--name']])
      const created = await runCommand<PlanDto>(dataDirOf(options), 'plan.create', inputOf(options))
      await printResult(options, created, planView('Plan created', created))
    },
  )

  operatorAction(
    withPlanOptions(
      plan
        .command('update')
        .description('change a plan: only the options given change')
        .argument('<plan>', 'plan id or name'),
    ),
    async (ref: string, options: PlanOptions) => {
      const updated = await runCommand<PlanDto>(dataDirOf(options), 'plan.update', {
        plan: ref,
        ...inputOf(options),
      })
      await printResult(options, updated, planView('Plan updated', updated))
    },
  )

  deleteCommand(plan, {
    description: 'delete a plan no company uses (exit 5 while one does)',
    argument: ['<plan>', 'plan id or name'],
    question: (ref) => `Delete plan ${ref}?`,
    command: 'plan.delete',
    input: (ref) => ({ plan: ref }),
    title: 'Plan deleted',
  })
}
