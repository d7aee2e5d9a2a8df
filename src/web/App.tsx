import { Navigate, Route, Routes } from 'react-router-dom'
import { AppShell, type ProfileDialogProps } from './components/layout/AppShell'
import { PublicOnly, RequireAuth, RequirePermission } from './components/RouteGuards'
import { Toaster } from './components/ui/Toast'
import { AnnouncementsGate } from './pages/announcements/AnnouncementsGate'
import { AnnouncementsPage } from './pages/announcements/AnnouncementsPage'
import { CampaignSettingsPage } from './pages/campaign-settings/CampaignSettingsPage'
import { CampaignReportPage } from './pages/campaigns/CampaignReportPage'
import { CampaignsGate } from './pages/campaigns/CampaignsGate'
import { CampaignsPage } from './pages/campaigns/CampaignsPage'
import { ChatsPage } from './pages/chats/ChatsPage'
import { ConnectionsPage } from './pages/connections/ConnectionsPage'
import { ContactListItemsPage } from './pages/contact-lists/ContactListItemsPage'
import { ContactListsPage } from './pages/contact-lists/ContactListsPage'
import { ContactsPage } from './pages/contacts/ContactsPage'
import { HomeRoute } from './pages/dashboard/HomeRoute'
import { FilesPage } from './pages/files/FilesPage'
import { FinanceiroPage } from './pages/financeiro/FinanceiroPage'
import { ForgetPasswordPage } from './pages/forgetpsw/ForgetPasswordPage'
import { HelpsPage } from './pages/helps/HelpsPage'
import { KanbanPage } from './pages/kanban/KanbanPage'
import { LanesPage } from './pages/kanban/LanesPage'
import { LoginPage } from './pages/login/LoginPage'
import { MessagesApiPage } from './pages/messages-api/MessagesApiPage'
import { PromptsPage } from './pages/prompts/PromptsPage'
import { QueueIntegrationsPage } from './pages/queue-integration/QueueIntegrationsPage'
import { QueuesPage } from './pages/queues/QueuesPage'
import { QuickMessagesPage } from './pages/quick-messages/QuickMessagesPage'
import { SchedulesPage } from './pages/schedules/SchedulesPage'
import { SettingsPage } from './pages/settings/SettingsPage'
import { SignupPage } from './pages/signup/SignupPage'
import { SubscriptionPage } from './pages/subscription/SubscriptionPage'
import { TagsPage } from './pages/tags/TagsPage'
import { TicketsPage } from './pages/tickets/TicketsPage'
import { TodoListPage } from './pages/todolist/TodoListPage'
import { UserDialog } from './pages/users/UserDialog'
import { UsersPage } from './pages/users/UsersPage'
import { patchCurrentUser } from './state/session'

/** The account menu's profile dialog: the users area's dialog, limited to what a user may change of their own. */
function ProfileDialog({ userId, onClose }: ProfileDialogProps) {
  return (
    <UserDialog
      open
      mode="profile"
      userId={userId}
      onClose={onClose}
      onSaved={(saved) => patchCurrentUser(saved)}
    />
  )
}

/** The routes; main.tsx wraps them in a BrowserRouter, tests in a MemoryRouter. */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<PublicOnly />}>
        <Route path="/login" element={<LoginPage />} />
        {/* The spec's login link reads /Signup: paths match case-insensitively. */}
        <Route path="/signup" element={<SignupPage />} />
        <Route path="/forgetpsw" element={<ForgetPasswordPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route element={<AppShell profileDialog={ProfileDialog} />}>
          {/* The dashboard for admins and users with showDashboard; everyone else goes to the tickets. */}
          <Route index element={<HomeRoute />} />
          <Route path="/tickets/:ticketId?" element={<TicketsPage />} />
          <Route path="/contacts" element={<ContactsPage />} />
          <Route path="/tags" element={<TagsPage />} />
          {/* The spec also writes /TagsKanban: paths match case-insensitively. */}
          <Route path="/tagsKanban" element={<LanesPage />} />
          <Route path="/kanban" element={<KanbanPage />} />
          <Route path="/quick-messages" element={<QuickMessagesPage />} />
          <Route path="/chats/:id?" element={<ChatsPage />} />
          <Route path="/schedules" element={<SchedulesPage />} />
          <Route path="/todolist" element={<TodoListPage />} />
          <Route path="/helps" element={<HelpsPage />} />
          <Route
            path="/connections"
            element={
              <RequirePermission permission="connections-page:actionButtons">
                <ConnectionsPage />
              </RequirePermission>
            }
          />
          <Route
            path="/users"
            element={
              <RequirePermission permission="drawer-admin-items:view">
                <UsersPage />
              </RequirePermission>
            }
          />
          <Route
            path="/queues"
            element={
              <RequirePermission permission="drawer-admin-items:view">
                <QueuesPage />
              </RequirePermission>
            }
          />
          <Route
            path="/settings"
            element={
              <RequirePermission permission="drawer-admin-items:view">
                <SettingsPage />
              </RequirePermission>
            }
          />
          {/* Campaign routes: admin, plan useCampaigns and the local flag 'cshow' (CampaignsGate). */}
          <Route
            path="/campaigns"
            element={
              <CampaignsGate>
                <CampaignsPage />
              </CampaignsGate>
            }
          />
          <Route
            path="/campaign/:campaignId/report"
            element={
              <CampaignsGate>
                <CampaignReportPage />
              </CampaignsGate>
            }
          />
          <Route
            path="/contact-lists"
            element={
              <CampaignsGate>
                <ContactListsPage />
              </CampaignsGate>
            }
          />
          <Route
            path="/contact-lists/:contactListId/contacts"
            element={
              <CampaignsGate>
                <ContactListItemsPage />
              </CampaignsGate>
            }
          />
          <Route
            path="/campaigns-config"
            element={
              <CampaignsGate>
                <CampaignSettingsPage />
              </CampaignsGate>
            }
          />
          <Route
            path="/financeiro"
            element={
              <RequirePermission permission="drawer-admin-items:view">
                <FinanceiroPage />
              </RequirePermission>
            }
          />
          <Route
            path="/subscription"
            element={
              <RequirePermission permission="drawer-admin-items:view">
                <SubscriptionPage />
              </RequirePermission>
            }
          />
          <Route
            path="/prompts"
            element={
              <RequirePermission permission="drawer-admin-items:view">
                <PromptsPage />
              </RequirePermission>
            }
          />
          <Route
            path="/messages-api"
            element={
              <RequirePermission permission="drawer-admin-items:view">
                <MessagesApiPage />
              </RequirePermission>
            }
          />
          <Route
            path="/queue-integration"
            element={
              <RequirePermission permission="drawer-admin-items:view">
                <QueueIntegrationsPage />
              </RequirePermission>
            }
          />
          <Route
            path="/files"
            element={
              <RequirePermission permission="drawer-admin-items:view">
                <FilesPage />
              </RequirePermission>
            }
          />
          <Route
            path="/announcements"
            element={
              <AnnouncementsGate>
                <AnnouncementsPage />
              </AnnouncementsGate>
            }
          />
          <Route path="*" element={<Navigate to="/tickets" replace />} />
        </Route>
      </Route>
    </Routes>
  )
}

export function App() {
  return (
    <>
      <AppRoutes />
      <Toaster />
    </>
  )
}
