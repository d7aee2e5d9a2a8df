import { FileText, Paperclip, X } from 'lucide-react'
import { useRef } from 'react'
import { cn } from '../lib/cn'
import { Button } from './ui/Button'

/** An attached file's name in a chip, with an × that removes it (left out when `onRemove` is not given). */
export function AttachmentChip({
  name,
  removeLabel,
  onRemove,
  compact,
}: {
  name: string
  removeLabel: string
  onRemove?: () => void
  /** The shorter chip of a row inside a list. */
  compact?: boolean
}) {
  return (
    <span
      className={cn(
        'inline-flex min-w-0 items-center gap-2 rounded-lg border border-border bg-surface-2 px-2.5 text-sm',
        compact ? 'py-1' : 'py-1.5',
      )}
    >
      <FileText className="size-4 shrink-0 text-muted" aria-hidden />
      <span className="truncate" title={name}>
        {name}
      </span>
      {onRemove && (
        <button
          type="button"
          onClick={onRemove}
          className="flex size-6 shrink-0 items-center justify-center rounded-full text-muted hover:bg-surface-3 hover:text-fg"
          aria-label={removeLabel}
          title={removeLabel}
        >
          <X className="size-3.5" aria-hidden />
        </button>
      )}
    </span>
  )
}

export type AttachmentLabels = { none: string; attach: string; replace: string; remove: string }

/**
 * A form's one attachment: the chosen or stored file's name (or `labels.none`), a button that picks a file
 * (any type; the server checks it) and one that removes it. `readOnly` shows the name only.
 */
export function AttachmentPicker({
  name,
  onPick,
  onRemove,
  labels,
  testId,
  readOnly,
  wrap,
}: {
  name: string | null
  onPick: (file: File) => void
  onRemove: () => void
  labels: AttachmentLabels
  /** The hidden file input's test id. */
  testId: string
  readOnly?: boolean
  /** Let the button wrap under a long name. */
  wrap?: boolean
}) {
  const input = useRef<HTMLInputElement>(null)
  return (
    <div className={cn('flex min-h-10 items-center gap-2', wrap && 'flex-wrap')}>
      {name ? (
        <AttachmentChip name={name} removeLabel={labels.remove} onRemove={readOnly ? undefined : onRemove} />
      ) : (
        <span className="text-muted text-sm">{labels.none}</span>
      )}
      {!readOnly && (
        <Button
          type="button"
          variant="secondary"
          size="sm"
          icon={<Paperclip className="size-4" />}
          onClick={() => input.current?.click()}
        >
          {name ? labels.replace : labels.attach}
        </Button>
      )}
      <input
        ref={input}
        type="file"
        hidden
        data-testid={testId}
        onChange={(e) => {
          const file = e.target.files?.[0]
          if (file) onPick(file)
          e.target.value = ''
        }}
      />
    </div>
  )
}
