import { useEffect, useRef, useState } from 'react'

export type Attachment = { id: number; file: File; url: string | null }

let nextAttachmentId = 1

function toAttachment(file: File): Attachment {
  const previewable = file.type.startsWith('image/') && typeof URL.createObjectURL === 'function'
  return { id: nextAttachmentId++, file, url: previewable ? URL.createObjectURL(file) : null }
}

/**
 * The files waiting to go with the next message, each image with a preview that is released with it (and all of
 * them when the input goes away). Files are taken only while `accepting` (an open ticket, not editing).
 */
export function useAttachments(accepting: boolean) {
  const [attachments, setAttachments] = useState<Attachment[]>([])
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
    if (!accepting || files.length === 0) return
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
  return { attachments, addFiles, removeAttachment, clearAttachments }
}
