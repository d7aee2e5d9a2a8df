/**
 * Whether the campaign area exists for the signed-in user: the menu (components/layout/menu.ts) and the routes'
 * gate (pages/campaigns/CampaignsGate.tsx) ask the same functions here.
 *
 * The spec's local flag 'cshow': the campaign routes exist only while browser storage holds it. It is set at
 * sign-in when the company's setting campaignsEnabled is on, and cleared when that setting is off (at sign-in,
 * or when the setting changes while signed in). `campaignsShown` mirrors it for the menu and the routes.
 */
import { signal } from '@preact/signals-react'
import type { SessionUser, SettingItem } from '../../shared/api'
import { can } from '../../shared/permissions'
import { planAllows } from '../../shared/plans'
import { currentUser } from './session'
import { settings } from './settings'

export const CSHOW_KEY = 'cshow'

function stored(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(CSHOW_KEY) != null
  } catch {
    return false
  }
}

export const campaignsShown = signal<boolean>(stored())

/** The route exists: the local flag is set and the company's plan has campaigns. */
export function campaignRoutesOn(user: SessionUser | null): boolean {
  return !!user && campaignsShown.value && planAllows(user.company?.plan, 'useCampaigns')
}

/** The menu shows the campaign items: admin, plan and the local flag. */
export function campaignsVisible(user: SessionUser | null): boolean {
  return campaignRoutesOn(user) && can(user, 'drawer-admin-items:view')
}

/** Sets or clears the flag. */
export function setCampaignsShown(on: boolean): void {
  try {
    if (on) localStorage.setItem(CSHOW_KEY, 'true')
    else localStorage.removeItem(CSHOW_KEY)
  } catch {
    // storage unavailable: the signal still holds it for this page
  }
  campaignsShown.value = on
}

/** The company's campaignsEnabled in a settings list; undefined when the list does not carry it. */
export function campaignsEnabledIn(list: SettingItem[] | null | undefined): boolean | undefined {
  const item = list?.find((s) => s.key === 'campaignsEnabled')
  if (!item) return undefined
  return String(item.value).toLowerCase() !== 'false'
}

/** Follows the list: sets the flag when campaignsEnabled is on, clears it when off, leaves it when absent. */
export function syncCampaignsShown(list: SettingItem[] | null | undefined): void {
  const on = campaignsEnabledIn(list)
  if (on !== undefined && (on !== campaignsShown.peek() || on !== stored())) setCampaignsShown(on)
}

// A sign-in (a new user in the session, the session restored, another account): the company's settings come
// with the session user.
let signedInId: number | null = null
currentUser.subscribe((user) => {
  const id = user?.id ?? null
  if (user && id !== signedInId) syncCampaignsShown(user.company?.settings)
  signedInId = id
})

// The setting changed while signed in (the settings page, a live `company-{id}-settings` event).
settings.subscribe((list) => {
  if (currentUser.peek()) syncCampaignsShown(list)
})
