import { useSignals } from '@preact/signals-react/runtime'
import { FileText } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MessageDto } from '../../../../shared/api'
import { planAllows } from '../../../../shared/plans'
import { api } from '../../../api/client'
import { toastError } from '../../../api/errors'
import { Button } from '../../../components/ui/Button'
import { currentUser } from '../../../state/session'

/** Whether a message is a received audio that may be transcribed (POST /messages/{id}/transcribe). */
export function transcribable(m: MessageDto): boolean {
  return m.mediaType === 'audio' && !m.fromMe && !m.isDeleted && !!m.mediaUrl
}

/**
 * Under a received voice note: its transcription once made, else a 'Transcrever' button (plans with useOpenAi;
 * not in the read-only view). The text is kept on the message and arrives live as an appMessage update; the
 * answer shows it at once.
 */
export function Transcription({ m, readOnly }: { m: MessageDto; readOnly?: boolean }) {
  useSignals()
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [fresh, setFresh] = useState<string | null>(null)
  const text = m.transcription ?? fresh
  if (text)
    return (
      <div
        className="mt-1 max-w-xs border-current/20 border-l-2 pl-2 text-[13.5px] text-fg/90"
        data-testid="transcription"
      >
        <div className="mb-0.5 flex items-center gap-1 font-medium text-[11.5px] text-muted">
          <FileText className="size-3" aria-hidden />
          {t('transcription.label')}
        </div>
        <p className="whitespace-pre-wrap break-words">{text}</p>
      </div>
    )
  if (readOnly || !transcribable(m) || !planAllows(currentUser.value?.company?.plan, 'useOpenAi')) return null
  const run = async () => {
    setBusy(true)
    try {
      const saved = await api.post<MessageDto>(`/messages/${m.id}/transcribe`)
      setFresh(saved.transcription ?? '')
    } catch (err) {
      toastError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button
      type="button"
      variant="ghost"
      size="sm"
      icon={<FileText className="size-3.5" />}
      onClick={run}
      loading={busy}
      disabled={busy}
      className="-ml-1 mt-0.5 text-muted"
    >
      {busy ? t('transcription.transcribing') : t('transcription.transcribe')}
    </Button>
  )
}
