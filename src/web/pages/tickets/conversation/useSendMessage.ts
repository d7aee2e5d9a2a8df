import { type Dispatch, type SetStateAction, useState } from 'react'
import type { MessageDto, TicketDto } from '../../../../shared/api'
import { toastError } from '../../../api/errors'
import { editMessage, sendMediaMessage, sendTextMessage } from '../../../state/messages'
import { keepRecording, normalizeBody, signBody } from './rules'
import type { Attachment } from './useAttachments'
import { type Recording, recordingFileName } from './useRecorder'

export type SendMessageInput = {
  ticket: TicketDto
  text: string
  setText: Dispatch<SetStateAction<string>>
  attachments: Attachment[]
  clearAttachments: () => void
  isPrivate: boolean
  setPrivate: (on: boolean) => void
  /** The name a message to the customer is signed with; null: not signed. */
  signAs: string | null
  replyTo: MessageDto | null
  onCancelReply: () => void
  editing: MessageDto | null
  onCancelEdit: () => void
  onSent: (messages: MessageDto[]) => void
  focusInput: () => void
}

/**
 * Sending what the input holds: an edit, files with a caption, a text (which leaves the input at once and comes
 * back if the server refuses it) or a recording; one at a time, and only while the ticket is open.
 */
export function useSendMessage({
  ticket,
  text,
  setText,
  attachments,
  clearAttachments,
  isPrivate,
  setPrivate,
  signAs,
  replyTo,
  onCancelReply,
  editing,
  onCancelEdit,
  onSent,
  focusInput,
}: SendMessageInput) {
  const open = ticket.status === 'open'
  const [sending, setSending] = useState(false)

  const signed = (body: string) => (signAs && !isPrivate ? signBody(body, signAs) : body)

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
      focusInput()
    }
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
  return { sending, send, sendRecording: onRecorded }
}
