import { SendHorizontal, Trash2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'
import { clock } from './format'
import { iconBase } from './inputButtons'
import type { useRecorder } from './useRecorder'

/** What the input shows while a voice message is recorded: discard, the running time, send. */
export function RecordingBar({ recorder }: { recorder: ReturnType<typeof useRecorder> }) {
  const { t } = useTranslation()
  return (
    <>
      <button
        type="button"
        onClick={recorder.cancel}
        className={cn(iconBase, 'text-muted hover:bg-surface-3 hover:text-danger')}
        aria-label={t('conversation.input.cancelRecording')}
        title={t('conversation.input.cancelRecording')}
      >
        <Trash2 className="size-5" aria-hidden />
      </button>
      <div className="flex h-10 flex-1 items-center gap-2 px-2" role="status">
        <span className="size-2.5 animate-pulse rounded-full bg-danger" aria-hidden />
        <span className="font-medium text-fg tnum" data-testid="recording-time">
          {clock(recorder.seconds)}
        </span>
        <span className="text-muted text-sm">{t('conversation.input.recording')}</span>
      </div>
      <button
        type="button"
        onClick={recorder.stop}
        disabled={recorder.state !== 'recording'}
        className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-on-primary hover:bg-primary-hover disabled:opacity-60 max-sm:size-11"
        aria-label={t('conversation.input.sendRecording')}
        title={t('conversation.input.sendRecording')}
      >
        <SendHorizontal className="size-5" aria-hidden />
      </button>
    </>
  )
}
