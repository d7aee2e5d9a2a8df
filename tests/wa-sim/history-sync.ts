/**
 * The history sync a company phone sends a companion right after its first login following a link, as
 * WhatsApp does: an INITIAL_BOOTSTRAP chunk carrying the phone's contacts (the simulator's customers, each
 * with its LID/phone pair), then a PUSH_NAME chunk. Without it, Baileys rc14 buffers every event for 20 s in
 * `AwaitingInitialSync` (Socket/chats.js ~1074-1110) before its first flush; with it, Baileys moves to
 * `Syncing`, runs its app-state sync and flushes at once. Each chunk is a `HISTORY_SYNC_NOTIFICATION`
 * protocolMessage from the phone's own device 0 (Baileys drops it from anyone else), its blob on the media
 * host (media/history.ts). Phone flag `history: false` turns it off.
 */
import { type BinaryNode, proto } from '@whiskeysockets/baileys'
import type { CustomerNetwork } from './customers'
import type { HistoryBlobInput, HistoryContact, MediaStore } from './media/index.ts'
import type { Companion } from './phones'
import type { CompanionConnection, Simulator } from './server'
import { inboundMessageNode } from './signal/message-stanzas.ts'
import { storedKeysSource } from './signal/prekey-bundle.ts'

const nowSeconds = () => Math.floor(Date.now() / 1000)
let sequence = 0

/** The phone's contacts as its history carries them: every customer by phone number, with her LID. */
export const phoneContacts = (customers: CustomerNetwork): HistoryContact[] =>
  customers
    .all()
    .map(({ customer }) => ({ id: customer.phoneUserJid, name: customer.name, lid: customer.lidUserJid }))

/** The chunks a fresh link gets: INITIAL_BOOTSTRAP (contacts and pairs), then PUSH_NAME. */
export const initialHistory = (customers: CustomerNetwork): HistoryBlobInput[] => {
  const contacts = phoneContacts(customers)
  return [
    {
      contacts,
      phoneNumberToLidMappings: contacts.map((c) => ({ pn: c.id, lid: c.lid ?? '' })),
      syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
      chunkOrder: 1,
      progress: 100,
    },
    { contacts: [], syncType: proto.HistorySync.HistorySyncType.PUSH_NAME, chunkOrder: 2, progress: 100 },
  ]
}

/**
 * The stanza carrying one history chunk from the phone (device 0) to `companion`, encrypted for it; the blob
 * is stored on the media host first.
 */
export const historyStanza = async (
  customers: CustomerNetwork,
  media: MediaStore,
  companion: Companion,
  input: HistoryBlobInput,
): Promise<BinaryNode> => {
  const phone = customers.phoneDevice(companion.phoneNumber)
  const historySyncNotification = await media.historyBlob(input)
  const enc = await phone.encryptMessageTo(
    companion.jid,
    storedKeysSource(() => companion.bundle),
    {
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
        historySyncNotification,
      },
    },
  )
  return inboundMessageNode({
    id: `HIST${Date.now()}${++sequence}`,
    from: phone.phoneUserJid,
    t: nowSeconds(),
    category: 'peer',
    enc: [enc],
  })
}

/** Sends the initial history once per companion, live, once it is online after its first login. */
export const registerHistorySync = (sim: Simulator, customers: CustomerNetwork, media: MediaStore): void => {
  const send = async (connection: CompanionConnection, companion: Companion) => {
    for (const chunk of initialHistory(customers)) {
      const node = await historyStanza(customers, media, companion, chunk)
      sim.log(`history ${proto.HistorySync.HistorySyncType[chunk.syncType ?? 0]} to ${companion.jid}`)
      connection.send(node)
    }
  }
  sim.onOnline.push((connection: CompanionConnection) => {
    const companion = connection.companion
    if (!companion || companion.historySentAt !== undefined) return
    if (!sim.requirePhone(companion.phoneNumber).flags.history) return
    companion.historySentAt = Date.now()
    // Not awaited: the connection keeps reading the companion's iqs while the blobs are built.
    send(connection, companion).catch((error) => sim.log(`history to ${companion.jid} failed`, error))
  })
}
