import { useSignals } from '@preact/signals-react/runtime'
import { Lock } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { planAllows } from '../../../shared/plans'
import { EmptyState } from '../../components/ui/EmptyState'
import { currentUser } from '../../state/session'

/** The Kanban pages need the plan flag useKanban (the server refuses their calls without it). */
export function KanbanGate({ children }: { children: ReactNode }) {
  useSignals()
  const { t } = useTranslation()
  if (planAllows(currentUser.value?.company?.plan, 'useKanban')) return <>{children}</>
  return (
    <EmptyState
      className="flex-1 justify-center"
      icon={<Lock />}
      title={t('errors.ERR_PLAN_FEATURE_DISABLED')}
      action={
        <Link to="/tickets" className="font-medium text-link text-sm hover:underline">
          {t('menu.tickets')}
        </Link>
      }
    >
      {t('kanban.planDisabledText')}
    </EmptyState>
  )
}
