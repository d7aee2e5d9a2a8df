/**
 * The gate of the campaign area (/campaigns, /campaign/:campaignId/report, /contact-lists..., /campaigns-config).
 * The spec states two conditions and both are honoured: the menu's (admin profile and the plan's useCampaigns)
 * and the route table's (the local flag 'cshow', see ./cshow.ts). Without the flag or the plan flag the route
 * does not exist: it leads to /tickets like any unknown path. A non-admin sees the permission explanation of the
 * other admin pages.
 *
 *   <Route path="/contact-lists" element={<CampaignsGate><ContactListsPage /></CampaignsGate>} />
 */
import { useSignals } from '@preact/signals-react/runtime'
import type { ReactNode } from 'react'
import { Navigate } from 'react-router-dom'
import type { SessionUser } from '../../../shared/api'
import { can } from '../../../shared/permissions'
import { planAllows } from '../../../shared/plans'
import { RequirePermission } from '../../components/RouteGuards'
import { currentUser } from '../../state/session'
import { campaignsShown } from './cshow'

/** The route exists: the local flag is set and the company's plan has campaigns. */
export function campaignRoutesOn(user: SessionUser | null): boolean {
  return !!user && campaignsShown.value && planAllows(user.company?.plan, 'useCampaigns')
}

/** The menu shows the campaign items: admin, plan and the local flag. */
export function campaignsVisible(user: SessionUser | null): boolean {
  return campaignRoutesOn(user) && can(user, 'drawer-admin-items:view')
}

export function CampaignsGate({ children }: { children: ReactNode }) {
  useSignals()
  if (!campaignRoutesOn(currentUser.value)) return <Navigate to="/tickets" replace />
  return <RequirePermission permission="drawer-admin-items:view">{children}</RequirePermission>
}
