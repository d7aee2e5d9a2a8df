/**
 * The gate of the campaign area (/campaigns, /campaign/:campaignId/report, /contact-lists..., /campaigns-config).
 * The spec states two conditions and both are honoured: the menu's (admin profile and the plan's useCampaigns)
 * and the route table's (the local flag 'cshow', see state/campaigns.ts). Without the flag or the plan flag the route
 * does not exist: it leads to /tickets like any unknown path. A non-admin sees the permission explanation of the
 * other admin pages.
 *
 *   <Route path="/contact-lists" element={<CampaignsGate><ContactListsPage /></CampaignsGate>} />
 */
import { useSignals } from '@preact/signals-react/runtime'
import type { ReactNode } from 'react'
import { Navigate } from 'react-router-dom'
import { RequirePermission } from '../../components/RouteGuards'
import { campaignRoutesOn } from '../../state/campaigns'
import { currentUser } from '../../state/session'

export function CampaignsGate({ children }: { children: ReactNode }) {
  useSignals()
  if (!campaignRoutesOn(currentUser.value)) return <Navigate to="/tickets" replace />
  return <RequirePermission permission="drawer-admin-items:view">{children}</RequirePermission>
}
