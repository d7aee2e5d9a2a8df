import type { Command } from 'commander'
import { AppError } from '../../shared/errors'
import { OperatorClient, type OperatorConnection } from '../operator-client'
import { confirmOrStop, runCommand } from '../operator-command'
import { fail, printResult, type ResultView, wantsJson } from '../output'
import { exitCodeOfOutcome, followPairing, type PairState, pairLine } from '../pairing'
import { type CommonOptions, dataDirOf, operatorAction } from './common'

type PairOptions = CommonOptions & { phone?: string; timeout: string }

export function parseConnectionId(value: string) {
  const id = Number(value)
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(id) || id < 1) {
    throw new AppError('ERR_VALIDATION', `Invalid connection id: ${value} (see \`balcao connection list\`)`)
  }
  return id
}

/** Digits only, country code first (5511999990000); spaces, dashes, brackets and a leading + are dropped. */
export function parsePhone(value: string | undefined) {
  if (value === undefined) return undefined
  const digits = value.replace(/[\s()+-]/g, '')
  if (!/^\d{8,15}$/.test(digits)) {
    throw new AppError(
      'ERR_VALIDATION',
      `Invalid phone number: ${value} (digits with country code: 5511999990000)`,
    )
  }
  return digits
}

function parseTimeout(value: string) {
  const seconds = Number(value)
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new AppError('ERR_VALIDATION', `Invalid --timeout: ${value}`)
  return seconds * 1000
}

async function listAction(options: CommonOptions) {
  const connections = await runCommand<OperatorConnection[]>(dataDirOf(options), 'connection.list', {})
  if (wantsJson(options)) {
    process.stdout.write(`${JSON.stringify(connections)}\n`)
    return
  }
  const { renderConnectionList } = await import('../ui/connection-list')
  await renderConnectionList(connections)
}

async function pairAction(idArg: string, options: PairOptions) {
  let final: PairState
  try {
    const id = parseConnectionId(idArg)
    const phone = parsePhone(options.phone)
    const timeoutMs = parseTimeout(options.timeout)
    const client = OperatorClient.open(dataDirOf(options))
    const abort = new AbortController()
    const onSignal = () => abort.abort()
    process.on('SIGINT', onSignal)
    process.on('SIGTERM', onSignal)
    try {
      if (wantsJson(options)) {
        let last = ''
        final = await followPairing(client, id, {
          phone,
          timeoutMs,
          signal: abort.signal,
          onState: (state) => {
            const line = JSON.stringify(pairLine(state.session))
            if (line !== last) process.stdout.write(`${line}\n`)
            last = line
          },
        })
        if (final.outcome === 'gave-up') {
          const message = `Not connected after ${options.timeout} s; gave up`
          process.stderr.write(`${JSON.stringify({ error: 'ERR_PAIR_TIMEOUT', message })}\n`)
        }
      } else {
        const { mountPairScreen } = await import('../ui/connection-pair')
        const screen = mountPairScreen({ id, phone, timeoutSeconds: Number(options.timeout) })
        let failed = true
        try {
          final = await followPairing(client, id, {
            phone,
            timeoutMs,
            signal: abort.signal,
            onState: (state) => screen.update(state),
          })
          failed = false
        } finally {
          await screen.close(failed)
        }
      }
    } finally {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    }
  } catch (err) {
    fail(options, err)
  }
  process.exit(exitCodeOfOutcome(final.outcome ?? 'gave-up'))
}

function sessionView(title: string, c: OperatorConnection): ResultView {
  return {
    title,
    tone: c.status === 'CONNECTED' ? 'success' : 'info',
    rows: [
      ['id', String(c.id)],
      ['company', c.companyName],
      ['name', c.name],
      ['status', c.statusReason ? `${c.status} (${c.statusReason})` : c.status],
      ['number', c.number ?? '-'],
    ],
  }
}

async function restartAction(idArg: string, options: CommonOptions) {
  const id = parseConnectionId(idArg)
  const restarted = await runCommand<OperatorConnection>(dataDirOf(options), 'connection.restart', { id })
  await printResult(options, restarted, sessionView('Session restarted', restarted))
}

async function logoutAction(idArg: string, options: CommonOptions & { yes?: boolean }) {
  const id = parseConnectionId(idArg)
  await confirmOrStop(options, `Unlink connection ${id} from its phone? Pairing again needs the phone`)
  const out = await runCommand<OperatorConnection>(dataDirOf(options), 'connection.logout', { id })
  await printResult(options, out, {
    ...sessionView('Connection unlinked', out),
    note: `Pair it again with \`balcao connection pair ${id}\`.`,
  })
}

export function registerConnection(program: Command) {
  const connection = program
    .command('connection')
    .description(
      'the WhatsApp connections (pair, restart and logout need `balcao serve` on this data folder)',
    )
  operatorAction(
    connection
      .command('list')
      .description("every company's connections with their status (live when the server runs)"),
    listAction,
  )
  operatorAction(
    connection
      .command('restart')
      .description("close and reopen a connection's WhatsApp session (needs the running server)")
      .argument('<id>', 'the connection id (see `balcao connection list`)'),
    restartAction,
  )
  operatorAction(
    connection
      .command('logout')
      .description('unlink a connection from its phone and forget the session (needs the running server)')
      .argument('<id>', 'the connection id (see `balcao connection list`)')
      .option('-y, --yes', 'unlink without asking (required off a terminal)'),
    logoutAction,
  )
  connection
    .command('pair')
    .description('link a connection to a phone: shows the QR (or a pairing code) and waits until it connects')
    .argument('<id>', 'the connection id (see `balcao connection list`)')
    .option(
      '--phone <number>',
      'pair with a code instead of a QR; the number with country code (5511999990000)',
    )
    .option('--timeout <seconds>', 'give up after this many seconds', '300')
    .option('-d, --data <dir>', 'data folder of the running server (env BALCAO_DATA_DIR, default ./data)')
    .option('--json', 'print one JSON line per status or QR change')
    .addHelpText(
      'after',
      '\nExit codes: 0 connected, 2 bad arguments, 3 no such connection, 4 denied,\n' +
        '6 Balcão not running, or the session timed out / disconnected, 130 interrupted (Ctrl-C).',
    )
    .action(pairAction)
}
