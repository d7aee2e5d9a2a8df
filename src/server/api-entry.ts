import { createApp } from './app'
import type { Deps } from './context'
import { setOnline } from './modules/auth/service'
import { ticketAccess } from './modules/tickets/access'
import { roomsOfUser } from './modules/users/service'
import type { WebAssets } from './web-assets'

/** The HTTP API and what the live socket needs of the services: what `serve` loads on the first request. */
export function buildApi(deps: Deps, web: WebAssets) {
  return {
    app: createApp(deps, { web }),
    roomsOfUser: (userId: number) => roomsOfUser(deps.sqlite, userId),
    setOnline: (userId: number, online: boolean) => setOnline(deps, userId, online),
    /** joinChatBox: the user may follow the ticket's conversation (tickets/access.ts). */
    ticketAccess: ticketAccess(deps.sqlite),
  }
}

export type Api = ReturnType<typeof buildApi>
