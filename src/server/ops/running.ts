import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Whether a Balcão server runs on this data folder: its `operator.json` (written at start, removed at stop)
 * names a process that is still alive. A file left by a killed server names a gone process.
 */
export function serverPid(dataDir: string): number | null {
  let pid: unknown
  try {
    pid = (JSON.parse(readFileSync(join(dataDir, 'operator.json'), 'utf8')) as { pid?: unknown }).pid
  } catch {
    return null
  }
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0) return null
  try {
    process.kill(pid, 0)
    return pid
  } catch (err) {
    // EPERM: it exists, and belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM' ? pid : null
  }
}
