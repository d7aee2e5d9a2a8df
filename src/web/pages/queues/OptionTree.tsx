/**
 * The chatbot menu of a queue, edited inside the queue dialog: a tree of options (title, message, position,
 * one optional file) with add, edit, reorder and delete at any depth. Every change is saved at once through
 * /queue-options (the queue's own Save is for the queue's fields); the tree is reloaded after each change.
 */
import {
  ArrowDown,
  ArrowUp,
  CornerDownRight,
  ListTree,
  Paperclip,
  Pencil,
  Plus,
  Trash2,
  X,
} from 'lucide-react'
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { QueueOptionDto } from '../../../shared/api'
import { api } from '../../api/client'
import { errorMessage, toastError } from '../../api/errors'
import { Button, IconButton } from '../../components/ui/Button'
import { ConfirmDialog } from '../../components/ui/ConfirmDialog'
import { EmptyState, LoadError } from '../../components/ui/EmptyState'
import { Field, Input, Textarea } from '../../components/ui/Field'
import { Skeleton } from '../../components/ui/Skeleton'
import { Spinner } from '../../components/ui/Spinner'
import { cn } from '../../lib/cn'
import { toast } from '../../state/toast'

type Editing = { kind: 'edit'; id: number } | { kind: 'new'; parentId: number } | null

/** How many options sit below `node` (its whole subtree, itself excluded). */
export function descendants(node: QueueOptionDto): number {
  return node.children.reduce((n, c) => n + 1 + descendants(c), 0)
}

/** `ids` with the one at `index` moved by `delta` (-1 up, +1 down). */
export function moved(ids: number[], index: number, delta: -1 | 1): number[] {
  const to = index + delta
  if (to < 0 || to >= ids.length) return ids
  const next = [...ids]
  ;[next[index], next[to]] = [next[to]!, next[index]!]
  return next
}

/** The media types the server accepts (its allow-list decides; this only narrows the file picker). */
const ACCEPT =
  'image/*,audio/*,video/*,application/pdf,text/plain,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.odt,.ods,.csv,.zip'

function OptionForm({
  initial,
  onSave,
  onCancel,
}: {
  initial: { title: string; message: string }
  onSave: (v: { title: string; message: string }) => Promise<void>
  onCancel: () => void
}) {
  const { t } = useTranslation()
  const [title, setTitle] = useState(initial.title)
  const [message, setMessage] = useState(initial.message)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const submit = async () => {
    if (!title.trim()) {
      setError(t('validation.required'))
      return
    }
    setSaving(true)
    try {
      await onSave({ title: title.trim(), message })
    } catch (err) {
      setError(errorMessage(err))
    } finally {
      setSaving(false)
    }
  }
  // The tree lives inside the queue's <form>: Enter saves the option, not the queue; Escape cancels the edit.
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      onCancel()
    }
  }
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape cancels the inline edit
    <div className="space-y-3 rounded-lg border border-border-strong bg-surface p-3" onKeyDown={onKeyDown}>
      <Field label={t('chatbot.options.title')} error={error ?? undefined} required>
        <Input
          value={title}
          onChange={(e) => {
            setTitle(e.target.value)
            setError(null)
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              void submit()
            }
          }}
          placeholder={t('chatbot.options.titlePlaceholder')}
          maxLength={100}
          autoFocus
          autoComplete="off"
        />
      </Field>
      <Field label={t('chatbot.options.message')} hint={t('chatbot.options.messageHint')}>
        <Textarea value={message} onChange={(e) => setMessage(e.target.value)} rows={3} maxLength={4000} />
      </Field>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={onCancel} disabled={saving}>
          {t('chatbot.options.cancel')}
        </Button>
        <Button type="button" size="sm" onClick={() => void submit()} disabled={saving}>
          {saving && <Spinner className="size-3.5" />}
          {t('chatbot.options.save')}
        </Button>
      </div>
    </div>
  )
}

function MediaControls({ node, onChanged }: { node: QueueOptionDto; onChanged: () => Promise<void> }) {
  const { t } = useTranslation()
  const input = useRef<HTMLInputElement>(null)
  const [busy, setBusy] = useState(false)
  const upload = async (file: File) => {
    setBusy(true)
    try {
      const form = new FormData()
      form.append('file', file)
      await api.post(`/queue-options/${node.id}/media-upload`, form)
      toast.success(t('chatbot.options.mediaSaved'))
      await onChanged()
    } catch (err) {
      toastError(err)
    } finally {
      setBusy(false)
      if (input.current) input.current.value = ''
    }
  }
  const remove = async () => {
    setBusy(true)
    try {
      await api.delete(`/queue-options/${node.id}/media-upload`)
      toast.success(t('chatbot.options.mediaRemoved'))
      await onChanged()
    } catch (err) {
      toastError(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        data-testid={`option-file-${node.id}`}
        onChange={(e) => {
          const file = e.target.files?.[0]
          if (file) void upload(file)
        }}
      />
      <Button
        type="button"
        variant="secondary"
        size="sm"
        disabled={busy}
        onClick={() => input.current?.click()}
      >
        {busy ? <Spinner className="size-3.5" /> : <Paperclip className="size-4" aria-hidden />}
        {node.mediaName ? t('chatbot.options.replace') : t('chatbot.options.attach')}
      </Button>
      {node.mediaName && (
        <Button type="button" variant="ghost" size="sm" disabled={busy} onClick={() => void remove()}>
          <X className="size-4" aria-hidden />
          {t('chatbot.options.removeMedia')}
        </Button>
      )}
    </div>
  )
}

type TreeApi = {
  editing: Editing
  setEditing: (e: Editing) => void
  create: (parentId: number, v: { title: string; message: string }) => Promise<void>
  update: (id: number, v: { title: string; message: string }) => Promise<void>
  move: (parentId: number, siblings: QueueOptionDto[], index: number, delta: -1 | 1) => Promise<void>
  askDelete: (node: QueueOptionDto) => void
  reload: () => Promise<void>
}

function OptionNode({
  node,
  siblings,
  index,
  tree,
  depth,
}: {
  node: QueueOptionDto
  siblings: QueueOptionDto[]
  index: number
  tree: TreeApi
  depth: number
}) {
  const { t } = useTranslation()
  const editing = tree.editing?.kind === 'edit' && tree.editing.id === node.id
  const count = node.children.length
  return (
    <li data-option-id={node.id} data-testid={`option-${node.id}`} className="space-y-2">
      {editing ? (
        <div className="space-y-2">
          <OptionForm
            initial={{ title: node.title, message: node.message }}
            onSave={(v) => tree.update(node.id, v)}
            onCancel={() => tree.setEditing(null)}
          />
          <MediaControls node={node} onChanged={tree.reload} />
        </div>
      ) : (
        <div className="flex flex-wrap items-start gap-x-2 gap-y-1 rounded-lg border border-border bg-surface px-3 py-2 transition-colors duration-150 hover:border-border-strong">
          <span
            className="mt-1 inline-flex size-6 shrink-0 items-center justify-center rounded-md bg-selected font-semibold text-on-selected text-xs tnum"
            aria-hidden
          >
            {node.option}
          </span>
          <div className="min-w-0 flex-1 basis-40 py-0.5">
            <div className="flex min-w-0 items-center gap-2">
              <span className="sr-only">{node.option}.</span>
              <span className="truncate font-medium text-fg text-sm">{node.title}</span>
              {count > 0 && (
                <span className="shrink-0 text-muted text-xs">
                  {t('chatbot.options.children', { count })}
                </span>
              )}
            </div>
            {node.message && (
              <p className="line-clamp-2 whitespace-pre-line text-muted text-xs">{node.message}</p>
            )}
            {node.mediaName && (
              <a
                href={node.mediaUrl ?? undefined}
                target="_blank"
                rel="noreferrer"
                className="mt-0.5 inline-flex max-w-full items-center gap-1 text-link text-xs hover:underline"
              >
                <Paperclip className="size-3 shrink-0" aria-hidden />
                <span className="truncate">{t('chatbot.options.media', { name: node.mediaName })}</span>
              </a>
            )}
          </div>
          <div className="-mr-1 ml-auto flex shrink-0 items-center">
            <IconButton
              size="sm"
              label={t('chatbot.options.moveUp')}
              icon={<ArrowUp className="size-4" />}
              data-action="up"
              disabled={index === 0}
              onClick={() => void tree.move(node.parentId, siblings, index, -1)}
            />
            <IconButton
              size="sm"
              label={t('chatbot.options.moveDown')}
              icon={<ArrowDown className="size-4" />}
              data-action="down"
              disabled={index === siblings.length - 1}
              onClick={() => void tree.move(node.parentId, siblings, index, 1)}
            />
            <IconButton
              size="sm"
              label={t('chatbot.options.edit')}
              icon={<Pencil className="size-4" />}
              onClick={() => tree.setEditing({ kind: 'edit', id: node.id })}
            />
            <IconButton
              size="sm"
              label={t('chatbot.options.addChild')}
              icon={<CornerDownRight className="size-4" />}
              onClick={() => tree.setEditing({ kind: 'new', parentId: node.id })}
            />
            <IconButton
              size="sm"
              variant="danger-ghost"
              label={t('chatbot.options.delete')}
              icon={<Trash2 className="size-4" />}
              onClick={() => tree.askDelete(node)}
            />
          </div>
        </div>
      )}
      {(count > 0 || (tree.editing?.kind === 'new' && tree.editing.parentId === node.id)) && (
        <Level
          parentId={node.id}
          parentTitle={node.title}
          options={node.children}
          tree={tree}
          depth={depth + 1}
        />
      )}
    </li>
  )
}

function Level({
  parentId,
  parentTitle,
  options,
  tree,
  depth,
}: {
  parentId: number
  parentTitle?: string
  options: QueueOptionDto[]
  tree: TreeApi
  depth: number
}) {
  const { t } = useTranslation()
  const adding = tree.editing?.kind === 'new' && tree.editing.parentId === parentId
  return (
    <div className={cn(depth > 0 && 'ml-3 border-border border-l-2 pl-3 sm:ml-4 sm:pl-4')}>
      <ul
        className="space-y-2"
        aria-label={
          parentTitle ? t('chatbot.options.level', { title: parentTitle }) : t('chatbot.options.tab')
        }
      >
        {options.map((o, i) => (
          <OptionNode key={o.id} node={o} siblings={options} index={i} tree={tree} depth={depth} />
        ))}
      </ul>
      {adding ? (
        <div className={cn(options.length > 0 && 'mt-2')}>
          <OptionForm
            initial={{ title: '', message: '' }}
            onSave={(v) => tree.create(parentId, v)}
            onCancel={() => tree.setEditing(null)}
          />
        </div>
      ) : (
        depth === 0 &&
        options.length > 0 && (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="mt-2"
            onClick={() => tree.setEditing({ kind: 'new', parentId })}
          >
            <Plus className="size-4" aria-hidden />
            {t('chatbot.options.add')}
          </Button>
        )
      )}
      {!adding && depth > 0 && (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="mt-2"
          onClick={() => tree.setEditing({ kind: 'new', parentId })}
        >
          <Plus className="size-4" aria-hidden />
          {t('chatbot.options.addChild')}
        </Button>
      )}
    </div>
  )
}

/** The option tree editor of one (saved) queue. */
export function OptionTree({ queueId }: { queueId: number }) {
  const { t } = useTranslation()
  const introId = useId()
  const [options, setOptions] = useState<QueueOptionDto[] | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [editing, setEditing] = useState<Editing>(null)
  const [deleting, setDeleting] = useState<QueueOptionDto | null>(null)

  const reload = useCallback(async () => {
    try {
      setOptions(await api.get<QueueOptionDto[]>('/queue-options', { query: { queueId, parentId: -1 } }))
      setError(null)
    } catch (err) {
      setError(errorMessage(err))
    }
  }, [queueId])

  useEffect(() => {
    setOptions(null)
    void reload()
  }, [reload])

  const tree: TreeApi = {
    editing,
    setEditing,
    reload,
    create: async (parentId, v) => {
      await api.post('/queue-options', { queueId, parentId, title: v.title, message: v.message })
      toast.success(t('chatbot.options.saved'))
      setEditing(null)
      await reload()
    },
    update: async (id, v) => {
      await api.put(`/queue-options/${id}`, { title: v.title, message: v.message })
      toast.success(t('chatbot.options.saved'))
      setEditing(null)
      await reload()
    },
    move: async (parentId, siblings, index, delta) => {
      const ids = moved(
        siblings.map((s) => s.id),
        index,
        delta,
      )
      const id = siblings[index]!.id
      try {
        await api.post('/queue-options/reorder', { queueId, parentId, ids })
        await reload()
        // Keep the keyboard where it was: on the moved option's button (or its twin at the end of the list).
        requestAnimationFrame(() => {
          const row = document.querySelector(`[data-option-id="${id}"]`)
          const same = row?.querySelector<HTMLButtonElement>(`[data-action="${delta < 0 ? 'up' : 'down'}"]`)
          const other = row?.querySelector<HTMLButtonElement>(`[data-action="${delta < 0 ? 'down' : 'up'}"]`)
          ;(same && !same.disabled ? same : other)?.focus()
        })
      } catch (err) {
        toastError(err)
      }
    },
    askDelete: setDeleting,
  }

  const remove = async () => {
    if (!deleting) return
    try {
      await api.delete(`/queue-options/${deleting.id}`)
      toast.success(t('chatbot.options.deleted'))
      if (editing?.kind === 'edit') setEditing(null)
      await reload()
    } catch (err) {
      toastError(err)
      throw err
    }
  }

  return (
    <section className="space-y-4 pt-4" aria-describedby={introId}>
      <p id={introId} className="text-muted text-sm">
        {t('chatbot.options.intro')}
      </p>
      {error && !options ? (
        <LoadError error={error} onRetry={() => void reload()} />
      ) : !options ? (
        <div className="space-y-2" aria-busy>
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      ) : options.length === 0 && editing?.kind !== 'new' ? (
        <EmptyState
          icon={<ListTree />}
          title={t('chatbot.options.emptyTitle')}
          className="py-8"
          action={
            <Button type="button" onClick={() => setEditing({ kind: 'new', parentId: -1 })}>
              <Plus className="size-4" aria-hidden />
              {t('chatbot.options.add')}
            </Button>
          }
        >
          {t('chatbot.options.emptyText')}
        </EmptyState>
      ) : (
        <Level parentId={-1} options={options} tree={tree} depth={0} />
      )}
      <ConfirmDialog
        open={!!deleting}
        onClose={() => setDeleting(null)}
        onConfirm={remove}
        title={t('confirm.deleteTitle')}
        message={
          deleting && descendants(deleting) > 0
            ? t('chatbot.options.deleteSubtree', { count: descendants(deleting), title: deleting.title })
            : t('confirm.deleteText')
        }
      />
    </section>
  )
}
