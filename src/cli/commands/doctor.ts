import type { Command } from 'commander'
import { AppError } from '../../shared/errors'
import { EXIT } from '../exit-codes'
import { fail, printResult } from '../output'

/** `balcao doctor <check>`: self-tests an operator runs on the machine that hosts Balcão. */
export function registerDoctor(program: Command) {
  const doctor = program
    .command('doctor')
    .description('check the data folder, permissions, free disk, migrations, secrets and connections')
    .option('-d, --data <dir>', 'data folder (env BALCAO_DATA_DIR, default ./data)')
    .option('--json', 'print { ok, checks: [{ name, ok, detail }] } as JSON')
    .action(async (options: { data?: string; json?: boolean }) => {
      try {
        const { loadConfig } = await import('../../server/config')
        const { runDoctor } = await import('../../server/ops/doctor')
        const report = runDoctor(loadConfig({ data: options.data }).dataDir)
        await printResult(options, report, {
          title: report.ok ? 'Balcão looks healthy' : 'Balcão needs attention',
          tone: report.ok ? 'success' : 'warning',
          rows: report.checks.map((c) => [`${c.ok ? '✔' : '✖'} ${c.name}`, c.detail] as [string, string]),
        })
        if (!report.ok) process.exitCode = EXIT.failure
      } catch (err) {
        fail(options, err)
      }
    })
  doctor
    .command('websocket')
    .description(
      'check the WebSocket implementation Baileys uses (BALCAO_WA_WEBSOCKET=npm|bun) against a local server on 127.0.0.1',
    )
    .option('--impl <impl>', 'npm or bun (default: BALCAO_WA_WEBSOCKET, else npm)')
    .option('--timeout <ms>', 'how long to wait for the handshake bytes', '10000')
    .option('--json', 'print the result as JSON')
    .action(async (options: { impl?: string; timeout: string; json?: boolean }) => {
      try {
        const { parseWebSocketImpl, WEBSOCKET_ENV } = await import('../../server/channels/baileys/ws-impl')
        let impl: ReturnType<typeof parseWebSocketImpl> | undefined
        if (options.impl !== undefined && !['npm', 'bun'].includes(options.impl)) {
          throw new AppError('ERR_VALIDATION', `--impl must be "npm" or "bun" (got "${options.impl}")`)
        }
        try {
          impl = options.impl === undefined ? undefined : parseWebSocketImpl(options.impl)
          if (impl === undefined) parseWebSocketImpl(process.env[WEBSOCKET_ENV])
        } catch (err) {
          throw new AppError('ERR_VALIDATION', err instanceof Error ? err.message : String(err))
        }
        const timeoutMs = Number(options.timeout)
        if (!Number.isInteger(timeoutMs) || timeoutMs < 100) {
          throw new AppError('ERR_VALIDATION', '--timeout must be a whole number of milliseconds (>= 100)')
        }
        const { checkWebSocket } = await import('../../server/channels/baileys/ws-check')
        const result = await checkWebSocket({ impl, timeoutMs })
        await printResult(options, result, {
          title: result.ok ? 'WebSocket: handshake bytes arrived' : 'WebSocket check failed',
          tone: result.ok ? 'success' : 'warning',
          rows: [
            ['requested', result.requested],
            ['used', result.used],
            ['plugin', result.patched ? 'active' : 'NOT active'],
            ['build', result.standalone ? 'executable' : 'sources'],
            ['server', result.url],
            ['origin', result.origin ?? '-'],
            [
              'first frame',
              result.firstFrameHex ? `${result.firstFrameHex}… (${result.firstFrameBytes} bytes)` : '-',
            ],
            ['noise header', result.noiseHeader ? 'WA 06 03' : 'missing'],
            ['time', `${result.ms} ms`],
          ],
          note: result.error,
        })
        if (!result.ok) process.exitCode = EXIT.failure
      } catch (err) {
        fail(options, err)
      }
    })
}
