/** The simulator's media host: storage and HTTP handler, customer media, history blobs. */
export { decryptMedia, type EncryptedMedia, encryptMedia } from './crypto'
export { type HistoryBlobInput, type HistoryContact, historyBlob } from './history'
export {
  type CustomerMediaKind,
  customerMediaContent,
  decryptMessageMedia,
  type MediaExtras,
  mediaTypeOf,
  type ReceivedMedia,
} from './message'
export {
  DEFAULT_DOWNLOAD_HOST,
  type MediaFields,
  MediaStore,
  type MediaStoreOptions,
  mediaConnNode,
  type StoredMedia,
  type UploadAttempt,
  type UploadBehaviour,
  type UploadedFields,
} from './store'
