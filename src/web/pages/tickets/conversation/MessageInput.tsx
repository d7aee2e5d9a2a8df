import { useSignals } from '@preact/signals-react/runtime'
import {
  FileText,
  Film,
  Lock,
  Mic,
  Paperclip,
  Pencil,
  PenLine,
  Reply,
  SendHorizontal,
  Trash2,
  X,
} from 'lucide-react'
import {
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { useTranslation } from 'react-i18next'
import type { MessageDto, TicketDto } from '../../../../shared/api'
import { toastError } from '../../../api/errors'
import { Spinner } from '../../../components/ui/Spinner'
import { cn } from '../../../lib/cn'
import { useIsPhone } from '../../../lib/useMediaQuery'
import { useLiveList } from '../../../state/liveList'
import { editMessage, sendMediaMessage, sendTextMessage } from '../../../state/messages'
import { currentUser } from '../../../state/session'
import { settingValue } from '../../../state/settings'
import { toast } from '../../../state/toast'
import { usableQuickMessagesList } from '../../quick-messages/quickMessagesList'
import { EmojiPicker } from './EmojiPicker'
import { clock, fileSize } from './format'
import { QuotedBar } from './QuotedBar'
import {
  INPUT_MAX_ROWS,
  inputRows,
  keepRecording,
  keyAction,
  moveSuggestion,
  normalizeBody,
  type QuickAnswer,
  quickAnswerSuggestions,
  readSignOption,
  signBody,
  writeSignOption,
} from './rules'
import { type Recording, recordingFileName, useRecorder } from './useRecorder'

/**
 * Quick answers for '/' suggestions: the active quick messages this user may use (GET /quick-messages/list),
 * live. Loaded only once `enabled` (the user typed '/'), so a conversation opened without them fetches nothing.
 */
export function useQuickAnswers(enabled = true): QuickAnswer[] {
  const list = useLiveList(usableQuickMessagesList, undefined, { enabled })
  return list.items
}

/** A quick message's media as a file to send: fetched through its signed link. */
export async function quickAnswerFile(answer: QuickAnswer): Promise<File | null> {
  if (!answer.mediaUrl) return null
  const res = await fetch(answer.mediaUrl)
  if (!res.ok) throw new Error(`media ${res.status}`)
  const blob = await res.blob()
  const type = answer.mediaMime || blob.type || 'application/octet-stream'
  return new File([blob], answer.mediaName || 'arquivo', { type })
}

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

type Attachment = { id: number; file: File; url: string | null }

let nextAttachmentId = 1

function toAttachment(file: File): Attachment {
  const previewable = file.type.startsWith('image/') && typeof URL.createObjectURL === 'function'
  return { id: nextAttachmentId++, file, url: previewable ? URL.createObjectURL(file) : null }
}

function AttachmentPreview({
  items,
  onRemove,
  onClear,
}: {
  items: Attachment[]
  onRemove: (index: number) => void
  onClear: () => void
}) {
  const { t, i18n } = useTranslation()
  return (
    <div className="border-border border-t bg-surface px-3 py-2.5" data-testid="attachments">
      <div className="mb-2 flex items-center justify-between">
        <span className="font-medium text-[13px] text-muted">
          {t('conversation.input.attachments', { count: items.length })}
        </span>
        <button
          type="button"
          onClick={onClear}
          className="rounded-md px-2 py-1 text-[13px] text-muted hover:bg-surface-2 hover:text-fg max-sm:min-h-11"
        >
          {t('common.cancel')}
        </button>
      </div>
      <ul className="flex gap-2 overflow-x-auto pb-1">
        {items.map((a, i) => (
          <li
            key={a.id}
            className="relative flex w-28 shrink-0 flex-col overflow-hidden rounded-lg border border-border bg-surface-2"
          >
            {a.url ? (
              <img src={a.url} alt={a.file.name} className="h-20 w-full object-cover" />
            ) : (
              <span className="flex h-20 items-center justify-center text-muted">
                {a.file.type.startsWith('video/') ? (
                  <Film className="size-7" aria-hidden />
                ) : a.file.type.startsWith('audio/') ? (
                  <Mic className="size-7" aria-hidden />
                ) : (
                  <FileText className="size-7" aria-hidden />
                )}
              </span>
            )}
            <span className="truncate px-1.5 pt-1 text-[12px] text-fg" title={a.file.name}>
              {a.file.name}
            </span>
            <span className="px-1.5 pb-1 text-[11px] text-muted tnum">
              {fileSize(a.file.size, i18n.language)}
            </span>
            <button
              type="button"
              onClick={() => onRemove(i)}
              aria-label={t('conversation.input.removeAttachment', { name: a.file.name })}
              title={t('conversation.input.removeAttachment', { name: a.file.name })}
              className="absolute top-1 right-1 flex size-6 items-center justify-center rounded-full bg-black/55 text-white hover:bg-black/70"
            >
              <X className="size-3.5" aria-hidden />
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

function ModeBanner({
  icon,
  title,
  onClose,
  closeLabel,
  note = false,
  testId = 'input-mode',
  children,
}: {
  icon: React.ReactNode
  title: string
  onClose: () => void
  closeLabel?: string
  /** The private-note mode: amber, as the notes it writes. */
  note?: boolean
  testId?: string
  children?: React.ReactNode
}) {
  const { t } = useTranslation()
  const label = closeLabel ?? t('common.cancel')
  return (
    <div
      className={cn(
        'flex items-start gap-2 border-t px-3 py-2',
        note
          ? 'border-[var(--note-border)] bg-[var(--note)] text-[var(--note-fg)]'
          : 'border-border bg-surface',
      )}
      data-testid={testId}
    >
      <span className={cn('mt-1 [&>svg]:size-4', note ? 'text-[var(--note-fg)]' : 'text-muted')}>{icon}</span>
      <div className="min-w-0 flex-1">
        <div className={cn('font-medium text-[13px]', note ? 'font-semibold' : 'text-muted')}>{title}</div>
        {children}
      </div>
      <button
        type="button"
        onClick={onClose}
        aria-label={label}
        title={label}
        className={cn(
          'flex size-8 shrink-0 items-center justify-center rounded-full max-sm:size-11',
          note
            ? 'text-[var(--note-fg)] hover:bg-black/5 dark:hover:bg-white/10'
            : 'text-muted hover:bg-surface-2 hover:text-fg',
        )}
      >
        <X className="size-4" aria-hidden />
      </button>
    </div>
  )
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
  const [attachments, setAttachments] = useState<Attachment[]>([])
  const [sending, setSending] = useState(false)
  const [dragging, setDragging] = useState(false)
  const area = useRef<HTMLTextAreaElement>(null)
  const fileInput = useRef<HTMLInputElement>(null)
  const signAllowed = settingValue('sendSignMessage') !== 'disabled'
  // Quick answers load once the user first types '/', and are offered while the text is '/' and a shortcode.
  const [wantQuick, setWantQuick] = useState(false)
  if (!wantQuick && text.startsWith('/')) setWantQuick(true)
  const quickAnswers = useQuickAnswers(wantQuick && open && !editing)
  const [dismissedAt, setDismissedAt] = useState<string | null>(null)
  const [activeSuggestion, setActiveSuggestion] = useState(0)
  const suggestions = useMemo(
    () => (dismissedAt === text ? [] : quickAnswerSuggestions(quickAnswers, text)),
    [quickAnswers, text, dismissedAt],
  )
  const suggestionCount = suggestions.length
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text or list starts at the first suggestion
  useEffect(() => setActiveSuggestion(0), [text, suggestionCount])

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

  // Attachments' previews are released with them.
  const previews = useRef(attachments)
  previews.current = attachments
  useEffect(
    () => () => {
      for (const a of previews.current) if (a.url) URL.revokeObjectURL(a.url)
    },
    [],
  )

  const addFiles = (files: File[]) => {
    if (!open || editing || files.length === 0) return
    setAttachments((prev) => [...prev, ...files.map(toAttachment)])
  }
  const removeAttachment = (index: number) =>
    setAttachments((prev) => {
      const gone = prev[index]
      if (gone?.url) URL.revokeObjectURL(gone.url)
      return prev.filter((_, i) => i !== index)
    })
  const clearAttachments = () =>
    setAttachments((prev) => {
      for (const a of prev) if (a.url) URL.revokeObjectURL(a.url)
      return []
    })

  /** A suggestion chosen: its message fills the input; its media (if any) joins the attachments. */
  const chooseQuickAnswer = (answer: QuickAnswer) => {
    setText(answer.message)
    setDismissedAt(answer.message)
    area.current?.focus()
    if (!answer.mediaUrl) return
    quickAnswerFile(answer)
      .then((file) => {
        if (file) addFiles([file])
      })
      .catch(() => toast.error(t('quickMessages.mediaLoadFailed')))
  }

  const signed = (body: string) =>
    sign && signAllowed && !isPrivate && me?.name ? signBody(body, me.name) : body

  const send = async () => {
    if (!open || sending) return
    const body = normalizeBody(text)
    if (editing) {
      if (!body || body === editing.body.trim()) {
        if (!body) return
        onCancelEdit()
        return
      }
      setSending(true)
      try {
        const saved = await editMessage(editing.id, body)
        if (saved) onSent([saved])
        onCancelEdit()
        setText('')
      } catch (err) {
        toastError(err)
      } finally {
        setSending(false)
      }
      return
    }
    if (attachments.length > 0) {
      const files = attachments.map((a) => a.file)
      setSending(true)
      try {
        const sent = await sendMediaMessage(ticket.id, {
          files,
          body: body ? signed(body) : '',
          quotedMsgId: replyTo?.id ?? null,
          isPrivate,
        })
        onSent(sent)
        clearAttachments()
        setText('')
        setPrivate(false)
        onCancelReply()
      } catch (err) {
        toastError(err)
      } finally {
        setSending(false)
      }
      return
    }
    if (!body) return
    // The text leaves the input at once (as in WhatsApp); it comes back if the server refuses it.
    setText('')
    const quoted = replyTo
    onCancelReply()
    setSending(true)
    try {
      const sent = await sendTextMessage(ticket.id, {
        body: signed(body),
        quotedMsgId: quoted?.id,
        isPrivate,
      })
      if (sent) onSent([sent])
      setPrivate(false)
    } catch (err) {
      setText((now) => (now === '' ? text : now))
      toastError(err)
    } finally {
      setSending(false)
      area.current?.focus()
    }
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (suggestionCount > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault()
        setActiveSuggestion((i) => moveSuggestion(i, e.key === 'ArrowDown' ? 1 : -1, suggestionCount))
        return
      }
      if ((e.key === 'Enter' && !e.shiftKey) || e.key === 'Tab') {
        const chosen = suggestions[Math.min(activeSuggestion, suggestionCount - 1)]
        if (chosen) {
          e.preventDefault()
          chooseQuickAnswer(chosen.answer)
          return
        }
      }
      if (e.key === 'Escape') {
        e.preventDefault()
        setDismissedAt(text)
        return
      }
    }
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

  const onRecorded = async (rec: Recording) => {
    // Recordings under 10000 bytes are a slip: dropped without a word (spec).
    if (!keepRecording(rec.blob.size)) return
    const file = new File([rec.blob], recordingFileName(rec.mime), { type: rec.mime })
    setSending(true)
    try {
      const sent = await sendMediaMessage(ticket.id, {
        files: [file],
        quotedMsgId: replyTo?.id ?? null,
        isPrivate,
      })
      onSent(sent)
      setPrivate(false)
      onCancelReply()
    } catch (err) {
      toastError(err)
    } finally {
      setSending(false)
    }
  }
  const recorder = useRecorder({
    onRecorded: (rec) => void onRecorded(rec),
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
  const sendLabel = noteSend ? t('conversation.input.sendNote') : t('conversation.input.send')
  const iconBase =
    'flex size-10 shrink-0 items-center justify-center rounded-full disabled:opacity-50 max-sm:size-11'
  const iconBtn = cn(iconBase, 'text-muted hover:bg-surface-3 hover:text-fg disabled:hover:bg-transparent')

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
      {suggestions.length > 0 && (
        <div
          id={`quick-answers-${ticket.id}`}
          role="listbox"
          className="absolute right-3 bottom-full left-3 z-10 mb-1 max-h-60 overflow-y-auto rounded-lg border border-border bg-surface p-1 shadow-pop"
          aria-label={t('conversation.input.quickAnswers')}
        >
          {suggestions.map((s, i) => (
            <div
              key={s.answer.id}
              id={`quick-answer-${ticket.id}-${s.answer.id}`}
              role="option"
              aria-selected={i === activeSuggestion}
              tabIndex={-1}
              // mousedown, not click: the input keeps its focus.
              onMouseDown={(e) => {
                e.preventDefault()
                chooseQuickAnswer(s.answer)
              }}
              onMouseEnter={() => setActiveSuggestion(i)}
              className={cn(
                'flex cursor-pointer items-center gap-2 rounded-md px-2.5 py-2 text-left text-sm max-sm:min-h-11',
                i === activeSuggestion ? 'bg-surface-2 text-fg' : 'text-fg hover:bg-surface-2',
              )}
            >
              <span className="min-w-0 flex-1 truncate">{s.label}</span>
              {s.answer.mediaName && (
                <Paperclip className="size-3.5 shrink-0 text-muted" aria-label={s.answer.mediaName} />
              )}
            </div>
          ))}
        </div>
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
              aria-controls={suggestionCount > 0 ? `quick-answers-${ticket.id}` : undefined}
              aria-activedescendant={
                suggestionCount > 0
                  ? `quick-answer-${ticket.id}-${suggestions[Math.min(activeSuggestion, suggestionCount - 1)]?.answer.id}`
                  : undefined
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
              <button
                type="button"
                onClick={() => void send()}
                disabled={!canSendNow}
                className={cn(
                  'relative flex size-10 shrink-0 items-center justify-center rounded-full disabled:opacity-50 max-sm:size-11',
                  noteSend
                    ? 'bg-[var(--note-fg)] text-[var(--note)] hover:brightness-110'
                    : 'bg-primary text-on-primary hover:bg-primary-hover',
                )}
                aria-label={sendLabel}
                title={sendLabel}
              >
                {sending ? <Spinner /> : <SendHorizontal className="size-5" aria-hidden />}
                {noteSend && !sending && (
                  <span
                    aria-hidden
                    className="-top-0.5 -right-0.5 absolute flex size-4 items-center justify-center rounded-full bg-[var(--note)] text-[var(--note-fg)] ring-1 ring-[var(--note-border)]"
                  >
                    <Lock className="size-2.5" />
                  </span>
                )}
              </button>
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
