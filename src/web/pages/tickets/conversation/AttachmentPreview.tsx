import { FileText, Film, Mic, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { fileSize } from './format'
import type { Attachment } from './useAttachments'

/** The files waiting to be sent: a preview or an icon, the name and size, a button to drop each or all. */
export function AttachmentPreview({
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
