import { cn } from '../../../lib/cn'

/** The message input's round buttons (44 px on a phone). */
export const iconBase =
  'flex size-10 shrink-0 items-center justify-center rounded-full disabled:opacity-50 max-sm:size-11'
/** A quiet round button: emoji, attach, note, record. */
export const iconBtn = cn(
  iconBase,
  'text-muted hover:bg-surface-3 hover:text-fg disabled:hover:bg-transparent',
)
