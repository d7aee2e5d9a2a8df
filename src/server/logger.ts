/** A small structured logger: one JSON line per entry on stderr, or silent in tests. */
export type Logger = {
  info(msg: string, fields?: Record<string, unknown>): void
  warn(msg: string, fields?: Record<string, unknown>): void
  error(msg: string, fields?: Record<string, unknown>): void
}

export function createLogger(
  write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
): Logger {
  const entry = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    write(JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields }))
  return { info: entry('info'), warn: entry('warn'), error: entry('error') }
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} }
