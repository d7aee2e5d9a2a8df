import {
  ComboboxButton,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Combobox as HCombobox,
  Listbox,
  ListboxButton,
  ListboxOption,
  ListboxOptions,
} from '@headlessui/react'
import { Check, ChevronDown, X } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn'
import { controlBorder, controlClass, useFieldControl } from './Field'

export type Option<V extends string | number> = { value: V; label: string; hint?: string; color?: string }

const optionsPanel =
  'z-50 max-h-64 w-(--button-width) min-w-44 overflow-auto rounded-lg border border-border bg-surface p-1 shadow-pop ' +
  '[--anchor-gap:4px] focus:outline-none transition duration-150 ease-out data-closed:opacity-0 data-closed:-translate-y-1'

const optionRow =
  'group flex cursor-pointer select-none items-center gap-2 rounded-md px-2.5 py-2 text-sm text-fg max-sm:min-h-11 ' +
  'data-focus:bg-surface-2 data-selected:font-medium'

function Dot({ color }: { color?: string }) {
  if (!color) return null
  return (
    <span className="size-2.5 shrink-0 rounded-full ring-1 ring-black/10" style={{ background: color }} />
  )
}

/** One option of a Select or Combobox: its colour dot, its label and the tick when chosen. */
function OptionContent({ option }: { option: { label: string; color?: string } }) {
  return (
    <>
      <Dot color={option.color} />
      <span className="flex-1 truncate">{option.label}</span>
      <Check className="invisible size-4 text-brand group-data-selected:visible" aria-hidden />
    </>
  )
}

export type SelectProps<V extends string | number> = {
  value: V | null
  onChange: (value: V) => void
  options: Option<V>[]
  placeholder?: string
  disabled?: boolean
  className?: string
  invalid?: boolean
  'aria-label'?: string
  name?: string
}

/** A single-choice select (headlessui Listbox). */
export function Select<V extends string | number>({
  value,
  onChange,
  options,
  placeholder,
  disabled,
  className,
  invalid,
  name,
  ...aria
}: SelectProps<V>) {
  const field = useFieldControl()
  const bad = invalid ?? field?.invalid ?? false
  const selected = options.find((o) => o.value === value)
  return (
    <Listbox
      value={value}
      onChange={(v: V | null) => v != null && onChange(v)}
      disabled={disabled}
      name={name}
    >
      <ListboxButton
        id={field?.id}
        aria-describedby={field?.describedBy}
        aria-invalid={bad || undefined}
        aria-label={aria['aria-label']}
        className={cn(
          controlClass,
          controlBorder(bad),
          'flex h-10 items-center justify-between gap-2 text-left max-sm:h-11',
          className,
        )}
      >
        <span className={cn('flex min-w-0 items-center gap-2 truncate', !selected && 'text-subtle')}>
          <Dot color={selected?.color} />
          <span className="truncate">{selected?.label ?? placeholder ?? ''}</span>
        </span>
        <ChevronDown className="size-4 shrink-0 text-muted" aria-hidden />
      </ListboxButton>
      <ListboxOptions anchor="bottom start" transition className={optionsPanel}>
        {options.map((o) => (
          <ListboxOption key={String(o.value)} value={o.value} className={optionRow}>
            <OptionContent option={o} />
          </ListboxOption>
        ))}
      </ListboxOptions>
    </Listbox>
  )
}

export type MultiSelectProps<V extends string | number> = {
  value: V[]
  onChange: (value: V[]) => void
  options: Option<V>[]
  placeholder?: string
  disabled?: boolean
  className?: string
  'aria-label'?: string
}

/** A multiple-choice select: chips for the chosen values, a checklist in the panel. */
export function MultiSelect<V extends string | number>({
  value,
  onChange,
  options,
  placeholder,
  disabled,
  className,
  ...aria
}: MultiSelectProps<V>) {
  const { t } = useTranslation()
  const field = useFieldControl()
  const chosen = options.filter((o) => value.includes(o.value))
  return (
    <Listbox value={value} onChange={onChange} multiple disabled={disabled}>
      <ListboxButton
        id={field?.id}
        aria-describedby={field?.describedBy}
        aria-label={aria['aria-label']}
        className={cn(
          controlClass,
          controlBorder(false),
          'flex min-h-10 items-center justify-between gap-2 py-1.5 text-left max-sm:min-h-11',
          className,
        )}
      >
        <span className="flex min-w-0 flex-1 flex-wrap gap-1">
          {chosen.length === 0 ? (
            <span className="py-0.5 text-subtle">{placeholder ?? t('common.none')}</span>
          ) : (
            chosen.map((o) => (
              <span
                key={String(o.value)}
                className="inline-flex max-w-full items-center gap-1.5 rounded-md bg-surface-2 px-2 py-0.5 text-[13px]"
              >
                <Dot color={o.color} />
                <span className="truncate">{o.label}</span>
              </span>
            ))
          )}
        </span>
        <ChevronDown className="size-4 shrink-0 text-muted" aria-hidden />
      </ListboxButton>
      <ListboxOptions anchor="bottom start" transition className={optionsPanel}>
        {options.length === 0 && (
          <div className="px-2.5 py-2 text-muted text-sm">{t('common.noOptions')}</div>
        )}
        {options.map((o) => (
          <ListboxOption key={String(o.value)} value={o.value} className={optionRow}>
            <span
              className={cn(
                'flex size-4 shrink-0 items-center justify-center rounded border border-border-strong',
                'group-data-selected:border-primary group-data-selected:bg-primary group-data-selected:text-on-primary',
              )}
              aria-hidden
            >
              <Check className="invisible size-3 group-data-selected:visible" strokeWidth={3} />
            </span>
            <Dot color={o.color} />
            <span className="flex-1 truncate">{o.label}</span>
          </ListboxOption>
        ))}
      </ListboxOptions>
    </Listbox>
  )
}

export type ComboboxProps<V extends string | number> = {
  value: V | null
  onChange: (value: V | null) => void
  options: Option<V>[]
  placeholder?: string
  disabled?: boolean
  className?: string
  renderEmpty?: ReactNode
}

/** A searchable single select. */
export function Combobox<V extends string | number>({
  value,
  onChange,
  options,
  placeholder,
  disabled,
  className,
  renderEmpty,
}: ComboboxProps<V>) {
  const { t } = useTranslation()
  const field = useFieldControl()
  const [query, setQuery] = useState('')
  const q = query.trim().toLowerCase()
  const filtered = q ? options.filter((o) => o.label.toLowerCase().includes(q)) : options
  return (
    <HCombobox
      value={value}
      onChange={(v: V | null) => onChange(v)}
      onClose={() => setQuery('')}
      disabled={disabled}
    >
      <div className={cn('relative', className)}>
        <ComboboxInput
          id={field?.id}
          aria-describedby={field?.describedBy}
          className={cn(controlClass, controlBorder(field?.invalid ?? false), 'h-10 pr-16 max-sm:h-11')}
          displayValue={(v: V | null) => options.find((o) => o.value === v)?.label ?? ''}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={placeholder}
        />
        <div className="absolute inset-y-0 right-1 flex items-center">
          {value != null && !disabled && (
            <button
              type="button"
              onClick={() => onChange(null)}
              className="rounded p-1.5 text-muted hover:text-fg"
              aria-label={t('common.close')}
              title={t('common.close')}
            >
              <X className="size-3.5" />
            </button>
          )}
          <ComboboxButton className="rounded p-1.5 text-muted">
            <ChevronDown className="size-4" aria-hidden />
          </ComboboxButton>
        </div>
      </div>
      <ComboboxOptions anchor="bottom start" transition className={cn(optionsPanel, 'w-(--input-width)')}>
        {filtered.length === 0 && (
          <div className="px-2.5 py-2 text-muted text-sm">{renderEmpty ?? t('common.noOptions')}</div>
        )}
        {filtered.map((o) => (
          <ComboboxOption key={String(o.value)} value={o.value} className={optionRow}>
            <OptionContent option={o} />
          </ComboboxOption>
        ))}
      </ComboboxOptions>
    </HCombobox>
  )
}
