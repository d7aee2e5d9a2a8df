/** Tags. */

export type TagDto = {
  id: number
  name: string
  color: string
  kanban: number
  companyId: number
  /** How many tickets carry the tag: in the tag answers, not in live events of other records. */
  ticketsCount?: number
  createdAt: string
  updatedAt: string
}

export type TagRef = { id: number; name: string; color: string }
