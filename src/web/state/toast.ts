import { signal } from '@preact/signals-react'

export type ToastKind = 'success' | 'error' | 'warning' | 'info'
export type ToastItem = { id: number; kind: ToastKind; message: string; duration: number }

/** The spec: toasts auto-close after 3 s in the application. */
export const TOAST_DURATION = 3000

export const toasts = signal<ToastItem[]>([])
let nextId = 1

export function dismissToast(id: number): void {
  toasts.value = toasts.value.filter((t) => t.id !== id)
}

function push(kind: ToastKind, message: string, duration = TOAST_DURATION): number {
  const id = nextId++
  // Identical message already visible: replace it rather than stacking duplicates.
  const rest = toasts.value.filter((t) => !(t.message === message && t.kind === kind))
  toasts.value = [...rest, { id, kind, message, duration }].slice(-5)
  return id
}

export const toast = {
  success: (message: string, duration?: number) => push('success', message, duration),
  error: (message: string, duration?: number) => push('error', message, duration),
  warning: (message: string, duration?: number) => push('warning', message, duration),
  info: (message: string, duration?: number) => push('info', message, duration),
}
