import { useSignals } from '@preact/signals-react/runtime'
import { ShieldOff } from 'lucide-react'
import { type ReactNode, useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import { EmptyState } from '../../components/ui/EmptyState'
import { currentUser } from '../../state/session'
import { toast } from '../../state/toast'

/** The spec: the redirect follows the message after 1 second. */
export const REDIRECT_DELAY_MS = 1000

/**
 * The announcements page is for super users only (the server refuses everyone else too). Anyone else sees the
 * spec's error 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.' and is
 * taken to / after 1 second.
 */
export function AnnouncementsGate({ children }: { children: ReactNode }) {
  useSignals()
  const { t } = useTranslation()
  const navigate = useNavigate()
  const allowed = !!currentUser.value?.super
  useEffect(() => {
    if (allowed) return
    toast.error(t('announcements.noPermission'))
    const timer = setTimeout(() => navigate('/', { replace: true }), REDIRECT_DELAY_MS)
    return () => clearTimeout(timer)
  }, [allowed, navigate, t])
  if (allowed) return <>{children}</>
  return (
    <EmptyState
      className="flex-1 justify-center"
      icon={<ShieldOff />}
      title={t('announcements.noPermission')}
    />
  )
}
