import { useSignals } from '@preact/signals-react/runtime'
import {
  Check,
  Languages,
  LogOut,
  Menu as MenuIcon,
  Moon,
  PanelLeftClose,
  PanelLeftOpen,
  RotateCw,
  Sun,
  UserRound,
  Volume2,
  VolumeX,
  WifiOff,
} from 'lucide-react'
import { Trans, useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router-dom'
import { isAdmin } from '../../../shared/permissions'
import { realDueDate } from '../../../shared/plans'
import { liveReconnecting } from '../../api/live'
import { changeLanguage, currentLanguage, LANGUAGES } from '../../i18n'
import { formatDueDate } from '../../lib/dates'
import { currentUser, logout } from '../../state/session'
import { theme, toggleTheme } from '../../state/theme'
import { setVolume, volume } from '../../state/volume'
import { Avatar } from '../ui/Avatar'
import { Badge } from '../ui/Badge'
import { IconButton } from '../ui/Button'
import { Menu, MenuButton, MenuDivider, MenuEntry, MenuGroup, MenuPanel } from '../ui/Menu'
import { anyMenuBadge, MENU_BADGE_LABELS, menuBadgeShown } from './menuBadges'
import { AnnouncementsPopover } from './notifications/AnnouncementsPopover'
import { ChatsNotificationsPopover } from './notifications/ChatsNotificationsPopover'
import { NotificationsPopover } from './notifications/NotificationsPopover'
import { VolumeControl } from './VolumeControl'

export function TopBar({
  phone,
  collapsed,
  onToggleMenu,
  onOpenProfile,
}: {
  phone: boolean
  collapsed: boolean
  onToggleMenu: () => void
  onOpenProfile: () => void
}) {
  useSignals()
  const { t } = useTranslation()
  const navigate = useNavigate()
  const user = currentUser.value
  if (!user) return null
  const dark = theme.value === 'dark'
  const lang = currentLanguage()
  const due = realDueDate(user.company?.dueDate) // none: never expires, nothing to show
  // Phones: the menu is behind this button, so the button carries the menu's badge (no delay of its own).
  const badge = phone && anyMenuBadge.value
  const badgeLabel = badge
    ? (Object.keys(MENU_BADGE_LABELS) as (keyof typeof MENU_BADGE_LABELS)[])
        .filter(menuBadgeShown)
        .map((key) => t(MENU_BADGE_LABELS[key]))
        .join('; ')
    : ''
  const menuLabel = phone ? t('shell.openMenu') : collapsed ? t('shell.expandMenu') : t('shell.collapseMenu')

  return (
    <header className="sticky top-0 z-30 flex h-(--topbar-height) shrink-0 items-center gap-1 border-border border-b bg-surface/95 px-2 backdrop-blur sm:gap-2 sm:px-4">
      <IconButton
        label={badge ? `${menuLabel} (${badgeLabel})` : menuLabel}
        icon={
          phone ? (
            <span className="relative inline-flex">
              <MenuIcon className="size-5" />
              {badge && (
                <span
                  aria-hidden
                  data-testid="menu-button-badge"
                  className="-top-2 -right-2.5 absolute inline-flex size-4 items-center justify-center rounded-full bg-danger-solid font-bold text-[10px] text-white leading-none ring-2 ring-surface"
                >
                  !
                </span>
              )}
            </span>
          ) : collapsed ? (
            <PanelLeftOpen className="size-[18px]" />
          ) : (
            <PanelLeftClose className="size-[18px]" />
          )
        }
        onClick={onToggleMenu}
      />
      <div className="flex min-w-0 flex-1 items-center gap-3 pl-1">
        {/* A phone's bar holds the notification buttons; the account menu names the user there. */}
        {!phone && (
          <p className="truncate text-fg text-sm [&_b]:font-semibold" data-testid="greeting">
            <Trans
              i18nKey="shell.greeting"
              values={{ name: user.name, company: user.company?.name ?? '' }}
              components={{ b: <b /> }}
            />
          </p>
        )}
        {liveReconnecting.value && (
          <Badge tone="warning" className="shrink-0">
            <WifiOff className="size-3.5" aria-hidden />
            <span className="max-sm:sr-only">{t('shell.reconnecting')}</span>
          </Badge>
        )}
        {isAdmin(user) && due && (
          // max-md:hidden, not `hidden md:inline-flex`: the Badge's own inline-flex would win over a plain hidden.
          <Badge tone="neutral" className="tnum max-md:hidden">
            {t('shell.activeUntil', { date: formatDueDate(due) })}
          </Badge>
        )}
      </div>
      <div className="flex items-center gap-0.5 sm:gap-1">
        <AnnouncementsPopover />
        <NotificationsPopover />
        <ChatsNotificationsPopover />
        {!phone && <VolumeControl />}
        <IconButton
          label={dark ? t('shell.themeLight') : t('shell.themeDark')}
          icon={dark ? <Sun className="size-[18px]" /> : <Moon className="size-[18px]" />}
          onClick={toggleTheme}
          data-testid="theme-toggle"
        />
        {!phone && (
          <IconButton
            label={t('shell.refresh')}
            icon={<RotateCw className="size-[18px]" />}
            onClick={() => window.location.reload()}
          />
        )}
        <Menu>
          <MenuButton
            aria-label={t('shell.account')}
            title={t('shell.account')}
            className="ml-1 inline-flex items-center rounded-full p-0.5 transition-shadow duration-150 hover:ring-2 hover:ring-border max-sm:p-1.5"
          >
            <Avatar name={user.name} size={32} />
          </MenuButton>
          <MenuPanel className="w-64">
            <div className="px-2.5 pt-2 pb-2">
              <div className="truncate font-medium text-fg text-sm">{user.name}</div>
              <div className="truncate text-muted text-xs">{user.email}</div>
              {isAdmin(user) && due && (
                <div className="mt-1 text-muted text-xs tnum md:hidden">
                  {t('shell.activeUntil', { date: formatDueDate(due) })}
                </div>
              )}
            </div>
            <MenuDivider />
            <MenuEntry icon={<UserRound />} onClick={onOpenProfile}>
              {t('shell.profile')}
            </MenuEntry>
            {phone && (
              <MenuEntry icon={<RotateCw />} onClick={() => window.location.reload()}>
                {t('shell.refresh')}
              </MenuEntry>
            )}
            {phone && (
              <MenuEntry
                icon={volume.value === 0 ? <VolumeX /> : <Volume2 />}
                onClick={() => setVolume(volume.value === 0 ? 1 : 0)}
              >
                {volume.value === 0 ? t('shell.unmute') : t('shell.mute')}
              </MenuEntry>
            )}
            <MenuDivider />
            <MenuGroup
              label={
                <span className="inline-flex items-center gap-1.5">
                  <Languages className="size-3.5" aria-hidden /> {t('shell.language')}
                </span>
              }
            >
              {LANGUAGES.map((l) => (
                <MenuEntry
                  key={l}
                  onClick={() => changeLanguage(l)}
                  active={l === lang}
                  trailing={l === lang ? <Check className="size-4 text-link" aria-hidden /> : undefined}
                >
                  <span lang={l}>{t(`languages.${l}`)}</span>
                </MenuEntry>
              ))}
            </MenuGroup>
            <MenuDivider />
            <MenuEntry
              icon={<LogOut />}
              onClick={async () => {
                await logout()
                navigate('/login', { replace: true })
              }}
            >
              {t('shell.logout')}
            </MenuEntry>
          </MenuPanel>
        </Menu>
      </div>
    </header>
  )
}
