import { useSignals } from '@preact/signals-react/runtime'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet } from 'react-router-dom'
import type { SessionUser, SettingItem, UserDto } from '../../../shared/api'
import { can } from '../../../shared/permissions'
import { getToken, refreshToken } from '../../api/client'
import { onReconnect, startLive, stopLive, subscribe } from '../../api/live'
import { decodeJwtPayload } from '../../lib/jwt'
import { useIsPhone } from '../../lib/useMediaQuery'
import { retainConnectionsFeed } from '../../pages/connections/store'
import { UserDialog } from '../../pages/users/UserDialog'
import { currentUser, patchCurrentUser, setSession } from '../../state/session'
import { setSettings, upsertSetting } from '../../state/settings'
import { toast } from '../../state/toast'
import { MobileDrawer, SideMenu } from './SideMenu'
import { TopBar } from './TopBar'

type AuthEvent = { action: string; user?: { id: number }; sessionId?: string }
type UserEvent = { action: string; user?: UserDto; userId?: number }
type SettingsEvent = { action: string; setting?: SettingItem }

/** What the private area shares: the live socket, the session-wide events, the menu and the top bar. */
function useSessionLive(companyId: number | undefined, userId: number | undefined) {
  const { t } = useTranslation()
  useEffect(() => {
    if (!companyId || !userId) return
    startLive()
    const offs = [
      subscribe<AuthEvent>(`company-${companyId}-auth`, (data) => {
        if (data?.action !== 'update' || data.user?.id !== userId) return
        const sid = decodeJwtPayload(getToken())?.sid
        if (data.sessionId != null && sid != null && String(sid) === String(data.sessionId)) return
        toast.error(t('auth.signedInElsewhere'))
        stopLive()
        localStorage.clear()
        setTimeout(() => window.location.reload(), 1000)
      }),
      subscribe<UserEvent>(`company-${companyId}-user`, (data) => {
        if (data?.action === 'update' && data.user?.id === userId) patchCurrentUser(data.user)
      }),
      subscribe<SettingsEvent>(`company-${companyId}-settings`, (data) => {
        if (data?.action === 'update' && data.setting) upsertSetting(data.setting)
      }),
      // After a drop, the session may have changed (profile, plan, settings): refresh it.
      onReconnect(() => {
        refreshToken<SessionUser>()
          .then(({ user }) => {
            setSession(user)
            setSettings(user.company?.settings ?? [])
          })
          .catch(() => {})
      }),
    ]
    return () => {
      for (const off of offs) off()
      stopLive()
    }
  }, [companyId, userId, t])
}

export function AppShell() {
  useSignals()
  const user = currentUser.value
  const phone = useIsPhone()
  const [collapsed, setCollapsed] = useState(() => user?.defaultMenu === 'closed')
  const [drawerOpen, setDrawerOpen] = useState(false)
  const [profileOpen, setProfileOpen] = useState(false)
  const { t } = useTranslation()

  const userId = user?.id
  // Seed the settings once per signed-in user; live events and the settings page keep them fresh afterwards.
  useEffect(() => {
    if (userId != null) setSettings(currentUser.peek()?.company?.settings ?? [])
  }, [userId])

  useSessionLive(user?.companyId, user?.id)

  // Admins: the connections list, loaded once and kept live, drives the '!' badge on the Conexões item.
  const companyId = user?.companyId
  const watchConnections = can(user, 'connections-page:actionButtons')
  useEffect(() => {
    if (!companyId || !watchConnections) return
    return retainConnectionsFeed(companyId)
  }, [companyId, watchConnections])

  if (!user) return null

  return (
    <div className="flex h-dvh overflow-hidden bg-bg">
      <a
        href="#main"
        className="-translate-y-20 fixed top-2 left-2 z-[200] rounded-lg bg-primary px-3 py-2 text-on-primary focus:translate-y-0"
      >
        {t('shell.skipToContent')}
      </a>
      {!phone && <SideMenu collapsed={collapsed} />}
      {phone && <MobileDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />}
      <div className="flex min-h-0 min-w-0 flex-1 flex-col">
        <TopBar
          phone={phone}
          collapsed={collapsed}
          onToggleMenu={() => (phone ? setDrawerOpen(true) : setCollapsed((c) => !c))}
          onOpenProfile={() => setProfileOpen(true)}
        />
        <main
          id="main"
          tabIndex={-1}
          className="flex min-h-0 flex-1 flex-col overflow-y-auto focus:outline-none"
        >
          <Outlet />
        </main>
      </div>
      {profileOpen && (
        <UserDialog
          open={profileOpen}
          mode="profile"
          userId={user.id}
          onClose={() => setProfileOpen(false)}
          onSaved={(saved) => patchCurrentUser(saved)}
        />
      )}
    </div>
  )
}
