/** Contacts. */
import type { Paged } from './common'
import type { TagRef } from './tags'

export type ContactExtraInfoDto = { id: number; name: string; value: string }

/**
 * A contact. `number` is masked (its last four digits as asterisks) unless the reader's isTricked is
 * 'enabled', in every answer and live event, not only in the page.
 */
export type ContactDto = {
  id: number
  uuid: string
  name: string
  number: string
  email: string
  profilePicUrl: string
  isGroup: boolean
  disableBot: boolean
  /** The contact's answer to a connection's LGPD consent message, and when (ISO); null until answered. */
  lgpdConsent: 'accepted' | 'refused' | null
  lgpdConsentAt: string | null
  whatsappId: number | null
  companyId: number
  extraInfo: ContactExtraInfoDto[]
  tags: TagRef[]
  createdAt: string
  updatedAt: string
}

export type ContactsPage = Paged<'contacts', ContactDto>
