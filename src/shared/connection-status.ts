/**
 * The states of a connection (the spec's names, `qrcode` in lower case included) and why it is in them.
 * Defined once here: the database column, the API, the channels, the CLI and the web import them.
 */
export const CONNECTION_STATUSES = [
  'qrcode',
  'OPENING',
  'PAIRING',
  'CONNECTED',
  'DISCONNECTED',
  'TIMEOUT',
  /** Connected, and importing WhatsApp's history sync (SessionUpdate.progress says how far). */
  'importing',
] as const

export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number]

/**
 * Why a connection is not (or not yet) connected, next to its status:
 * - `no_network`: WhatsApp could not be reached (no route, DNS, connection lost or timed out);
 * - `unavailable`: WhatsApp answered with an error (service unavailable, bad session, refused version);
 * - `logged_out`: the phone unlinked this device: a new QR code is needed;
 * - `banned`: WhatsApp refused the account (forbidden);
 * - `replaced`: another client opened this session;
 * - `incompatible`: the phone's WhatsApp cannot link this device (multi-device mismatch);
 * - `qr_timeout`: nobody scanned the QR code (or typed the pairing code) in time;
 * - `link_unconfirmed`: the phone scanned the QR code but the link was never confirmed (the QR codes ran out
 *   after WhatsApp's `companion_reg_refresh`): typically the phone asked for a passkey, fingerprint or face
 *   that nobody gave.
 * With OPENING the session is still retrying; with DISCONNECTED or TIMEOUT it stopped and waits for a person.
 * null when nothing went wrong (connected, showing a QR code, or disconnected on purpose).
 */
export const CONNECTION_STATUS_REASONS = [
  'no_network',
  'unavailable',
  'logged_out',
  'banned',
  'replaced',
  'incompatible',
  'qr_timeout',
  'link_unconfirmed',
] as const

export type ConnectionStatusReason = (typeof CONNECTION_STATUS_REASONS)[number]
