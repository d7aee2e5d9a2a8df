import { useSignals } from '@preact/signals-react/runtime'
import { type ComponentType, useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Outlet } from 'react-router-dom'
import type { SessionUser } from '../../../shared/api'
import { can } from '../../../shared/permissions'
import { getToken, refreshToken } from '../../api/client'
import { liveChannel, onReconnect, onSessionEnd, startLive, stopLive, subscribe } from '../../api/live'
import { decodeJwtPayload } from '../../lib/jwt'
import { useIsPhone } from '../../lib/useMediaQuery'
import { connectionsOf, needsAttention, retainConnections } from '../../state/connections'
import { currentUser, endSession, patchCurrentUser, reasonForClose, setSession } from '../../state/session'
import { setSettings, upsertSetting } from '../../state/settings'
import { watchMenuBadge } from './menuBadges'
import { useUnreadAlerts } from './notifications/useUnreadAlerts'
import { MobileDrawer, SideMenu } from './SideMenu'
import { TopBar } from './TopBar'

/** The profile dialog the account menu opens; the app hands it in, so the layout imports no page. */
export type ProfileDialogProps = { userId: number; onClose: () => void }

/** What the private area shares: the live socket, the session-wide events, the menu and the top bar. */
function useSessionLive(companyId: number | undefined, userId: number | undefined) {
  useEffect(() => {
    if (!companyId || !userId) return
    startLive()
    const offs = [
      // The same account signed in on another browser: this session is over. The login page says why
      // (no toast that vanishes, no reload, and the language and theme stay).
      subscribe(liveChannel(companyId, 'auth'), (data) => {
        if (data?.action !== 'update' || data.user?.id !== userId) return
        const sid = decodeJwtPayload(getToken())?.sid
        if (data.sessionId != null && sid != null && String(sid) === String(data.sessionId)) return
        endSession('elsewhere')
      }),
      // The server closed the socket for good (password changed, user deleted, company closed...).
      onSessionEnd(({ code, reason }) => endSession(reasonForClose(code, reason))),
      subscribe(liveChannel(companyId, 'user'), (data) => {
        if (data?.action === 'update' && data.user?.id === userId) patchCurrentUser(data.user)
      }),
      subscribe(liveChannel(companyId, 'settings'), (data) => {
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
  }, [companyId, userId])
}

/**
 * Admins: the company's connections, loaded once and kept live while signed in, drive the '!' badge of the
 * Conexões item. The badge's delay runs here, above the menus, so the drawer never restarts it.
 */
function useConnectionsBadge(companyId: number | undefined, enabled: boolean) {
  useEffect(() => {
    if (!companyId || !enabled) return
    const release = retainConnections(companyId)
    const list = connectionsOf(companyId)
    const stop = watchMenuBadge('connections', () => needsAttention(list.state.value.items))
    return () => {
      stop()
      release()
    }
  }, [companyId, enabled])
}

export function AppShell({
  profileDialog: ProfileDialog,
}: {
  profileDialog?: ComponentType<ProfileDialogProps>
}) {
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
  useConnectionsBadge(user?.companyId, can(user, 'connections-page:actionButtons'))
  useUnreadAlerts(user?.companyId, user?.id)

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
        {/* The one scroller of the private pages: a page taller than the screen scrolls here (see Page). */}
        <main
          id="main"
          tabIndex={-1}
          data-testid="page-scroller"
          className="flex min-h-0 flex-1 flex-col overflow-y-auto overscroll-contain focus:outline-none"
        >
          <Outlet />
        </main>
      </div>
      {profileOpen && ProfileDialog && (
        <ProfileDialog userId={user.id} onClose={() => setProfileOpen(false)} />
      )}
    </div>
  )
}
