import { Search, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ContactDto } from '../../../shared/api'
import { Input } from '../../components/ui/Field'
import { Spinner } from '../../components/ui/Spinner'
import { searchContacts } from '../contacts/state'
import type { ContactRef } from './scheduleForm'

const SEARCH_MIN = 3

/** The schedule's contact: the chosen one, or a search (from 3 characters) to choose it. */
export function ContactField({
  value,
  onChange,
  invalid,
  disabled,
}: {
  value: ContactRef | null
  onChange: (c: ContactRef | null) => void
  invalid: boolean
  disabled: boolean
}) {
  const { t } = useTranslation()
  const [text, setText] = useState('')
  const [hits, setHits] = useState<ContactDto[]>([])
  const [loading, setLoading] = useState(false)
  const term = text.trim()
  useEffect(() => {
    if (term.length < SEARCH_MIN) {
      setHits([])
      return
    }
    const ctrl = new AbortController()
    setLoading(true)
    const timer = setTimeout(() => {
      searchContacts(term, ctrl.signal)
        .then((list) => setHits(list.slice(0, 8)))
        .catch(() => setHits([]))
        .finally(() => !ctrl.signal.aborted && setLoading(false))
    }, 250)
    return () => {
      clearTimeout(timer)
      ctrl.abort()
    }
  }, [term])
  if (value)
    return (
      <div className="flex h-10 items-center justify-between gap-2 rounded-lg border border-border bg-surface px-3">
        <span className="truncate font-medium text-fg text-sm">{value.name}</span>
        {!disabled && (
          <button
            type="button"
            className="rounded p-1 text-muted hover:text-fg"
            aria-label={t('schedules.changeContact')}
            title={t('schedules.changeContact')}
            onClick={() => onChange(null)}
          >
            <X className="size-4" />
          </button>
        )}
      </div>
    )
  return (
    <div className="space-y-1">
      <div className="relative">
        <Search
          className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-subtle"
          aria-hidden
        />
        <Input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('schedules.contactPlaceholder')}
          aria-label={t('schedules.contact')}
          invalid={invalid}
          className="pl-9"
          autoComplete="off"
        />
        {loading && (
          <span className="-translate-y-1/2 absolute top-1/2 right-3 text-muted">
            <Spinner />
          </span>
        )}
      </div>
      {term.length > 0 && term.length < SEARCH_MIN && (
        <p className="text-muted text-xs">{t('schedules.typeMore', { count: SEARCH_MIN })}</p>
      )}
      {hits.length > 0 && (
        <ul className="max-h-48 overflow-auto rounded-lg border border-border bg-surface p-1">
          {hits.map((c) => (
            <li key={c.id}>
              <button
                type="button"
                className="w-full rounded-md px-2.5 py-2 text-left text-fg text-sm hover:bg-surface-2"
                onClick={() => {
                  onChange({ id: c.id, name: c.name })
                  setText('')
                }}
              >
                {c.name}
                {c.number && <span className="ml-2 text-muted text-xs tnum">{c.number}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
