/** Contact lists, their items and spreadsheet imports: the answers' shapes, shared by the server and the web. */

export type ContactListDto = {
  id: number
  name: string
  companyId: number
  contactsCount: number
  createdAt: string
  updatedAt: string
}

export type ContactListItemDto = {
  id: number
  name: string
  /** Masked (last four digits as asterisks) for a reader whose isTricked is not 'enabled'. */
  number: string
  email: string
  /** null until the connection was asked (grey icon), then true (green) or false. */
  isWhatsappValid: boolean | null
  companyId: number
  contactListId: number
  createdAt: string
  updatedAt: string
}

/** Why a spreadsheet row was not applied. */
export type ImportRejectReason =
  | 'required'
  | 'tooShort'
  | 'tooLong'
  | 'invalid'
  /** The same number appears on an earlier row of the file. */
  | 'duplicateInFile'
  /** The list already holds this number (list imports keep the item as it is). */
  | 'alreadyInList'

export type ImportRejection = {
  row: number
  field: 'name' | 'number' | 'email' | 'row'
  reason: ImportRejectReason
}

export type ImportState = 'pending' | 'running' | 'done' | 'failed'

/** A spreadsheet import job: progress, counts and the report (first IMPORT_REPORT_LIMIT rejections). */
export type SpreadsheetImportDto = {
  id: number
  target: 'contactList' | 'contacts'
  contactListId: number | null
  fileName: string
  state: ImportState
  total: number
  processed: number
  created: number
  updated: number
  rejectedCount: number
  rejected: ImportRejection[]
  error: string | null
  createdAt: string
  updatedAt: string
}

export const IMPORT_REPORT_LIMIT = 1000

/** The sample spreadsheet's columns (Portuguese, as the spec's campaigns variables); English headers are read too. */
export const IMPORT_COLUMNS = ['nome', 'numero', 'email'] as const
