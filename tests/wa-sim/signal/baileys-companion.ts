import {
  type AuthenticationCreds,
  getNextPreKeysNode,
  initAuthCreds,
  type SignalDataSet,
  type SignalDataTypeMap,
  type SignalKeyStoreWithTransaction,
} from '@whiskeysockets/baileys'
import { makeLibSignalRepository } from '@whiskeysockets/baileys/lib/Signal/libsignal.js'
import type { SignalRepositoryWithLIDStore } from '@whiskeysockets/baileys/lib/Types/Signal.js'
import type { BinaryNode } from '@whiskeysockets/baileys/lib/WABinary/index.js'
import pino from 'pino'

/** A Map-backed Baileys key store (what a linked session keeps in its auth state). */
export function memoryKeyStore(): SignalKeyStoreWithTransaction {
  const data = new Map<string, unknown>()
  return {
    get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
      const found: { [id: string]: SignalDataTypeMap[T] } = {}
      for (const id of ids) {
        const value = data.get(`${type}/${id}`)
        if (value !== undefined) found[id] = value as SignalDataTypeMap[T]
      }
      return found
    },
    set(values: SignalDataSet) {
      for (const [type, byId] of Object.entries(values)) {
        for (const [id, value] of Object.entries(byId ?? {})) {
          if (value === null || value === undefined) data.delete(`${type}/${id}`)
          else data.set(`${type}/${id}`, value)
        }
      }
    },
    clear() {
      data.clear()
    },
    isInTransaction: () => false,
    transaction: (exec) => exec(),
  }
}

export interface BaileysCompanion {
  /** Device JIDs as `creds.me` holds them after pairing. */
  jid: string
  lidJid: string
  creds: AuthenticationCreds
  keys: SignalKeyStoreWithTransaction
  repository: SignalRepositoryWithLIDStore
  /** Baileys's own pre-key upload iq (`getNextPreKeysNode`), creds updated as Baileys does. */
  uploadPreKeys(count: number): Promise<BinaryNode>
}

/**
 * Baileys's own Signal side, without a socket: fresh `initAuthCreds()` and `makeLibSignalRepository`
 * over a Map store. Tests use it as the companion a customer talks to, so what passes here is what
 * the real socket accepts.
 */
export function baileysCompanion(
  options: { phone?: string; lid?: string; device?: number } = {},
): BaileysCompanion {
  const device = options.device ?? 3
  const jid = `${options.phone ?? '5511888880000'}:${device}@s.whatsapp.net`
  const lidJid = `${options.lid ?? '200000000000001'}:${device}@lid`
  const creds = initAuthCreds()
  creds.me = { id: jid, lid: lidJid }
  const keys = memoryKeyStore()
  const repository = makeLibSignalRepository({ creds, keys }, pino({ level: 'silent' }))
  return {
    jid,
    lidJid,
    creds,
    keys,
    repository,
    async uploadPreKeys(count) {
      const { update, node } = await getNextPreKeysNode({ creds, keys }, count)
      Object.assign(creds, update)
      return node
    },
  }
}
