import { jidDecode, WAJIDDomains } from '@whiskeysockets/baileys/lib/WABinary/index.js'
import { ProtocolAddress } from 'libsignal'

/**
 * The libsignal address of a device JID, named exactly as Baileys names it (`Signal/libsignal.js`,
 * `jidToSignalProtocolAddress`, which it does not export): `user.device` for phone-number JIDs,
 * `user_1.device` for LIDs. A customer's store uses the same names so a session a test inspects on
 * either side is found under the same key.
 */
export function signalAddressOf(jid: string): ProtocolAddress {
  const decoded = jidDecode(jid)
  if (!decoded?.user) throw new Error(`not a user JID: ${jid}`)
  const domainType = decoded.domainType ?? WAJIDDomains.WHATSAPP
  const name = domainType === WAJIDDomains.WHATSAPP ? decoded.user : `${decoded.user}_${domainType}`
  return new ProtocolAddress(name, decoded.device ?? 0)
}
