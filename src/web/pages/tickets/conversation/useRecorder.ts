import { useCallback, useEffect, useRef, useState } from 'react'

/**
 * Audio recording with MediaRecorder. The browser records Opus (Ogg in Firefox, WebM in Chrome and Edge; the
 * server rewraps WebM as Ogg so the customer gets a voice note WhatsApp plays) at 128 kbps, the spec's rate, so
 * the 10000-byte minimum means the same short slip (well under a second) as with the spec's mp3.
 */
export const RECORDING_TYPES = ['audio/ogg;codecs=opus', 'audio/webm;codecs=opus', 'audio/webm', 'audio/mp4']
export const RECORDING_BITRATE = 128_000

export type RecorderState = 'idle' | 'starting' | 'recording' | 'stopping'

export type Recording = { blob: Blob; mime: string; seconds: number }

/** The first recording type this browser supports ('' lets the browser choose). */
export function recordingType(): string {
  const MR = (globalThis as { MediaRecorder?: typeof MediaRecorder }).MediaRecorder
  if (!MR?.isTypeSupported) return ''
  return RECORDING_TYPES.find((t) => MR.isTypeSupported(t)) ?? ''
}

/** A file name for a recording, by its container. */
export function recordingFileName(mime: string, now = Date.now()): string {
  const ext = mime.includes('ogg')
    ? 'ogg'
    : mime.includes('webm')
      ? 'webm'
      : mime.includes('mp4')
        ? 'm4a'
        : 'ogg'
  return `audio-${now}.${ext}`
}

export function useRecorder(options: {
  onRecorded: (rec: Recording) => void
  onError: (err: unknown) => void
}) {
  const latest = useRef(options)
  latest.current = options
  const [state, setState] = useState<RecorderState>('idle')
  const [seconds, setSeconds] = useState(0)
  const recorder = useRef<MediaRecorder | null>(null)
  const stream = useRef<MediaStream | null>(null)
  const chunks = useRef<Blob[]>([])
  const timer = useRef<ReturnType<typeof setInterval> | null>(null)
  const keep = useRef(false)
  const started = useRef(0)

  const release = useCallback(() => {
    if (timer.current) clearInterval(timer.current)
    timer.current = null
    for (const track of stream.current?.getTracks() ?? []) track.stop()
    stream.current = null
    recorder.current = null
  }, [])

  useEffect(
    () => () => {
      keep.current = false
      if (recorder.current?.state === 'recording') recorder.current.stop()
      release()
    },
    [release],
  )

  const start = useCallback(async () => {
    if (state !== 'idle') return
    setState('starting')
    try {
      if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined')
        throw new Error('unsupported')
      const media = await navigator.mediaDevices.getUserMedia({ audio: true })
      stream.current = media
      const mimeType = recordingType()
      const rec = new MediaRecorder(media, {
        ...(mimeType ? { mimeType } : {}),
        audioBitsPerSecond: RECORDING_BITRATE,
      })
      chunks.current = []
      keep.current = false
      rec.ondataavailable = (e) => {
        if (e.data?.size) chunks.current.push(e.data)
      }
      rec.onstop = () => {
        const mime = rec.mimeType || mimeType || 'audio/ogg'
        const blob = new Blob(chunks.current, { type: mime })
        const length = Math.round((Date.now() - started.current) / 1000)
        chunks.current = []
        release()
        setState('idle')
        setSeconds(0)
        if (keep.current) latest.current.onRecorded({ blob, mime, seconds: length })
      }
      recorder.current = rec
      rec.start()
      started.current = Date.now()
      setSeconds(0)
      timer.current = setInterval(() => setSeconds((s) => s + 1), 1000)
      setState('recording')
    } catch (err) {
      release()
      setState('idle')
      latest.current.onError(err)
    }
  }, [state, release])

  const finish = useCallback((send: boolean) => {
    const rec = recorder.current
    if (!rec || rec.state === 'inactive') return
    keep.current = send
    setState('stopping')
    rec.stop()
  }, [])

  return {
    state,
    seconds,
    start,
    /** Stops and hands the recording over. */
    stop: useCallback(() => finish(true), [finish]),
    /** Stops and throws the recording away. */
    cancel: useCallback(() => finish(false), [finish]),
  }
}
