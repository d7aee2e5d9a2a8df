/**
 * What GET /api/health says about this server; the web only needs `sandbox` (the server runs with --sandbox:
 * the simulated WhatsApp network exists, and a new connection defaults to it). Asked once; a failure is not
 * remembered, so the next reader asks again.
 */
import { signal } from '@preact/signals-react'
import { useEffect, useSyncExternalStore } from 'react'
import type { HealthResponse } from '../../shared/api'
import { api } from '../api/client'

export const health = signal<HealthResponse | null>(null)
let inflight: Promise<HealthResponse | null> | null = null

export function loadHealth(): Promise<HealthResponse | null> {
  if (health.peek()) return Promise.resolve(health.peek())
  if (!inflight) {
    inflight = api
      .get<HealthResponse>('/health')
      .then((h) => {
        health.value = h
        return h
      })
      .catch(() => null)
      .finally(() => {
        inflight = null
      })
  }
  return inflight
}

/** Whether this server runs the sandbox (false until it answers). */
export function useSandboxServer(): boolean {
  useEffect(() => {
    void loadHealth()
  }, [])
  return useSyncExternalStore(
    (notify) => health.subscribe(notify),
    () => health.peek()?.sandbox === true,
  )
}

/** Tests: forget the answer. */
export function resetHealth(): void {
  health.value = null
  inflight = null
}
