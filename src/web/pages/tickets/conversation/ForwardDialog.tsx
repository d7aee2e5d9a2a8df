import { Check } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ContactDto } from '../../../../shared/api'
import { toastError } from '../../../api/errors'
import { Dialog } from '../../../components/ui/Dialog'
import { SearchInput } from '../../../components/ui/Field'
import { FormActions } from '../../../components/ui/FormActions'
import { cn } from '../../../lib/cn'
import { useDebounced } from '../../../lib/useDebounced'
import { forwardMessages } from '../../../state/messages'
import { toast } from '../../../state/toast'
import { ContactAvatar } from '../../contacts/ContactAvatar'
import { searchContacts } from '../../contacts/state'

/** Spec: the contact search starts at 3 typed characters. */
export const CONTACT_SEARCH_MIN = 3

/** The forward dialog: find a contact (3 characters or more), then send the chosen messages, one by one. */
export function ForwardDialog({
  open,
  messageIds,
  onClose,
  onDone,
  interval,
}: {
  open: boolean
  messageIds: number[]
  onClose: () => void
  onDone: () => void
  /** Milliseconds between two forwards (tests shorten it). */
  interval?: number
}) {
  const { t } = useTranslation()
  const [search, setSearch] = useState('')
  const term = useDebounced(search.trim(), 500)
  const [found, setFound] = useState<ContactDto[]>([])
  const [searching, setSearching] = useState(false)
  const [chosen, setChosen] = useState<ContactDto | null>(null)
  const [done, setDone] = useState<number | null>(null)

  useEffect(() => {
    if (!open || term.length < CONTACT_SEARCH_MIN) {
      setFound([])
      return
    }
    const ctrl = new AbortController()
    setSearching(true)
    searchContacts(term, ctrl.signal)
      .then((list) => setFound(list.slice(0, 30)))
      .catch((err) => {
        if ((err as Error)?.name !== 'AbortError') toastError(err)
      })
      .finally(() => {
        if (!ctrl.signal.aborted) setSearching(false)
      })
    return () => ctrl.abort()
  }, [open, term])

  const submit = async () => {
    if (!chosen || done != null) return
    if (messageIds.length === 0) {
      toast.warning(t('conversation.forward.none'))
      return
    }
    setDone(0)
    try {
      await forwardMessages(messageIds, chosen.id, setDone, interval)
      toast.success(t('conversation.forward.sent', { count: messageIds.length, name: chosen.name }))
      onDone()
      onClose()
    } catch (err) {
      toastError(err)
    } finally {
      setDone(null)
    }
  }

  const sending = done != null
  return (
    <Dialog
      open={open}
      onClose={() => !sending && onClose()}
      size="sm"
      title={t('conversation.forward.title')}
      description={t('conversation.forward.description', { count: messageIds.length })}
      onSubmit={() => void submit()}
      footer={
        <FormActions
          onCancel={onClose}
          saving={sending}
          disabled={!chosen}
          saveLabel={
            sending
              ? t('conversation.forward.progress', { done, total: messageIds.length })
              : t('conversation.forward.submit')
          }
        />
      }
    >
      <div className="flex flex-col gap-3">
        <SearchInput
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder={t('conversation.forward.searchPlaceholder')}
          aria-label={t('conversation.forward.search')}
          autoFocus
          autoComplete="off"
          busy={searching}
        />
        {term.length < CONTACT_SEARCH_MIN ? (
          <p className="text-muted text-sm">
            {t('conversation.forward.typeMore', { count: CONTACT_SEARCH_MIN })}
          </p>
        ) : !searching && found.length === 0 ? (
          <p className="text-muted text-sm">{t('conversation.forward.noContacts')}</p>
        ) : (
          <ul
            className="-mx-1 flex max-h-72 flex-col overflow-y-auto"
            aria-label={t('conversation.forward.search')}
          >
            {found.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  onClick={() => setChosen(c)}
                  aria-pressed={chosen?.id === c.id}
                  className={cn(
                    'flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left max-sm:min-h-11',
                    chosen?.id === c.id ? 'bg-selected' : 'hover:bg-surface-2',
                  )}
                >
                  <ContactAvatar name={c.name} url={c.profilePicUrl} isGroup={c.isGroup} size={36} />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-medium text-fg text-sm">{c.name}</span>
                    <span className="block truncate text-muted text-xs tnum">{c.number}</span>
                  </span>
                  {chosen?.id === c.id && <Check className="size-4 text-link" aria-hidden />}
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  )
}
