import { useSignals } from '@preact/signals-react/runtime'
import { Inbox, Users, Workflow } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { can } from '../../../shared/permissions'
import { currentUser } from '../../state/session'

/** The inbox arrives in a later issue; until then an honest empty state. */
export function TicketsPage() {
  useSignals()
  const { t } = useTranslation()
  const admin = can(currentUser.value, 'drawer-admin-items:view')
  return (
    <div className="flex flex-1 items-center justify-center p-6">
      <div className="flex max-w-lg flex-col items-center text-center">
        <div className="relative mb-6">
          <div className="flex size-16 items-center justify-center rounded-2xl border border-border bg-surface text-link shadow-sm">
            <Inbox className="size-8" aria-hidden />
          </div>
          <span
            className="-right-1 -top-1 absolute size-4 rounded-full border-2 border-bg bg-brand"
            aria-hidden
          />
        </div>
        <h1 className="font-semibold text-[22px] text-fg tracking-tight">{t('tickets.comingTitle')}</h1>
        <p className="mt-2 text-muted text-sm leading-relaxed">{t('tickets.comingText')}</p>
        <p className="mt-4 text-muted text-sm">
          {admin ? t('tickets.comingHintAdmin') : t('tickets.comingHintUser')}
        </p>
        {admin && (
          <div className="mt-6 flex flex-wrap justify-center gap-2">
            <Link
              to="/queues"
              className="inline-flex h-9 items-center gap-2 rounded-lg bg-primary px-4 font-medium text-on-primary text-sm hover:bg-primary-hover max-sm:h-11"
            >
              <Workflow className="size-4" aria-hidden />
              {t('tickets.goQueues')}
            </Link>
            <Link
              to="/users"
              className="inline-flex h-9 items-center gap-2 rounded-lg border border-border-strong bg-surface px-4 font-medium text-fg text-sm hover:bg-surface-2 max-sm:h-11"
            >
              <Users className="size-4" aria-hidden />
              {t('tickets.goUsers')}
            </Link>
          </div>
        )}
      </div>
    </div>
  )
}
