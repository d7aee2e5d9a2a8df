import { Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react'
import { Check, ListFilter } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { QueueRef } from '../../../../shared/api'
import { cn } from '../../../lib/cn'

/** The queue multi-select of the tickets manager: a compact button, a checklist with "all" at the top. */
export function QueueFilter({
  queues,
  value,
  onChange,
}: {
  queues: QueueRef[]
  value: number[]
  onChange: (ids: number[]) => void
}) {
  const { t } = useTranslation()
  const all = queues.length > 0 && value.length === queues.length
  const label = all
    ? t('ticketList.queuesAll')
    : value.length === 0
      ? t('ticketList.queuesNone')
      : t('ticketList.queuesSome', { count: value.length, total: queues.length })
  return (
    <Listbox value={value} onChange={onChange} multiple>
      <ListboxButton
        aria-label={`${t('ticketList.queues')}: ${label}`}
        title={`${t('ticketList.queues')}: ${label}`}
        className={cn(
          'relative inline-flex h-9 shrink-0 items-center gap-1.5 rounded-lg border border-border-strong bg-surface px-2.5 text-[13px] text-fg max-sm:h-11',
          'transition-colors duration-150 hover:bg-surface-2 data-open:bg-surface-2',
        )}
      >
        <ListFilter className="size-4 text-muted" aria-hidden />
        <span className="hidden tnum min-[420px]:inline">{all ? t('ticketList.queues') : label}</span>
        {!all && (
          <span
            aria-hidden
            className="-top-1 -right-1 absolute size-2.5 rounded-full bg-warning ring-2 ring-surface"
          />
        )}
      </ListboxButton>
      <ListboxOptions
        anchor="bottom end"
        transition
        className="z-50 max-h-80 w-64 overflow-auto rounded-lg border border-border bg-surface p-1 shadow-pop [--anchor-gap:4px] focus:outline-none transition duration-150 ease-out data-closed:opacity-0"
      >
        <div className="flex items-center justify-between gap-2 px-2.5 pt-1.5 pb-1">
          <span className="font-medium text-[11px] text-subtle uppercase tracking-wide">
            {t('ticketList.queues')}
          </span>
          <button
            type="button"
            className="rounded px-1.5 py-0.5 text-link text-xs hover:bg-surface-2"
            onClick={() => onChange(all ? [] : queues.map((q) => q.id))}
          >
            {all ? t('ticketList.queuesClear') : t('ticketList.queuesSelectAll')}
          </button>
        </div>
        {queues.length === 0 && (
          <div className="px-2.5 py-2 text-muted text-sm">{t('ticketList.noQueuesYet')}</div>
        )}
        {queues.map((q) => (
          <ListboxOption
            key={q.id}
            value={q.id}
            className="group flex cursor-pointer select-none items-center gap-2 rounded-md px-2.5 py-2 text-fg text-sm data-focus:bg-surface-2 max-sm:min-h-11"
          >
            <span
              aria-hidden
              className="flex size-4 shrink-0 items-center justify-center rounded border border-border-strong group-data-selected:border-primary group-data-selected:bg-primary group-data-selected:text-on-primary"
            >
              <Check className="invisible size-3 group-data-selected:visible" strokeWidth={3} />
            </span>
            <span
              aria-hidden
              className="size-2.5 shrink-0 rounded-full ring-1 ring-black/10"
              style={{ background: q.color }}
            />
            <span className="flex-1 truncate">{q.name}</span>
          </ListboxOption>
        ))}
      </ListboxOptions>
    </Listbox>
  )
}
