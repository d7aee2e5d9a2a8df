import { useSignals } from '@preact/signals-react/runtime'
import { Lock, Mic, Paperclip, Pencil, PenLine, Reply } from 'lucide-react'
import { type ClipboardEvent, type DragEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { MessageDto, TicketDto } from '../../../../shared/api'
import { Spinner } from '../../../components/ui/Spinner'
import { cn } from '../../../lib/cn'
import { useIsPhone } from '../../../lib/useMediaQuery'
import { currentUser } from '../../../state/session'
import { settingValue } from '../../../state/settings'
import { toast } from '../../../state/toast'
import { AttachmentPreview } from './AttachmentPreview'
import { EmojiPicker } from './EmojiPicker'
import { iconBase, iconBtn } from './inputButtons'
import { ModeBanner } from './ModeBanner'
import { QuickAnswerList, quickAnswerId, quickAnswersId } from './QuickAnswerList'
import { QuotedBar } from './QuotedBar'
import { RecordingBar } from './RecordingBar'
import {
  INPUT_MAX_ROWS,
  inputRows,
  keyAction,
  normalizeBody,
  type QuickAnswer,
  readSignOption,
  writeSignOption,
} from './rules'
import { SendButton } from './SendButton'
import { useAttachments } from './useAttachments'
import { quickAnswerFile, useQuickAnswerSuggestions } from './useQuickAnswers'
import { useRecorder } from './useRecorder'
import { useSendMessage } from './useSendMessage'

export type MessageInputProps = {
  ticket: TicketDto
  /** Reply mode: the message being answered. */
  replyTo: MessageDto | null
  onCancelReply: () => void
  /** Edit mode: the message being changed. */
  editing: MessageDto | null
  onCancelEdit: () => void
  /** Messages the server answered (shown at once; the live event merges into them). */
  onSent: (messages: MessageDto[]) => void
  /** Focus requests (a reply or an edit chosen in the list). */
  focusKey?: unknown
}

/**
 * The message input: Enter sends, Shift+Enter breaks the line, at most 5 rows; emoji, attachments (with a
 * preview, also pasted or dropped), audio recording, reply and edit modes, the private-note switch and the sign
 * option. Nothing can be sent unless the ticket is open.
 */
export function MessageInput({
  ticket,
  replyTo,
  onCancelReply,
  editing,
  onCancelEdit,
  onSent,
  focusKey,
}: MessageInputProps) {
  useSignals()
  const { t } = useTranslation()
  const me = currentUser.value
  const phone = useIsPhone()
  const open = ticket.status === 'open'
  const [text, setText] = useState('')
  // Note mode is for one note: it ends once the note is saved, when a message is quoted, and with the ticket,
  // so a reply meant for the customer is never kept as a note by a mode left on.
  const [isPrivate, setPrivate] = useState(false)
  const [sign, setSign] = useState(readSignOption)
  const [dragging, setDragging] = useState(false)
  const area = useRef<HTMLTextAreaElement>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const signAllowed = settingValue('sendSignMessage') !== 'disabled'
  const quick = useQuickAnswerSuggestions(text, open && !editing)
  const suggestionCount = quick.suggestions.length

  // Edit mode starts from the message's text; leaving it empties the input.
  const editingId = editing?.id ?? null
  const wasEditing = useRef(false)
  // biome-ignore lint/correctness/useExhaustiveDependencies: only another message to edit resets the text
  useEffect(() => {
    if (editing) setText(editing.body)
    else if (wasEditing.current) setText('')
    wasEditing.current = editing != null
  }, [editingId])

  useEffect(() => {
    if (focusKey != null) area.current?.focus()
  }, [focusKey])

  // Quoting a message answers the customer: note mode ends (it may be switched on again for a quoted note). A
  // quote that ends (sent, cancelled) leaves the mode as it is, so a refused note stays a note.
  const replyToId = replyTo?.id ?? null
  useEffect(() => {
    if (replyToId != null) setPrivate(false)
  }, [replyToId])
  // biome-ignore lint/correctness/useExhaustiveDependencies: another ticket starts in reply mode
  useEffect(() => setPrivate(false), [ticket.id])

  const { attachments, addFiles, removeAttachment, clearAttachments } = useAttachments(open && !editing)

  /** A suggestion chosen: its message fills the input; its media (if any) joins the attachments. */
  const chooseQuickAnswer = (answer: QuickAnswer) => {
    setText(answer.message)
    quick.dismiss(answer.message)
    area.current?.focus()
    if (!answer.mediaUrl) return
    quickAnswerFile(answer)
      .then((file) => {
        if (file) addFiles([file])
      })
      .catch(() => toast.error(t('quickMessages.mediaLoadFailed')))
  }

  const { sending, send, sendRecording } = useSendMessage({
    ticket,
    text,
    setText,
    attachments,
    clearAttachments,
    isPrivate,
    setPrivate,
    signAs: sign && signAllowed && me?.name ? me.name : null,
    replyTo,
    onCancelReply,
    editing,
    onCancelEdit,
    onSent,
    focusInput: () => area.current?.focus(),
  })

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (quick.onKeyDown(e, chooseQuickAnswer)) return
    if (e.key === 'Escape') {
      if (editing) onCancelEdit()
      else if (replyTo) onCancelReply()
      return
    }
    if (keyAction(e) === 'send') {
      e.preventDefault()
      void send()
    }
  }

  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = Array.from(e.clipboardData?.files ?? [])
    if (files.length === 0) return
    e.preventDefault()
    addFiles(files)
  }

  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    setDragging(false)
    const files = Array.from(e.dataTransfer?.files ?? [])
    if (files.length === 0) return
    e.preventDefault()
    addFiles(files)
  }

  const insertEmoji = (emoji: string) => {
    const el = area.current
    const start = el?.selectionStart ?? text.length
    const end = el?.selectionEnd ?? text.length
    const next = text.slice(0, start) + emoji + text.slice(end)
    setText(next)
    requestAnimationFrame(() => {
      if (!el) return
      el.focus()
      const at = start + emoji.length
      el.setSelectionRange(at, at)
    })
  }

  const recorder = useRecorder({
    onRecorded: (rec) => void sendRecording(rec),
    onError: () => toast.error(t('conversation.input.micError')),
  })
  const recording = recorder.state !== 'idle'

  const toggleSign = () => {
    setSign((on) => {
      writeSignOption(!on)
      return !on
    })
  }

  const placeholder = !open
    ? ticket.status === 'pending'
      ? t('conversation.input.acceptFirst')
      : t('conversation.input.reopenFirst')
    : isPrivate
      ? t('conversation.input.privatePlaceholder')
      : attachments.length
        ? t('conversation.input.captionPlaceholder')
        : phone
          ? t('conversation.input.label')
          : t('conversation.input.placeholder')

  const canSendNow = open && !sending && (normalizeBody(text) != null || attachments.length > 0)
  const noteSend = isPrivate && !editing

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is a shortcut; the attach button does the same
    <div
      className={cn('relative shrink-0', dragging && 'ring-2 ring-focus ring-inset')}
      onDragOver={(e) => {
        if (!open || editing) return
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      {suggestionCount > 0 && (
        <QuickAnswerList
          ticketId={ticket.id}
          suggestions={quick.suggestions}
          active={quick.active}
          onChoose={chooseQuickAnswer}
          onHover={quick.setActive}
        />
      )}
      {editing && (
        <ModeBanner icon={<Pencil />} title={t('conversation.input.editing')} onClose={onCancelEdit}>
          <div className="truncate text-[13px] text-fg">{editing.body}</div>
        </ModeBanner>
      )}
      {!editing && replyTo && (
        <ModeBanner icon={<Reply />} title={t('conversation.input.replying')} onClose={onCancelReply}>
          <QuotedBar
            quoted={{
              id: replyTo.id,
              body: replyTo.body,
              fromMe: replyTo.fromMe,
              mediaType: replyTo.mediaType,
              isDeleted: replyTo.isDeleted,
              participantName: replyTo.participantName,
              contactName: null,
            }}
            customerName={ticket.contact.name}
            className="mt-1"
          />
        </ModeBanner>
      )}
      {!editing && isPrivate && open && (
        <ModeBanner
          icon={<Lock />}
          title={t('conversation.input.noteMode')}
          onClose={() => setPrivate(false)}
          closeLabel={t('conversation.input.leaveNote')}
          note
          testId="note-mode"
        >
          <div className="text-[12px] opacity-90">{t('conversation.input.noteModeHint')}</div>
        </ModeBanner>
      )}
      {attachments.length > 0 && (
        <AttachmentPreview items={attachments} onRemove={removeAttachment} onClear={clearAttachments} />
      )}
      <div
        className={cn(
          'flex items-end gap-1 border-border border-t px-2 py-2 sm:px-3',
          isPrivate ? 'bg-[var(--note)]' : 'bg-surface-2',
        )}
      >
        {recording ? (
          <RecordingBar recorder={recorder} />
        ) : (
          <>
            <EmojiPicker onPick={insertEmoji} disabled={!open} />
            {!editing && (
              <>
                <button
                  type="button"
                  onClick={() => fileInput.current?.click()}
                  disabled={!open}
                  className={iconBtn}
                  aria-label={t('conversation.input.attach')}
                  title={t('conversation.input.attach')}
                >
                  <Paperclip className="size-5" aria-hidden />
                </button>
                <input
                  ref={fileInput}
                  type="file"
                  multiple
                  hidden
                  data-testid="file-input"
                  onChange={(e) => {
                    addFiles(Array.from(e.target.files ?? []))
                    e.target.value = ''
                  }}
                />
              </>
            )}
            <textarea
              ref={area}
              value={text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onKeyDown}
              onPaste={onPaste}
              disabled={!open}
              rows={inputRows(text)}
              placeholder={placeholder}
              aria-label={t('conversation.input.label')}
              aria-controls={suggestionCount > 0 ? quickAnswersId(ticket.id) : undefined}
              aria-activedescendant={
                quick.current ? quickAnswerId(ticket.id, quick.current.answer.id) : undefined
              }
              className={cn(
                'min-h-10 flex-1 resize-none overflow-y-auto rounded-[20px] border bg-surface px-3 py-2.5 sm:px-4 text-[15px] text-fg leading-[1.4] placeholder:text-subtle',
                'focus:border-focus focus:outline-none disabled:cursor-not-allowed disabled:opacity-70',
                isPrivate ? 'border-[var(--note-border)]' : 'border-transparent',
              )}
              style={{ maxHeight: `calc(${INPUT_MAX_ROWS} * 1.4em + 1.25rem)` }}
            />
            {!editing && (
              <button
                type="button"
                onClick={() => setPrivate((v) => !v)}
                disabled={!open}
                aria-pressed={isPrivate}
                className={
                  isPrivate ? cn(iconBase, 'bg-[var(--note-border)] text-[var(--note-fg)]') : iconBtn
                }
                aria-label={t('conversation.input.private')}
                title={t('conversation.input.private')}
              >
                <Lock className="size-[18px]" aria-hidden />
              </button>
            )}
            {signAllowed && !editing && (
              <button
                type="button"
                onClick={toggleSign}
                disabled={!open}
                aria-pressed={sign}
                className={cn(
                  iconBase,
                  'max-md:hidden',
                  sign ? 'text-link hover:bg-surface-3' : 'text-muted hover:bg-surface-3 hover:text-fg',
                )}
                aria-label={t('conversation.input.sign')}
                title={t('conversation.input.sign')}
              >
                <PenLine className="size-[18px]" aria-hidden />
              </button>
            )}
            {canSendNow || editing || attachments.length > 0 ? (
              <SendButton
                note={noteSend}
                sending={sending}
                disabled={!canSendNow}
                onSend={() => void send()}
              />
            ) : (
              <button
                type="button"
                onClick={() => void recorder.start()}
                disabled={!open || sending}
                className={iconBtn}
                aria-label={t('conversation.input.record')}
                title={t('conversation.input.record')}
              >
                {sending ? <Spinner /> : <Mic className="size-5" aria-hidden />}
              </button>
            )}
          </>
        )}
      </div>
    </div>
  )
}
