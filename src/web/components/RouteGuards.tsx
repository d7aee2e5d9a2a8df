import { useSignals } from '@preact/signals-react/runtime'
import { ShieldOff } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Navigate, Outlet, useLocation } from 'react-router-dom'
import { can, type Permission } from '../../shared/permissions'
import { authStatus, currentUser } from '../state/session'
import { LogoMark } from './layout/Logo'
import { EmptyState } from './ui/EmptyState'
import { Spinner } from './ui/Spinner'

/** Shown while the refresh cookie is tried on start-up. */
export function Splash() {
  const { t } = useTranslation()
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-bg text-muted">
      <LogoMark className="size-10" />
      <span className="flex items-center gap-2 text-sm">
        <Spinner /> {t('auth.restoring')}
      </span>
    </div>
  )
}

/** Private routes: anonymous users go to /login. */
export function RequireAuth() {
  useSignals()
  const location = useLocation()
  if (authStatus.value === 'loading') return <Splash />
  if (authStatus.value !== 'authenticated')
    return <Navigate to="/login" replace state={{ from: location.pathname }} />
  return <Outlet />
}

/** Public routes (/login, /signup, /forgetpsw): signed-in users go to / (which leads to /tickets). */
export function PublicOnly() {
  useSignals()
  if (authStatus.value === 'loading') return <Splash />
  if (authStatus.value === 'authenticated') return <Navigate to="/" replace />
  return <Outlet />
}

/** A page that needs a permission (admin pages): others see an explanation instead of an error. */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  useSignals()
  const { t } = useTranslation()
  if (can(currentUser.value, permission)) return <>{children}</>
  return (
    <EmptyState
      className="flex-1 justify-center"
      icon={<ShieldOff />}
      title={t('errors.ERR_NO_PERMISSION')}
      action={
        <Link to="/tickets" className="font-medium text-link text-sm hover:underline">
          {t('menu.tickets')}
        </Link>
      }
    />
  )
}
