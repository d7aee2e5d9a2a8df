/**
 * The notification sound: a short, soft two-note chime synthesised with WebAudio (no file to fetch, nothing
 * from a CDN), at the top bar's volume. Browsers only let a page make sound after the user interacted with it;
 * until then the chime is skipped silently.
 */

type AudioContextCtor = typeof AudioContext

let ctx: AudioContext | null = null
let last = 0

/** Chimes closer together than this play once (a burst of messages is one sound). */
export const SOUND_GAP_MS = 1500

function audioContext(): AudioContext | null {
  if (ctx) return ctx
  const Ctor =
    (globalThis as { AudioContext?: AudioContextCtor }).AudioContext ??
    (globalThis as { webkitAudioContext?: AudioContextCtor }).webkitAudioContext
  if (!Ctor) return null
  try {
    ctx = new Ctor()
  } catch {
    return null
  }
  return ctx
}

/** Unlocks audio on the first user gesture, so later chimes may play. Returns the function that stops it. */
export function unlockAudioOnGesture(): () => void {
  if (typeof window === 'undefined') return () => {}
  const unlock = () => {
    const c = audioContext()
    if (c && c.state === 'suspended') void c.resume().catch(() => {})
    stop()
  }
  const stop = () => {
    window.removeEventListener('pointerdown', unlock)
    window.removeEventListener('keydown', unlock)
  }
  window.addEventListener('pointerdown', unlock, { once: true })
  window.addEventListener('keydown', unlock, { once: true })
  return stop
}

/** Plays the chime at `volume` (0..1). Returns whether it was played. */
export function playNotificationSound(volume: number, now: number = Date.now()): boolean {
  if (volume <= 0 || now - last < SOUND_GAP_MS) return false
  const c = audioContext()
  if (c?.state !== 'running') return false
  last = now
  const start = c.currentTime + 0.01
  const master = c.createGain()
  master.gain.value = Math.min(1, Math.max(0, volume)) * 0.35
  master.connect(c.destination)
  // Two short sine notes, a fifth apart, each with a fast attack and a gentle decay.
  for (const [freq, offset] of [
    [880, 0],
    [1318.5, 0.12],
  ] as const) {
    const osc = c.createOscillator()
    const gain = c.createGain()
    osc.type = 'sine'
    osc.frequency.value = freq
    const t0 = start + offset
    gain.gain.setValueAtTime(0.0001, t0)
    gain.gain.exponentialRampToValueAtTime(1, t0 + 0.015)
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.35)
    osc.connect(gain)
    gain.connect(master)
    osc.start(t0)
    osc.stop(t0 + 0.4)
  }
  return true
}
