import {
  Menu as HMenu,
  MenuButton,
  MenuHeading,
  MenuItem,
  MenuItems,
  MenuSection,
  MenuSeparator,
} from '@headlessui/react'
import type { ReactNode } from 'react'
import { cn } from '../../lib/cn'

export { MenuButton }

export function Menu({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <HMenu as="div" className={cn('relative', className)}>
      {children}
    </HMenu>
  )
}

export function MenuPanel({
  children,
  anchor = 'bottom end',
  className,
}: {
  children: ReactNode
  anchor?: 'bottom end' | 'bottom start' | 'top start' | 'top end' | 'right end'
  className?: string
}) {
  return (
    <MenuItems
      anchor={anchor}
      transition
      className={cn(
        'z-50 min-w-52 rounded-lg border border-border bg-surface p-1 text-fg shadow-pop [--anchor-gap:6px] focus:outline-none',
        'origin-top-right transition duration-150 ease-out data-closed:scale-95 data-closed:opacity-0',
        className,
      )}
    >
      {children}
    </MenuItems>
  )
}

export function MenuEntry({
  children,
  icon,
  onClick,
  danger,
  active,
  trailing,
}: {
  children: ReactNode
  icon?: ReactNode
  onClick: () => void
  danger?: boolean
  /** Marks the current choice (a language, for example). */
  active?: boolean
  trailing?: ReactNode
}) {
  return (
    <MenuItem>
      <button
        type="button"
        onClick={onClick}
        aria-current={active || undefined}
        className={cn(
          'flex w-full items-center gap-2.5 rounded-md px-2.5 py-2 text-left text-sm max-sm:min-h-11',
          'data-focus:bg-surface-2',
          danger ? 'text-danger' : 'text-fg',
          active && 'font-medium',
        )}
      >
        {icon && <span className="text-muted [&>svg]:size-4">{icon}</span>}
        <span className="flex-1">{children}</span>
        {trailing}
      </button>
    </MenuItem>
  )
}

export function MenuGroup({ label, children }: { label?: ReactNode; children: ReactNode }) {
  return (
    <MenuSection>
      {label && (
        <MenuHeading className="px-2.5 pt-2 pb-1 font-medium text-[11px] text-subtle uppercase tracking-wide">
          {label}
        </MenuHeading>
      )}
      {children}
    </MenuSection>
  )
}

export function MenuDivider() {
  return <MenuSeparator className="my-1 h-px bg-border" />
}
