import { Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react'
import { Check, Plus, Tag } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { TagDto, TagRef, TicketDto } from '../../../../shared/api'
import { api } from '../../../api/client'
import { toastError } from '../../../api/errors'
import { cn } from '../../../lib/cn'
import { defineLiveList, liveEvent, useLiveList } from '../../../state/liveList'

const byName = (a: TagDto, b: TagDto) => a.name.localeCompare(b.name) || a.id - b.id

/** Every tag of the company (GET /api/tags/list), live by `company-{id}-tag`: the conversation's tag picker. */
export const allTagsList = defineLiveList<TagDto>({
  name: 'tags-all',
  id: (t) => t.id,
  fetchPage: async (_params, _page, signal) => {
    const res = await api.get<TagDto[] | { tags: TagDto[] }>('/tags/list', { signal })
    const items = Array.isArray(res) ? res : (res?.tags ?? [])
    return { items: [...items].sort(byName), hasMore: false }
  },
  sort: byName,
  events: [
    liveEvent('tag', (data, list) => {
      if (data.action === 'delete') list.remove(data.tagId)
      else if (data.tag) list.upsert(data.tag)
    }),
  ],
})

/**
 * The ticket's tags: PUT /api/ticket-tags/{ticketId}/{tagId} adds one; DELETE /api/ticket-tags/{ticketId}
 * removes them all, so taking one away removes all and puts the others back.
 */
export async function applyTicketTags(ticketId: number, current: number[], next: number[]): Promise<void> {
  const removed = current.some((id) => !next.includes(id))
  if (removed) {
    await api.delete(`/ticket-tags/${ticketId}`)
    for (const id of next) await api.put(`/ticket-tags/${ticketId}/${id}`)
    return
  }
  for (const id of next) if (!current.includes(id)) await api.put(`/ticket-tags/${ticketId}/${id}`)
}

function Chip({ tag }: { tag: TagRef }) {
  return (
    <span className="inline-flex max-w-40 items-center gap-1.5 rounded-full border border-border bg-surface px-2 py-0.5 text-[12px] text-fg">
      <span className="size-2 shrink-0 rounded-full" style={{ background: tag.color }} aria-hidden />
      <span className="truncate">{tag.name}</span>
    </span>
  )
}

/** The tag row under the conversation's header: the ticket's tags as chips, and a picker to change them. */
export function TagSelector({
  ticket,
  readOnly,
  onChanged,
}: {
  ticket: TicketDto
  readOnly?: boolean
  onChanged: (tags: TagRef[]) => void
}) {
  const { t } = useTranslation()
  const all = useLiveList(allTagsList, undefined, { enabled: !readOnly })
  const [busy, setBusy] = useState(false)
  const chosen = ticket.tags.map((x) => x.id)
  if (readOnly && ticket.tags.length === 0) return null
  if (!readOnly && !all.loading && all.items.length === 0 && ticket.tags.length === 0) return null

  const change = async (next: number[]) => {
    setBusy(true)
    const before = ticket.tags
    const refs = next
      .map((id) => all.items.find((x) => x.id === id) ?? before.find((x) => x.id === id))
      .filter((x): x is TagRef => !!x)
      .map(({ id, name, color }) => ({ id, name, color }))
    onChanged(refs)
    try {
      await applyTicketTags(ticket.id, chosen, next)
    } catch (err) {
      onChanged(before)
      toastError(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <div
      className="flex min-h-9 shrink-0 items-center gap-1.5 overflow-x-auto border-border border-b bg-surface px-3 py-1 [scrollbar-width:none]"
      data-testid="ticket-tags"
    >
      <Tag className="size-3.5 shrink-0 text-subtle" aria-label={t('conversation.tags.label')} />
      {ticket.tags.map((tag) => (
        <Chip key={tag.id} tag={tag} />
      ))}
      {!readOnly && (
        <Listbox value={chosen} onChange={(v: number[]) => void change(v)} multiple disabled={busy}>
          <ListboxButton
            className="inline-flex shrink-0 items-center gap-1 rounded-full px-2 py-0.5 text-[12px] text-muted hover:bg-surface-2 hover:text-fg max-sm:min-h-9"
            aria-label={t('conversation.tags.edit')}
            title={t('conversation.tags.edit')}
          >
            <Plus className="size-3.5" aria-hidden />
            {ticket.tags.length === 0 && t('conversation.tags.add')}
          </ListboxButton>
          <ListboxOptions
            anchor="bottom start"
            transition
            className="z-50 max-h-64 min-w-52 overflow-auto rounded-lg border border-border bg-surface p-1 shadow-pop [--anchor-gap:4px] focus:outline-none data-closed:opacity-0"
          >
            {all.items.map((tag) => (
              <ListboxOption
                key={tag.id}
                value={tag.id}
                className="group flex cursor-pointer select-none items-center gap-2 rounded-md px-2.5 py-2 text-fg text-sm data-focus:bg-surface-2 max-sm:min-h-11"
              >
                <span
                  className={cn(
                    'flex size-4 shrink-0 items-center justify-center rounded border border-border-strong',
                    'group-data-selected:border-primary group-data-selected:bg-primary group-data-selected:text-on-primary',
                  )}
                  aria-hidden
                >
                  <Check className="invisible size-3 group-data-selected:visible" strokeWidth={3} />
                </span>
                <span
                  className="size-2.5 shrink-0 rounded-full"
                  style={{ background: tag.color }}
                  aria-hidden
                />
                <span className="flex-1 truncate">{tag.name}</span>
              </ListboxOption>
            ))}
          </ListboxOptions>
        </Listbox>
      )}
    </div>
  )
}
