import { resolve } from 'node:path'
import { parseWaSimulatorUrl, WA_SIMULATOR_ENV, type WaSimulator } from './channels/baileys/simulator'

export type Config = {
  port: number
  host: string
  dataDir: string
  sandbox: boolean
  adminEmail?: string
  adminPassword?: string
  /** Where the prebuilt UI lives when running from sources (the executable carries its own). */
  webDir?: string
  /** Daily backups kept in `<data>/backups` (0: none). */
  backupKeep: number
  /** `--wa-simulator ws://127.0.0.1:P`: WhatsApp sessions connect to the simulator (tests/wa-sim) and trust it. */
  waSimulator?: WaSimulator
}

export type ServeFlags = {
  port?: string
  host?: string
  data?: string
  sandbox?: boolean
  backupKeep?: string
  waSimulator?: string
}

function envFlag(value: string | undefined) {
  return value === '1' || value === 'true' || value === 'yes'
}

/** `BALCAO_BACKUP_KEEP` / `--backup-keep`: a whole number of daily backups (at most 365), none otherwise. */
export function backupKeep(value: string | undefined): number {
  const n = Number(value ?? 0)
  return Number.isInteger(n) && n > 0 ? Math.min(n, 365) : 0
}

/** Flags win over the environment, which wins over the defaults. */
export function loadConfig(
  flags: ServeFlags = {},
  env: Record<string, string | undefined> = process.env,
): Config {
  const port = Number(flags.port ?? env.PORT ?? 8080)
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`invalid port: ${flags.port ?? env.PORT}`)
  const simulator = flags.waSimulator ?? env[WA_SIMULATOR_ENV]
  return {
    ...(simulator ? { waSimulator: parseWaSimulatorUrl(simulator) } : {}),
    port,
    host: flags.host ?? env.HOST ?? '127.0.0.1',
    dataDir: resolve(flags.data ?? env.BALCAO_DATA_DIR ?? './data'),
    sandbox: flags.sandbox ?? envFlag(env.BALCAO_SANDBOX),
    adminEmail: env.BALCAO_ADMIN_EMAIL || undefined,
    adminPassword: env.BALCAO_ADMIN_PASSWORD || undefined,
    backupKeep: backupKeep(flags.backupKeep ?? env.BALCAO_BACKUP_KEEP),
  }
}
