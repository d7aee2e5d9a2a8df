/**
 * A small structured logger on stderr: a line a person reads on a terminal (`pretty`), or one JSON object per
 * line for a log collector (`json`). `BALCAO_LOG_FORMAT=pretty|json` chooses; unset, a terminal gets pretty
 * and anything else (systemd's journal, docker logs, a file) gets JSON. Silent in tests.
 */
export type Logger = {
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

export type LogFormat = 'pretty' | 'json'

export function logFormat(
  env: Record<string, string | undefined> = process.env,
  isTerminal = !!process.stderr.isTTY,
): LogFormat {
  const chosen = env.BALCAO_LOG_FORMAT?.trim().toLowerCase()
  if (chosen === 'json' || chosen === 'pretty') return chosen
  return isTerminal ? 'pretty' : 'json'
}

const LEVEL_COLOUR: Record<string, string> = { info: '\x1b[36m', warn: '\x1b[33m', error: '\x1b[31m' }

function prettyValue(value: unknown): string {
  if (value instanceof Error) return JSON.stringify(value.message)
  if (typeof value !== 'string') return JSON.stringify(value) ?? String(value)
  return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)
}

/** `14:03:07 WARN  super admin created email=root@x password=…`, coloured on a terminal. */
export function prettyLine(
  time: Date,
  level: string,
  msg: string,
  fields: Record<string, unknown> = {},
  colour = false,
) {
  const clock = time.toISOString().slice(11, 19)
  const label = level.toUpperCase().padEnd(5)
  const pairs = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${prettyValue(v)}`)
    .join(' ')
  const head = colour
    ? `\x1b[2m${clock}\x1b[0m ${LEVEL_COLOUR[level] ?? ''}${label}\x1b[0m`
    : `${clock} ${label}`
  return pairs ? `${head} ${msg}  ${colour ? `\x1b[2m${pairs}\x1b[0m` : pairs}` : `${head} ${msg}`
}

function jsonFields(fields: Record<string, unknown> = {}) {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(fields)) out[k] = v instanceof Error ? v.message : v
  return out
}

export function createLogger(
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  format: LogFormat = logFormat(),
  colour = format === 'pretty' && !!process.stderr.isTTY && !process.env.NO_COLOR,
): Logger {
  const entry = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    const time = new Date()
    write(
      format === 'pretty'
        ? prettyLine(time, level, msg, fields, colour)
        : JSON.stringify({ t: time.toISOString(), level, msg, ...jsonFields(fields) }),
    )
  }
  return { info: entry('info'), warn: entry('warn'), error: entry('error') }
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} }
