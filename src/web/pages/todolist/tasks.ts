/**
 * The to-do list's storage (spec 2, "Local task"): the browser's localStorage under the key 'tasks', a JSON
 * array of `{ text, createdAt, updatedAt }` with the times as ISO 8601 strings. Nothing goes to the server.
 *
 * What is stored may have been written by anything (an older version, another app on this origin, a person in
 * the developer tools): reading never throws, keeps only entries with a non-blank text, and reads a time given
 * as an ISO string or as epoch milliseconds (writing it back as ISO).
 */

export const TASKS_KEY = 'tasks'
/** A task's text: generous, but bounded so one paste cannot fill the browser's storage. */
export const TASK_TEXT_MAX = 2000

export type Task = { text: string; createdAt: string; updatedAt: string }

function isoOf(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null
  if (typeof value === 'string' && !value.trim()) return null
  const ms = typeof value === 'number' ? value : Date.parse(value)
  if (!Number.isFinite(ms)) return null
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** One stored entry as a task, or null when it is not one. */
export function taskOf(entry: unknown, now: Date = new Date()): Task | null {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return null
  const { text, createdAt, updatedAt } = entry as Record<string, unknown>
  if (typeof text !== 'string' || !text.trim()) return null
  const created = isoOf(createdAt) ?? isoOf(updatedAt) ?? now.toISOString()
  return { text: text.slice(0, TASK_TEXT_MAX), createdAt: created, updatedAt: isoOf(updatedAt) ?? created }
}

/** The stored tasks; anything unreadable counts as no tasks, a bad entry is skipped. */
export function parseTasks(raw: string | null, now: Date = new Date()): Task[] {
  if (!raw) return []
  let data: unknown
  try {
    data = JSON.parse(raw)
  } catch {
    return []
  }
  if (!Array.isArray(data)) return []
  const tasks: Task[] = []
  for (const entry of data) {
    const task = taskOf(entry, now)
    if (task) tasks.push(task)
  }
  return tasks
}

export function readTasks(storage: Storage | null = safeStorage()): Task[] {
  try {
    return parseTasks(storage?.getItem(TASKS_KEY) ?? null)
  } catch {
    return []
  }
}

/** Stores the tasks; false when the browser refuses (storage full or disabled). */
export function writeTasks(tasks: Task[], storage: Storage | null = safeStorage()): boolean {
  try {
    if (!storage) return false
    storage.setItem(TASKS_KEY, JSON.stringify(tasks))
    return true
  } catch {
    return false
  }
}

/** localStorage, or null where reading it throws (some privacy modes). */
function safeStorage(): Storage | null {
  try {
    return globalThis.localStorage ?? null
  } catch {
    return null
  }
}
