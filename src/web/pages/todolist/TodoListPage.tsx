import { Check, ListTodo, Pencil, Plus, Trash2, Undo2, X } from 'lucide-react'
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card, Page } from '../../components/layout/Page'
import { Button, IconButton } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import { Input } from '../../components/ui/Field'
import { toast } from '../../state/toast'
import { ticketTime } from '../tickets/list/time'
import { readTasks, TASK_TEXT_MAX, TASKS_KEY, type Task, writeTasks } from './tasks'

/** How long the undo of a delete stays offered. */
export const UNDO_MS = 8000

type Row = Task & { key: number }
let nextKey = 1
const withKeys = (tasks: Task[]): Row[] => tasks.map((task) => ({ ...task, key: nextKey++ }))
const plain = (rows: Row[]): Task[] =>
  rows.map(({ text, createdAt, updatedAt }) => ({ text, createdAt, updatedAt }))

/** HH:mm today, 'ontem' yesterday, dd/MM/yyyy before (the spec's times). */
function whenText(iso: string, t: (key: string) => string): string {
  const time = ticketTime(iso)
  if (!time) return ''
  return time.kind === 'yesterday' ? t('todo.yesterday') : time.text
}

function TaskRow({
  row,
  editing,
  onEdit,
  onSave,
  onCancel,
  onDelete,
}: {
  row: Row
  editing: boolean
  onEdit: () => void
  onSave: (text: string) => void
  onCancel: () => void
  onDelete: () => void
}) {
  const { t } = useTranslation()
  const [draft, setDraft] = useState(row.text)
  useEffect(() => {
    if (editing) setDraft(row.text)
  }, [editing, row.text])

  if (editing) {
    const keys = (e: KeyboardEvent<HTMLInputElement>) => {
      if (e.key === 'Enter' && !e.nativeEvent.isComposing) {
        e.preventDefault()
        onSave(draft)
      } else if (e.key === 'Escape') {
        e.preventDefault()
        onCancel()
      }
    }
    return (
      <li className="flex flex-col gap-2 bg-surface-2/60 px-4 py-3 sm:flex-row sm:items-center">
        <Input
          aria-label={t('todo.editInput')}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={keys}
          maxLength={TASK_TEXT_MAX}
          autoFocus
          className="sm:flex-1"
        />
        <div className="flex justify-end gap-1">
          <Button size="sm" icon={<Check className="size-4" />} onClick={() => onSave(draft)}>
            {t('todo.save')}
          </Button>
          <Button size="sm" variant="ghost" icon={<X className="size-4" />} onClick={onCancel}>
            {t('todo.cancel')}
          </Button>
        </div>
      </li>
    )
  }
  const edited = row.updatedAt !== row.createdAt
  return (
    <li className="group flex items-start gap-3 px-4 py-3">
      <span aria-hidden className="mt-1.5 size-2 shrink-0 rounded-full bg-primary/70" />
      <div className="min-w-0 flex-1">
        <p className="whitespace-pre-wrap break-words text-fg text-sm">{row.text}</p>
        <p className="mt-0.5 text-subtle text-xs tnum">
          {t('todo.createdAt', { time: whenText(row.createdAt, t) })}
          {edited && ` · ${t('todo.updatedAt', { time: whenText(row.updatedAt, t) })}`}
        </p>
      </div>
      <div className="-my-1 flex shrink-0 gap-0.5">
        <IconButton
          size="sm"
          label={`${t('todo.edit')}: ${row.text.slice(0, 60)}`}
          icon={<Pencil className="size-4" />}
          onClick={onEdit}
        />
        <IconButton
          size="sm"
          variant="danger-ghost"
          label={`${t('todo.delete')}: ${row.text.slice(0, 60)}`}
          icon={<Trash2 className="size-4" />}
          onClick={onDelete}
        />
      </div>
    </li>
  )
}

/**
 * The to-do list (spec 2): personal tasks kept only in this browser (localStorage 'tasks'). Enter adds (blank
 * text is not added); a task is edited in place (Enter saves, Escape cancels); a delete can be undone for a few
 * seconds. Another tab's changes show up here at once.
 */
export function TodoListPage() {
  const { t } = useTranslation()
  const [rows, setRows] = useState<Row[]>(() => withKeys(readTasks()))
  const [text, setText] = useState('')
  const [editing, setEditing] = useState<number | null>(null)
  const [undo, setUndo] = useState<{ row: Row; at: number } | null>(null)
  const input = useRef<HTMLInputElement>(null)

  const commit = useCallback(
    (next: Row[]) => {
      setRows(next)
      if (!writeTasks(plain(next))) toast.error(t('todo.storageFailed'))
    },
    [t],
  )

  // Another tab (or window) changed the list: show what is stored now.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key !== TASKS_KEY && e.key !== null) return
      setRows(withKeys(readTasks()))
      setEditing(null)
    }
    window.addEventListener('storage', onStorage)
    return () => window.removeEventListener('storage', onStorage)
  }, [])

  useEffect(() => {
    if (!undo) return
    const id = setTimeout(() => setUndo(null), UNDO_MS)
    return () => clearTimeout(id)
  }, [undo])

  const add = () => {
    const value = text.trim()
    if (!value) {
      setText('')
      return
    }
    const now = new Date().toISOString()
    commit([...rows, { text: value.slice(0, TASK_TEXT_MAX), createdAt: now, updatedAt: now, key: nextKey++ }])
    setText('')
  }

  const save = (key: number, draft: string) => {
    const value = draft.trim()
    const row = rows.find((r) => r.key === key)
    if (!row) return setEditing(null)
    // A blank text is not kept: the edit stays open until it is given one or cancelled.
    if (!value) return
    setEditing(null)
    if (value === row.text) return
    commit(rows.map((r) => (r.key === key ? { ...r, text: value, updatedAt: new Date().toISOString() } : r)))
  }

  const remove = (key: number) => {
    const at = rows.findIndex((r) => r.key === key)
    if (at === -1) return
    if (editing === key) setEditing(null)
    setUndo({ row: rows[at]!, at })
    commit(rows.filter((r) => r.key !== key))
  }

  const restore = () => {
    if (!undo) return
    const next = rows.slice()
    next.splice(Math.min(undo.at, next.length), 0, undo.row)
    commit(next)
    setUndo(null)
    input.current?.focus()
  }

  return (
    <Page
      title={t('todo.title')}
      subtitle={rows.length ? t('todo.count', { count: rows.length }) : t('todo.subtitle')}
    >
      <Card>
        <form
          className="flex gap-2 border-border border-b p-3"
          onSubmit={(e) => {
            e.preventDefault()
            add()
          }}
        >
          <Input
            ref={input}
            aria-label={t('todo.input')}
            placeholder={t('todo.placeholder')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={TASK_TEXT_MAX}
            autoComplete="off"
            className="flex-1"
          />
          <Button type="submit" icon={<Plus className="size-4" />} disabled={!text.trim()}>
            {t('todo.add')}
          </Button>
        </form>
        {undo && (
          <div
            role="status"
            className="flex items-center justify-between gap-3 border-border border-b bg-surface-2 px-4 py-2 text-sm"
          >
            <span className="min-w-0 truncate text-muted">{t('todo.deleted')}</span>
            <Button size="sm" variant="secondary" icon={<Undo2 className="size-4" />} onClick={restore}>
              {t('todo.undo')}
            </Button>
          </div>
        )}
        {rows.length === 0 ? (
          <EmptyState icon={<ListTodo />} title={t('todo.emptyTitle')}>
            {t('todo.emptyText')}
          </EmptyState>
        ) : (
          <ul className="divide-y divide-border" aria-label={t('todo.title')}>
            {rows.map((row) => (
              <TaskRow
                key={row.key}
                row={row}
                editing={editing === row.key}
                onEdit={() => setEditing(row.key)}
                onSave={(draft) => save(row.key, draft)}
                onCancel={() => setEditing(null)}
                onDelete={() => remove(row.key)}
              />
            ))}
          </ul>
        )}
      </Card>
      {editing != null && (
        <p className="sr-only" aria-live="polite">
          {t('todo.editHint')}
        </p>
      )}
    </Page>
  )
}
