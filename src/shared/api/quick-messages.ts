/** Quick messages. */

/**
 * A quick message (spec 2): `geral` company-wide, otherwise personal to `userId`; `status` active. An attachment
 * is `mediaName` (as uploaded) and `mediaUrl` (a signed, expiring link); `mediaPath` is the stored file's name.
 */
export type QuickMessageDto = {
  id: number
  shortcode: string
  message: string
  geral: boolean
  status: boolean
  isMedia: boolean
  mediaPath: string | null
  mediaName: string | null
  mediaMime: string | null
  mediaUrl: string | null
  userId: number | null
  companyId: number
  createdAt: string
  updatedAt: string
}
