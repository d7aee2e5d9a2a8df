/** The spec's static permission list: admins hold all of them, attendants (profile user) none. */
export const ADMIN_PERMISSIONS = [
  'dashboard:view',
  'drawer-admin-items:view',
  'tickets-manager:showall',
  'user-modal:editProfile',
  'user-modal:editQueues',
  'ticket-options:deleteTicket',
  'contacts-page:deleteContact',
  'connections-page:actionButtons',
  'connections-page:addConnection',
  'connections-page:editOrDeleteConnection',
] as const

export type Permission = (typeof ADMIN_PERMISSIONS)[number]

export const PROFILES = ['admin', 'user'] as const
export type Profile = (typeof PROFILES)[number]

export type PermissionSubject = { profile: Profile | string; super?: boolean }

export function can(subject: PermissionSubject | null | undefined, permission: Permission): boolean {
  if (!subject) return false
  if (subject.profile === 'admin' || subject.super)
    return (ADMIN_PERMISSIONS as readonly string[]).includes(permission)
  return false
}

export function isAdmin(subject: PermissionSubject | null | undefined): boolean {
  return !!subject && (subject.profile === 'admin' || !!subject.super)
}
