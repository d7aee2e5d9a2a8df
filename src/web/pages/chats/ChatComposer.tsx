import { SendHorizontal } from 'lucide-react'
import { type KeyboardEvent, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CHAT_MESSAGE_MAX } from '../../../shared/schemas/chats'
import { cn } from '../../lib/cn'

const MAX_ROWS = 6

/**
 * The message box: Enter sends, Shift+Enter breaks the line, a blank message is not sent. The text stays
 * while it is sent, and is cleared once the server took it (it is kept when sending fails).
 */
export function ChatComposer({ onSend }: { onSend: (text: string) => Promise<boolean> }) {
  const { t } = useTranslation()
  const [text, setText] = useState('')
  const [sending, setSending] = useState(false)
  const area = useRef<HTMLTextAreaElement>(null)
  const blank = text.trim() === ''

  const send = async () => {
    if (blank || sending) return
    setSending(true)
    const ok = await onSend(text)
    setSending(false)
    if (ok) setText('')
    area.current?.focus()
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      void send()
    }
  }

  const rows = Math.min(MAX_ROWS, Math.max(1, text.split('\n').length))
  return (
    <div className="flex shrink-0 items-end gap-2 border-border border-t bg-surface px-3 py-2">
      <textarea
        ref={area}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
        rows={rows}
        maxLength={CHAT_MESSAGE_MAX}
        placeholder={t('chats.placeholder')}
        aria-label={t('chats.inputLabel')}
        className={cn(
          'min-h-10 flex-1 resize-none overflow-y-auto rounded-[20px] border border-border bg-surface-2 px-4 py-2.5 text-[15px] text-fg leading-[1.4] placeholder:text-subtle',
          'focus:border-focus focus:outline-none',
        )}
      />
      <button
        type="button"
        onClick={() => void send()}
        disabled={blank || sending}
        aria-label={t('chats.send')}
        title={t('chats.send')}
        className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary text-on-primary hover:bg-primary-hover disabled:opacity-50 max-sm:size-11"
      >
        <SendHorizontal className="size-5" aria-hidden />
      </button>
    </div>
  )
}
