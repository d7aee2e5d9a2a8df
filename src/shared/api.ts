/**
 * Shapes of the API's answers, shared by the server (which builds them) and the web (which reads them).
 * Field names follow the spec: they are the contract with existing clients. One file per area under `api/`;
 * this one gathers them, so `shared/api` is the one import.
 */

export type * from './api/campaigns'
export type * from './api/common'
export type * from './api/companies'
export type * from './api/connections'
export type * from './api/contacts'
export type * from './api/dashboard'
export type * from './api/kanban'
export type * from './api/messages'
export type * from './api/queues'
export type * from './api/quick-messages'
export type * from './api/tags'
export type * from './api/tickets'
export type * from './api/users'
