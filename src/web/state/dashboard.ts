/** Whether the signed-in user may open the dashboard: the menu and the home route ask the same. */
import type { SessionUser } from '../../shared/api'
import { can } from '../../shared/permissions'

/** Admins (dashboard:view) and users whose showDashboard is 'enabled' see the dashboard (the server checks too). */
export function maySeeDashboard(user: SessionUser | null | undefined): boolean {
  return !!user && (can(user, 'dashboard:view') || user.showDashboard === 'enabled')
}
