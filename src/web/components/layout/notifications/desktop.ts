/**
 * Desktop notifications through the browser's Notification API. Permission is asked once, politely: the user
 * presses "Ativar" in a small banner (never a prompt out of the blue); either answer, or closing the banner, is
 * remembered in browser storage. Browsers without the API only log a message (spec).
 */
import { signal } from '@preact/signals-react'

export const ASKED_KEY = 'notificationsAsked'

export type DesktopPermission = 'unsupported' | 'default' | 'granted' | 'denied'

function api(): typeof Notification | null {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification : null
}

export function readPermission(): DesktopPermission {
  const N = api()
  return N ? (N.permission as DesktopPermission) : 'unsupported'
}

/** The permission as last seen (the banner and the bell's footer follow it). */
export const desktopPermission = signal<DesktopPermission>(readPermission())

function asked(): boolean {
  try {
    return localStorage.getItem(ASKED_KEY) === '1'
  } catch {
    return true
  }
}

/** Whether the banner that offers desktop notifications should show. */
export const askDismissed = signal<boolean>(asked())

export function shouldOfferDesktop(permission: DesktopPermission, dismissed: boolean): boolean {
  return permission === 'default' && !dismissed
}

export function dismissDesktopOffer(): void {
  try {
    localStorage.setItem(ASKED_KEY, '1')
  } catch {
    // storage unavailable: the banner stays hidden for this page
  }
  askDismissed.value = true
}

/** Asks the browser (the user pressed "Ativar"). */
export async function requestDesktopPermission(): Promise<DesktopPermission> {
  dismissDesktopOffer()
  const N = api()
  if (!N) {
    desktopPermission.value = 'unsupported'
    return 'unsupported'
  }
  try {
    desktopPermission.value = (await N.requestPermission()) as DesktopPermission
  } catch {
    desktopPermission.value = readPermission()
  }
  return desktopPermission.value
}

export type DesktopNotice = { title: string; body: string; icon?: string; tag: string; onClick?: () => void }

/** Shows a desktop notification when allowed. Returns whether it was shown. */
export function showDesktopNotification(notice: DesktopNotice): boolean {
  const N = api()
  if (!N) {
    console.info('Desktop notifications are not supported by this browser:', notice.title)
    return false
  }
  desktopPermission.value = N.permission as DesktopPermission
  if (N.permission !== 'granted') return false
  try {
    const n = new N(notice.title, { body: notice.body, icon: notice.icon || undefined, tag: notice.tag })
    n.onclick = () => {
      window.focus()
      notice.onClick?.()
      n.close()
    }
    return true
  } catch (err) {
    // Some mobile browsers only allow notifications from a service worker.
    console.info('Desktop notification failed:', err)
    return false
  }
}
