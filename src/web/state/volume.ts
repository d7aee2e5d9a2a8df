import { signal } from '@preact/signals-react'

export const VOLUME_KEY = 'volume'

/** Notification volume 0..1 in steps of 0.1, saved as `volume` (default 1). */
export function readVolume(): number {
  const raw = typeof localStorage !== 'undefined' ? localStorage.getItem(VOLUME_KEY) : null
  const n = raw == null ? Number.NaN : Number(raw)
  return Number.isFinite(n) ? Math.min(1, Math.max(0, Math.round(n * 10) / 10)) : 1
}

export const volume = signal<number>(readVolume())

export function setVolume(value: number): void {
  const v = Math.min(1, Math.max(0, Math.round(value * 10) / 10))
  volume.value = v
  localStorage.setItem(VOLUME_KEY, String(v))
}
