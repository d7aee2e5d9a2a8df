/**
 * The error catalogue. Services throw `AppError(code)`; the HTTP layer answers `{ error: code, message }`
 * with the code's status, the CLI maps the same code to an exit code, the web translates the code.
 */
export const ERROR_STATUS = {
  ERR_VALIDATION: 400,
  ERR_INVALID_CREDENTIALS: 401,
  /** A user changing their own password or e-mail must confirm the current password. */
  ERR_CURRENT_PASSWORD_REQUIRED: 400,
  ERR_INVALID_CURRENT_PASSWORD: 403,
  ERR_SESSION_EXPIRED: 403,
  ERR_NO_TOKEN: 401,
  ERR_INVALID_TOKEN: 401,
  ERR_SUBSCRIPTION_EXPIRED: 402,
  ERR_COMPANY_INACTIVE: 403,
  ERR_TOO_MANY_ATTEMPTS: 429,
  ERR_NO_PERMISSION: 403,
  ERR_PLAN_FEATURE_DISABLED: 403,
  ERR_USER_LIMIT_REACHED: 403,
  ERR_QUEUE_LIMIT_REACHED: 403,
  ERR_CONNECTION_LIMIT_REACHED: 403,
  ERR_USER_CREATION_DISABLED: 403,
  /** The operator disabled this user (`balcao user disable`): no sign-in until enabled again. */
  ERR_USER_DISABLED: 403,
  /** A terminal command that needs the running server (its WhatsApp sessions live there): start `balcao serve`. */
  ERR_NOT_RUNNING: 503,
  ERR_NOT_FOUND: 404,
  /** `balcao restore`: the archive is not a Balcão backup, is damaged, or comes from a newer release. */
  ERR_BACKUP_INVALID: 400,
  /** `balcao restore`: a server runs on the data folder (stop it first). */
  ERR_SERVER_RUNNING: 409,
  ERR_NO_USER_FOUND: 404,
  ERR_NO_QUEUE_FOUND: 404,
  ERR_NO_QUEUE_OPTION_FOUND: 404,
  ERR_NO_SETTING_FOUND: 404,
  ERR_NO_COMPANY_FOUND: 404,
  ERR_NO_PLAN_FOUND: 404,
  ERR_NO_CONTACT_FOUND: 404,
  ERR_NO_TICKET_FOUND: 404,
  ERR_NO_WAPP_FOUND: 404,
  ERR_NO_DEF_WAPP_FOUND: 404,
  ERR_NO_TAG_FOUND: 404,
  ERR_NO_MESSAGE_FOUND: 404,
  ERR_NO_QUICK_MESSAGE_FOUND: 404,
  ERR_NO_SCHEDULE_FOUND: 404,
  ERR_NO_CONTACT_LIST_FOUND: 404,
  ERR_NO_CONTACT_LIST_ITEM_FOUND: 404,
  ERR_NO_IMPORT_FOUND: 404,
  /** A contact list already holds this number. */
  ERR_DUPLICATED_CONTACT_LIST_ITEM: 409,
  /** A spreadsheet upload past the file size, or an .xlsx that would expand past its limit (a zip bomb). */
  ERR_SPREADSHEET_TOO_LARGE: 413,
  /** The company already has a spreadsheet import being read or applied: one at a time. */
  ERR_IMPORT_IN_PROGRESS: 409,
  /** The server is reading as many spreadsheets as it takes at once: try again shortly. */
  ERR_IMPORTS_BUSY: 429,
  ERR_NO_FILE_FOUND: 404,
  ERR_NO_QUEUE_INTEGRATION_FOUND: 404,
  ERR_NO_PROMPT_FOUND: 404,
  ERR_NO_HELP_FOUND: 404,
  /** Another help video already has this title (case of ASCII letters ignored). */
  ERR_HELP_DUPLICATED: 409,
  ERR_NO_CAMPAIGN_FOUND: 404,
  ERR_NO_ANNOUNCEMENT_FOUND: 404,
  /** A chat that does not exist, is another company's, or whose members do not include the actor. */
  ERR_NO_CHAT_FOUND: 404,
  /** An invoice that does not exist or is another company's. */
  ERR_NO_INVOICE_FOUND: 404,
  /** The checkout of an invoice already paid. */
  ERR_INVOICE_NOT_OPEN: 409,
  /** The payment webhook's amount is not the invoice's value. */
  ERR_INVOICE_AMOUNT_MISMATCH: 409,
  /**
   * A payment (webhook, the super user's, or the checkout) of a void invoice: its due date is no longer the
   * company's (edited or extended since), so paying it would extend the company twice.
   */
  ERR_INVOICE_VOID: 409,
  /** The payment webhook's X-Balcao-Signature is missing or wrong. */
  ERR_INVALID_SIGNATURE: 401,
  /** The platform's Pix receiver (key, merchant name and city) is not configured: no checkout. */
  ERR_PIX_NOT_CONFIGURED: 503,
  /** No payment webhook secret is configured: the webhook accepts nothing. */
  ERR_PAYMENT_WEBHOOK_NOT_CONFIGURED: 503,
  /** The campaign may not be edited: only INATIVA, or PROGRAMADA more than 1 hour before its start. */
  ERR_CAMPAIGN_NOT_EDITABLE: 409,
  /** A campaign status change the spec does not allow (cancel a finished campaign, restart a running one, ...). */
  ERR_CAMPAIGN_INVALID_TRANSITION: 409,
  ERR_EMAIL_ALREADY_EXISTS: 409,
  ERR_QUEUE_COLOR_ALREADY_EXISTS: 409,
  ERR_QUEUE_NAME_ALREADY_EXISTS: 409,
  ERR_WAPP_NAME_ALREADY_EXISTS: 409,
  ERR_SANDBOX_DISABLED: 400,
  ERR_COMPANY_NAME_ALREADY_EXISTS: 409,
  ERR_COMPANY_NO_DUE_DATE: 400,
  ERR_PLAN_NAME_ALREADY_EXISTS: 409,
  ERR_PLAN_IN_USE: 409,
  ERR_CANNOT_DELETE_SELF: 409,
  ERR_CANNOT_DELETE_PLATFORM_COMPANY: 409,
  ERR_LAST_ADMIN: 409,
  ERR_LAST_SUPER_USER: 409,
  ERR_DUPLICATED_CONTACT: 409,
  ERR_TAG_NAME_ALREADY_EXISTS: 409,
  /** Another quick message the same users can use already has this shortcode. */
  ERR_QUICK_MESSAGE_SHORTCODE_EXISTS: 409,
  ERR_OTHER_OPEN_TICKET: 409,
  /** A ticket change the transition table does not allow (reopen to pending, close a closed ticket, ...). */
  ERR_TICKET_INVALID_TRANSITION: 409,
  /** Someone else accepted (or holds) this ticket first. */
  ERR_TICKET_ALREADY_ACCEPTED: 409,
  /** The company requires a tag on a ticket before it is closed (setting requiredTag). */
  ERR_TICKET_TAG_REQUIRED: 400,
  ERR_NO_OTHER_WHATSAPP: 409,
  ERR_WAPP_GREETING_REQUIRED: 400,
  ERR_WAPP_NOT_INITIALIZED: 409,
  ERR_WAPP_CHECK_CONTACT: 502,
  ERR_WAPP_INVALID_CONTACT: 400,
  ERR_WAPP_DOWNLOAD_MEDIA: 502,
  ERR_SENDING_WAPP_MSG: 502,
  /** WhatsApp refuses messages to new chats from this number (Baileys' 463, a reach-out time lock). */
  ERR_WAPP_RESTRICTED: 409,
  /** WhatsApp's server refused a message we sent (its error ack: 479 and others); the detail names the code. */
  ERR_WAPP_REJECTED: 502,
  ERR_DELETE_WAPP_MSG: 502,
  ERR_CREATING_MESSAGE: 500,
  ERR_CREATING_TICKET: 500,
  ERR_FETCH_WAPP_MSG: 404,
  /** A non-admin signing in outside their working hours (the user's startWork to endWork, the company's zone). */
  ERR_OUT_OF_HOURS: 403,
  ERR_PAYLOAD_TOO_LARGE: 413,
  /** A sign-up validation code that is wrong, expired, already used, or bound to another phone. */
  ERR_SIGNUP_INVALID_CODE: 400,
  /** A password-recovery code that is wrong, expired or already used. */
  ERR_INVALID_RESET_TOKEN: 400,
  /** The platform has no SMTP settings (BALCAO_SMTP_URL and BALCAO_SMTP_FROM, or Settings). */
  ERR_MAIL_NOT_CONFIGURED: 503,
  /** The SMTP server refused or could not be reached. */
  ERR_MAIL_SEND_FAILED: 502,
  /** A queue integration's test session: the remote service refused or did not answer (the reason is given). */
  ERR_INTEGRATION_TEST_FAILED: 502,
  /** Transcription needs an AI prompt with an API key in the company (the ticket's queue's, else the first). */
  ERR_AI_NOT_CONFIGURED: 400,
  /** The AI endpoint refused, failed or did not answer in time (the reason is given). */
  ERR_AI_REQUEST_FAILED: 502,
  /**
   * A URL a tenant gave (AI base URL, webhook, n8n, Typebot, a service account's token URI) points to a loopback,
   * private, link-local or reserved address, which the server does not call (BALCAO_ALLOW_PRIVATE_URLS opens the
   * private ones), or is not http(s).
   */
  ERR_URL_NOT_ALLOWED: 400,
  /** An upload whose type is not on the media allow-list. */
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  /** Messages are sent (and edited) only on an open ticket. */
  ERR_TICKET_NOT_OPEN: 409,
  ERR_INTERNAL: 500,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export type FieldError = { field: string; message: string }

/** The body of every error answer. */
export type ErrorBody = {
  error: ErrorCode
  message: string
  fields?: FieldError[]
  /** Extra facts a client can use, such as the due date of an expired subscription. */
  details?: Record<string, unknown>
}

/**
 * The one answer whose `error` is not a code: the spec's `ERR_OTHER_OPEN_TICKET` carries, in `error`, the JSON
 * text of the contact's ticket another user holds (`userId`, `user.name`, `queue.name`). `code` keeps the code.
 */
export type TextErrorBody = Omit<ErrorBody, 'error'> & { error: string; code: ErrorCode }

export type AppErrorOptions = {
  /** Answer this text in `error` instead of the code (the code moves to `code`): see `TextErrorBody`. */
  errorText?: string
}

export class AppError extends Error {
  readonly status: number
  readonly errorText?: string
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
    readonly fields?: FieldError[],
    options: AppErrorOptions = {},
  ) {
    super(message ?? code)
    this.name = 'AppError'
    this.status = ERROR_STATUS[code]
    this.errorText = options.errorText
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && value in ERROR_STATUS
}

/** A failure of one field, shown under it; services throw it as well as the validation layer. */
export function fieldError(field: string, message: string, code: ErrorCode = 'ERR_VALIDATION') {
  return new AppError(code, message, undefined, [{ field, message }])
}
