import { Dialog, DialogBackdrop, DialogPanel } from '@headlessui/react'
import { useSignals } from '@preact/signals-react/runtime'
import { X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router-dom'
import { cn } from '../../lib/cn'
import { currentUser } from '../../state/session'
import { Logo } from './Logo'
import { type MenuItemDef, visibleMenuItems } from './menu'
import { MENU_BADGE_LABELS, menuBadgeShown } from './menuBadges'

export const DRAWER_WIDTH = 260

/** scripts/build.ts defines the version; the dev server (`scripts/dev.ts`) does not, so it reads 'dev' there. */
const VERSION = typeof __BALCAO_VERSION__ === 'string' ? __BALCAO_VERSION__ : 'dev'

function NavItems({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  useSignals()
  const { t } = useTranslation()
  const items = visibleMenuItems(currentUser.value)
  const main = items.filter((i) => i.section === 'main')
  const admin = items.filter((i) => i.section === 'admin')
  const link = (item: MenuItemDef) => {
    const label = t(item.labelKey)
    const Icon = item.icon
    const badge = item.badge && menuBadgeShown(item.badge) ? t(MENU_BADGE_LABELS[item.badge]) : null
    return (
      <li key={item.to}>
        <NavLink
          to={item.to}
          onClick={onNavigate}
          title={collapsed ? (badge ? `${label} (${badge})` : label) : (badge ?? undefined)}
          aria-label={collapsed || badge ? (badge ? `${label} (${badge})` : label) : undefined}
          className={({ isActive }) =>
            cn(
              'group relative flex h-10 items-center gap-3 rounded-lg px-3 font-medium text-sm transition-colors duration-150 max-sm:h-11',
              collapsed && 'justify-center px-0',
              isActive ? 'bg-selected text-on-selected' : 'text-muted hover:bg-surface-2 hover:text-fg',
            )
          }
        >
          {({ isActive }) => (
            <>
              {isActive && (
                <span aria-hidden className="absolute top-2 bottom-2 left-0 w-[3px] rounded-r bg-brand" />
              )}
              <Icon className="size-[18px] shrink-0" aria-hidden />
              {!collapsed && <span className="truncate">{label}</span>}
              {badge &&
                (collapsed ? (
                  <span
                    aria-hidden
                    data-testid="menu-badge"
                    className="absolute top-1.5 right-2.5 size-2.5 rounded-full bg-danger-solid ring-2 ring-surface"
                  />
                ) : item.badge === 'chats' ? (
                  // Unread chats: a plain dot (the spec's), not the '!' of something needing attention.
                  <span
                    aria-hidden
                    data-testid="menu-badge"
                    className="mr-1.5 ml-auto size-2.5 shrink-0 rounded-full bg-danger-solid"
                  />
                ) : (
                  <span
                    aria-hidden
                    data-testid="menu-badge"
                    className="ml-auto inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-danger-solid font-bold text-[11px] text-white"
                  >
                    !
                  </span>
                ))}
            </>
          )}
        </NavLink>
      </li>
    )
  }
  return (
    <nav aria-label={t('shell.navigation')} className="flex-1 overflow-y-auto px-3 py-2">
      <ul className="space-y-0.5">{main.map(link)}</ul>
      {admin.length > 0 && (
        <>
          {collapsed ? (
            <div className="mx-2 my-3 h-px bg-border" />
          ) : (
            <div className="mt-5 mb-1.5 px-3 font-medium text-[11px] text-subtle uppercase tracking-wider">
              {t('shell.administration')}
            </div>
          )}
          <ul className="space-y-0.5">{admin.map(link)}</ul>
        </>
      )}
    </nav>
  )
}

function Version({ collapsed }: { collapsed: boolean }) {
  const { t } = useTranslation()
  return (
    <div
      className={cn(
        'border-border border-t px-4 py-3 text-subtle text-xs tnum',
        collapsed && 'px-0 text-center',
      )}
    >
      {collapsed ? `v${VERSION}` : t('shell.version', { version: VERSION })}
    </div>
  )
}

/** The desktop side menu: 260 px open, icons only when collapsed. */
export function SideMenu({ collapsed }: { collapsed: boolean }) {
  return (
    <aside
      className={cn(
        'flex h-full shrink-0 flex-col border-border border-r bg-surface transition-[width] duration-200 ease-out',
        collapsed ? 'w-16' : 'w-[260px]',
      )}
    >
      <div
        className={cn(
          'flex h-(--topbar-height) items-center border-border border-b px-4',
          collapsed && 'justify-center px-0',
        )}
      >
        <Logo collapsed={collapsed} />
      </div>
      <NavItems collapsed={collapsed} />
      <Version collapsed={collapsed} />
    </aside>
  )
}

/** Phones: the same menu as a slide-over drawer. */
export function MobileDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onClose={onClose} className="relative z-50">
      <DialogBackdrop
        transition
        className="fixed inset-0 bg-black/45 transition-opacity duration-200 data-closed:opacity-0"
      />
      <DialogPanel
        transition
        aria-label={t('shell.navigation')}
        className="fixed inset-y-0 left-0 flex w-[260px] max-w-[85vw] flex-col bg-surface shadow-pop transition duration-200 ease-out data-closed:-translate-x-full"
      >
        <div className="flex h-(--topbar-height) items-center justify-between border-border border-b pr-2 pl-4">
          <Logo />
          <button
            type="button"
            onClick={onClose}
            aria-label={t('common.close')}
            title={t('common.close')}
            className="inline-flex size-11 items-center justify-center rounded-lg text-muted hover:bg-surface-2"
          >
            <X className="size-5" />
          </button>
        </div>
        <NavItems collapsed={false} onNavigate={onClose} />
        <Version collapsed={false} />
      </DialogPanel>
    </Dialog>
  )
}
