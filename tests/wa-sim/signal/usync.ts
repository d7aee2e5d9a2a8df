import {
  type BinaryNode,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  jidDecode,
} from '@whiskeysockets/baileys/lib/WABinary/index.js'
import { phoneVariants } from './phone-variants.ts'

/** An account as usync describes it. */
export interface UsyncAccount {
  /** Phone number digits in WhatsApp's canonical form (the JID it answers with). */
  phone: string
  /** LID user digits. */
  lid: string
  /** Device ids: 0 is the phone, 1 and up its companions. */
  devices: number[]
}

/** Where the answer looks accounts up; `AccountDirectory` is a ready one. */
export interface UsyncDirectory {
  /** By phone digits as asked (any spelling WhatsApp accepts); undefined when not on WhatsApp. */
  byPhone(digits: string): UsyncAccount | undefined
  byLid(lidUser: string): UsyncAccount | undefined
}

/** Accounts in memory, found by any spelling of their number (`phoneVariants`) or by LID. */
export class AccountDirectory implements UsyncDirectory {
  private readonly phones = new Map<string, UsyncAccount>()
  private readonly lids = new Map<string, UsyncAccount>()

  add(account: UsyncAccount): UsyncAccount {
    this.phones.set(account.phone, account)
    this.lids.set(account.lid, account)
    return account
  }

  byPhone(digits: string): UsyncAccount | undefined {
    for (const variant of phoneVariants(digits)) {
      const account = this.phones.get(variant)
      if (account) return account
    }
    return undefined
  }

  byLid(lidUser: string): UsyncAccount | undefined {
    return this.lids.get(lidUser)
  }
}

/** One `<user>` of a usync query: by JID (`jid` attribute) or by phone (`<contact>+5511…</contact>`). */
export interface UsyncQueryUser {
  jid?: string
  phone?: string
}

export interface UsyncQuery {
  iqId: string
  sid: string
  context: string
  mode: string
  /** Protocol tags asked for: devices, contact, lid, status, disappearing_mode, ... */
  protocols: string[]
  users: UsyncQueryUser[]
}

function textOf(node: BinaryNode | undefined): string | undefined {
  if (!node) return undefined
  if (typeof node.content === 'string') return node.content
  if (node.content instanceof Uint8Array) return Buffer.from(node.content).toString('utf8')
  return undefined
}

/** Reads Baileys's `<iq xmlns="usync" type="get">` (`Socket/socket.js`, `executeUSyncQuery`). */
export function parseUsyncQuery(iq: BinaryNode): UsyncQuery {
  const usync = getBinaryNodeChild(iq, 'usync')
  if (iq.tag !== 'iq' || iq.attrs.xmlns !== 'usync' || !usync) throw new Error('not a usync query')
  const query = getBinaryNodeChild(usync, 'query')
  const protocols = Array.isArray(query?.content) ? query.content.map((node) => node.tag) : []
  const users = getBinaryNodeChildren(getBinaryNodeChild(usync, 'list'), 'user').map((user) => {
    const phone = textOf(getBinaryNodeChild(user, 'contact'))
    return {
      ...(user.attrs.jid ? { jid: user.attrs.jid } : {}),
      ...(phone ? { phone } : {}),
    }
  })
  return {
    iqId: iq.attrs.id ?? '',
    sid: usync.attrs.sid ?? '',
    context: usync.attrs.context ?? '',
    mode: usync.attrs.mode ?? '',
    protocols,
    users,
  }
}

function devicesNode(account: UsyncAccount, t: number): BinaryNode {
  const devices = account.devices.map(
    (id): BinaryNode => ({
      tag: 'device',
      // Baileys skips companions without a key index (`extractDeviceJids`): a sent message would be refused.
      attrs: id === 0 ? { id: '0' } : { id: String(id), 'key-index': String(id) },
    }),
  )
  const content: BinaryNode[] = [{ tag: 'device-list', attrs: {}, content: devices }]
  if (account.devices.some((id) => id !== 0))
    content.push({ tag: 'key-index-list', attrs: { ts: String(t) } })
  return { tag: 'devices', attrs: {}, content }
}

/** How one user of the query resolves: the JID the answer names and the account, if any. */
function resolve(user: UsyncQueryUser, directory: UsyncDirectory) {
  if (user.phone) {
    const digits = user.phone.replace(/^\+/, '')
    const account = directory.byPhone(digits)
    return { jid: `${account?.phone ?? digits}@s.whatsapp.net`, account, byLid: false }
  }
  const decoded = jidDecode(user.jid)
  if (!decoded?.user) return undefined
  if (decoded.server === 'lid') {
    return { jid: `${decoded.user}@lid`, account: directory.byLid(decoded.user), byLid: true }
  }
  const account = directory.byPhone(decoded.user)
  return { jid: `${account?.phone ?? decoded.user}@s.whatsapp.net`, account, byLid: false }
}

/**
 * The server's answer to a usync query for the protocols Baileys asks for: `devices` (device list,
 * what `getUSyncDevices` fans a message out to), `contact` (on WhatsApp or not, under the canonical
 * JID `onWhatsApp` returns) and `lid` (the LID of a phone-number user). Other protocols are left
 * out of each user, which Baileys reads as absent. Parsed by `USyncQuery.parseUSyncQueryResult`.
 */
export function usyncResultNode(
  iq: BinaryNode,
  directory: UsyncDirectory,
  options: { t: number },
): BinaryNode {
  const query = parseUsyncQuery(iq)
  const users: BinaryNode[] = []
  for (const asked of query.users) {
    const found = resolve(asked, directory)
    if (!found) continue
    const { account } = found
    const content: BinaryNode[] = []
    for (const protocol of query.protocols) {
      if (protocol === 'contact') {
        content.push({ tag: 'contact', attrs: { type: account ? 'in' : 'out' } })
      } else if (protocol === 'devices' && account) {
        content.push(devicesNode(account, options.t))
      } else if (protocol === 'lid' && account && !found.byLid) {
        content.push({ tag: 'lid', attrs: { val: `${account.lid}@lid` } })
      }
    }
    users.push({ tag: 'user', attrs: { jid: found.jid }, content })
  }
  return {
    tag: 'iq',
    attrs: { from: 's.whatsapp.net', id: query.iqId, type: 'result' },
    content: [
      {
        tag: 'usync',
        attrs: { sid: query.sid, index: '0', last: 'true', mode: query.mode, context: query.context },
        content: [
          { tag: 'result', attrs: {}, content: query.protocols.map((tag) => ({ tag, attrs: {} })) },
          { tag: 'list', attrs: {}, content: users },
        ],
      },
    ],
  }
}
