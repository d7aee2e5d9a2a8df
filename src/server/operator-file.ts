import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** How `balcao connection …` reaches the running server: written at start-up, mode 600, removed at stop. */
export type OperatorFile = { url: string; token: string; pid: number }

export function newOperatorToken() {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
}

/** A server bound to every interface is still reached locally on the loopback. */
export function connectHost(host: string) {
  if (host === '0.0.0.0' || host === '::' || host === '') return '127.0.0.1'
  return host.includes(':') ? `[${host}]` : host
}

export function writeOperatorFile(dataDir: string, content: OperatorFile) {
  const file = join(dataDir, 'operator.json')
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 })
  chmodSync(file, 0o600)
  return file
}

/** Removes the file only if it is still ours (another server may have started on the same folder since). */
export function removeOperatorFile(file: string, token: string | null) {
  try {
    if (existsSync(file) && (JSON.parse(readFileSync(file, 'utf8')) as OperatorFile).token === token)
      rmSync(file)
  } catch {}
}
