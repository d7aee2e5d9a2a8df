/**
 * The simulated customers' side of the WhatsApp simulator: real Signal clients (the `libsignal`
 * package Baileys uses) and the stanza shapes WhatsApp wraps around them. No server here: the core
 * calls these from its transport. See `tests/wa-sim/README-signal.md`.
 */

export { type BaileysCompanion, baileysCompanion, memoryKeyStore } from './baileys-companion.ts'
export {
  CustomerDevice,
  type CustomerDeviceOptions,
  type EncryptedPayload,
  type EncType,
} from './customer-device.ts'
export {
  digestResult,
  type EncryptIqKind,
  encryptIqKind,
  encryptSetResult,
  keyFetchResult,
  parseKeyFetch,
  parseSignedPreKeyRotation,
  preKeyCountResult,
} from './encrypt-iq.ts'
export {
  type ContentSpec,
  contentOf,
  describe,
  type MediaKind,
  mediaTypeOf,
  type QuoteSpec,
  type ReceivedDescription,
  stanzaTypeOf,
  type TargetRef,
  type UploadedMedia,
  vcardFor,
} from './message-content.ts'
export {
  type DeviceCiphertext,
  type EncPart,
  type InboundMessage,
  inboundMessageNode,
  messageAckNode,
  type OutboundMessage,
  parseOutboundMessage,
  type ReceiptSpec,
  type RetryReceiptSpec,
  receiptNode,
  retryReceiptNode,
} from './message-stanzas.ts'
export { phoneVariants } from './phone-variants.ts'
export {
  CompanionPreKeys,
  companionBundleFrom,
  type PreKeyBundle,
  type PreKeySource,
  type PreKeyUpload,
  parsePreKeyUpload,
  preKeyBundleOf,
  storedKeysSource,
} from './prekey-bundle.ts'
export {
  type CompanionDevice,
  newMessageId,
  type OutgoingMessage,
  type ReceivedEntry,
  type ReceiveResult,
  SimulatedCustomer,
} from './simulated-customer.ts'
export {
  AccountDirectory,
  parseUsyncQuery,
  type UsyncAccount,
  type UsyncDirectory,
  type UsyncQuery,
  type UsyncQueryUser,
  usyncResultNode,
} from './usync.ts'
export { throughTheWire } from './wire.ts'
