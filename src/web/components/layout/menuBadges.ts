/**
 * The live badges of the menu (the '!' beside Conexões), kept above the menus: the desktop side menu, the
 * phone's drawer and the phone's menu button read the same state, so opening the drawer shows the badge at
 * once instead of starting its delay again.
 *   const stop = watchMenuBadge('connections', () => needsAttention(list.value))   // the shell, while signed in
 *   const shown = useMenuBadge('connections')                                      // a menu
 */
import { computed, effect, signal } from '@preact/signals-react'
import { useSignals } from '@preact/signals-react/runtime'
import type { MenuItemDef } from './menu'

export type MenuBadgeKey = NonNullable<MenuItemDef['badge']>

/** What a badge says (the menu item's accessible name and tooltip carry it). */
export const MENU_BADGE_LABELS: Record<MenuBadgeKey, string> = {
  connections: 'connections.badge',
  chats: 'chats.badge',
}

/** The spec: the '!' badge appears 2 s after the list shows a connection that is not connected. */
export const MENU_BADGE_DELAY = 2000

const shown = signal<Partial<Record<MenuBadgeKey, boolean>>>({})

/** Whether any badge shows (the phone's menu button carries it while the drawer is closed). */
export const anyMenuBadge = computed(() => Object.values(shown.value).some(Boolean))

export function menuBadgeShown(key: MenuBadgeKey): boolean {
  return !!shown.value[key]
}

function set(key: MenuBadgeKey, value: boolean) {
  if (!!shown.peek()[key] !== value) shown.value = { ...shown.peek(), [key]: value }
}

/**
 * Follows `needsAttention` (it may read signals: it runs again when they change). The badge shows once it has
 * been true for `delay`, and goes at once when it turns false. Returns the function that stops watching.
 */
export function watchMenuBadge(
  key: MenuBadgeKey,
  needsAttention: () => boolean,
  delay = MENU_BADGE_DELAY,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null
  let attention = false
  const stop = effect(() => {
    const now = needsAttention()
    if (now === attention) return
    attention = now
    if (timer) clearTimeout(timer)
    timer = null
    if (now) timer = setTimeout(() => set(key, true), delay)
    else set(key, false)
  })
  return () => {
    stop()
    if (timer) clearTimeout(timer)
    set(key, false)
  }
}

/** The badge's state for a component (re-renders when it changes). */
export function useMenuBadge(key: MenuBadgeKey): boolean {
  useSignals()
  return menuBadgeShown(key)
}

/** Tests: no badge. */
export function resetMenuBadges(): void {
  shown.value = {}
}
