import { useSignals } from '@preact/signals-react/runtime'
import { Navigate } from 'react-router-dom'
import { maySeeDashboard } from '../../state/dashboard'
import { currentUser } from '../../state/session'
import { DashboardPage } from './DashboardPage'

/** `/`: the dashboard for admins (dashboard:view) and users with showDashboard; the tickets for everyone else. */
export function HomeRoute() {
  useSignals()
  if (!maySeeDashboard(currentUser.value)) return <Navigate to="/tickets" replace />
  return <DashboardPage />
}
