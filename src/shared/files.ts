/** File lists (spec 3, "Files screen"): what the API answers and the limits of a list. */

/** Spec 3: a list's name has at least 3 characters ('nome muito curto'); its message is required. */
export const FILE_NAME_MIN = 3
export const FILE_NAME_MAX = 100
export const FILE_MESSAGE_MAX = 10_000
export const FILE_OPTION_NAME_MAX = 100
/** Options per list: at most as many as one upload request carries files (UPLOAD_MAX_FILES). */
export const FILE_OPTIONS_MAX = 10

export type FileOptionDto = {
  id: number
  fileId: number
  name: string
  /** The stored file (a name the server made), or null without an attachment. */
  path: string | null
  /** The attachment's type (MIME), or null. */
  mediaType: string | null
  /** The name the attachment was sent with (display only), or null. */
  mediaName: string | null
  /** A signed, expiring link to the attachment, or null. */
  mediaUrl: string | null
}

export type FileListDto = {
  id: number
  companyId: number
  name: string
  message: string
  options: FileOptionDto[]
  createdAt: string
  updatedAt: string
}
