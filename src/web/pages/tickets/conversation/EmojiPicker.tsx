import { Popover, PopoverButton, PopoverPanel } from '@headlessui/react'
import { Smile } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../../lib/cn'
import { EMOJI_CATEGORIES } from './emojis'
import { EMOJIS_PER_LINE } from './rules'

/** Splits a list into lines of `size`. */
export function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** The emojis of one category, 16 per line (the spec's picker). */
export function EmojiGrid({ emojis, onPick }: { emojis: string[]; onPick: (emoji: string) => void }) {
  return (
    <div className="flex flex-col" data-testid="emoji-grid">
      {chunk(emojis, EMOJIS_PER_LINE).map((line) => (
        <div
          data-testid="emoji-line"
          key={line.join('')}
          className="grid"
          style={{ gridTemplateColumns: `repeat(${EMOJIS_PER_LINE}, minmax(0, 1fr))` }}
        >
          {line.map((emoji) => (
            <button
              key={emoji}
              type="button"
              onClick={() => onPick(emoji)}
              className="flex aspect-square items-center justify-center rounded-md text-[19px] leading-none hover:bg-surface-2 focus-visible:bg-surface-2 sm:text-[21px]"
              aria-label={emoji}
            >
              {emoji}
            </button>
          ))}
        </div>
      ))}
    </div>
  )
}

/**
 * The emoji button of the message input: a panel of categories, 16 emojis per line. The chosen emoji goes in at
 * the cursor; the panel stays open for more.
 */
export function EmojiPicker({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const { t } = useTranslation()
  const [category, setCategory] = useState(0)
  const current = EMOJI_CATEGORIES[category] ?? EMOJI_CATEGORIES[0]
  return (
    <Popover className="relative">
      <PopoverButton
        disabled={disabled}
        aria-label={t('conversation.input.emoji')}
        title={t('conversation.input.emoji')}
        className="flex size-10 items-center justify-center rounded-full text-muted hover:bg-surface-3 hover:text-fg disabled:opacity-50 data-open:text-fg max-sm:size-11"
      >
        <Smile className="size-[22px]" aria-hidden />
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: 'top start', gap: 8 }}
        transition
        className="z-50 w-[min(calc(100vw-16px),560px)] rounded-xl border border-border bg-surface p-2 shadow-pop transition duration-150 ease-out data-closed:translate-y-1 data-closed:opacity-0"
      >
        <div className="mb-1.5 flex gap-0.5 border-border border-b pb-1.5">
          {EMOJI_CATEGORIES.map((c, i) => (
            <button
              key={c.key}
              type="button"
              aria-pressed={i === category}
              aria-label={t(`conversation.emoji.${c.key}`)}
              title={t(`conversation.emoji.${c.key}`)}
              onClick={() => setCategory(i)}
              className={cn(
                'flex size-9 items-center justify-center rounded-md text-lg',
                i === category ? 'bg-selected' : 'hover:bg-surface-2',
              )}
            >
              {c.icon}
            </button>
          ))}
        </div>
        <div className="max-h-64 overflow-y-auto">
          {current && <EmojiGrid emojis={current.emojis} onPick={onPick} />}
        </div>
      </PopoverPanel>
    </Popover>
  )
}
