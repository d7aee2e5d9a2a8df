/**
 * A test double of the Baileys socket. It speaks real Baileys shapes:
 * - `ev` is Baileys' own event buffer (`makeEventBuffer`), so `process`/`buffer`/`flush` behave as live;
 * - `sendMessage` builds the message with Baileys' real `generateWAMessage` (with a fake media upload that keeps
 *   the encrypted bytes in memory), records the call and echoes an `append` upsert as `emitOwnEvents` does;
 * - inbound stanzas run through Baileys' real `decodeMessageNode`, so LID/PN alternatives, `fromMe` and the push
 *   name come out exactly as live; protocol messages and reactions also emit the derived `messages.update` /
 *   `messages.reaction`, mirroring Baileys' processMessage.
 * Tests drive it through `sock.sim.*`. Nothing touches the network.
 */
import { createDecipheriv } from 'node:crypto'
import { EventEmitter } from 'node:events'
import { readFile } from 'node:fs/promises'
import { Boom } from '@hapi/boom'
import {
  type AnyMessageContent,
  type AuthenticationCreds,
  type BaileysEventMap,
  type BinaryNode,
  type Contact,
  cleanMessage,
  decodeMessageNode,
  generateMessageIDV2,
  generateWAMessage,
  generateWAMessageContent,
  getContentType,
  getMediaKeys,
  jidNormalizedUser,
  type MediaType,
  type MiscMessageGenerationOptions,
  makeEventBuffer,
  normalizeMessageContent,
  proto,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
  type WAPresence,
} from '@whiskeysockets/baileys'
import type { ILogger } from '@whiskeysockets/baileys/lib/Utils/logger'
import type { SocketLike } from '../socket'

export const silentLogger: ILogger = {
  level: 'silent',
  child: () => silentLogger,
  trace: () => {},
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
}

export type FakeSocketOptions = {
  /** Our number once paired (digits). Default 5511900000000. */
  mePhone?: string
  /** Our LID once paired. Default 99000000000001@lid. */
  meLid?: string
  /**
   * Drive the connection by itself: `connecting`, then `open` (paired creds) or the first QR (fresh creds);
   * `sim.scan()` then pairs, and the socket created after the 515 opens by itself.
   */
  auto?: boolean
  /** Numbers on WhatsApp for onWhatsApp (digits). Default: every number not ending in 0. */
  onWhatsApp?: (phone: string) => boolean
  /** Profile picture URLs by JID; a missing one answers Boom 404, `'private'` answers Boom 401. */
  pictures?: Record<string, string>
  /** Clock for timestamps (epoch ms). */
  now?: () => number
}

export type SentRecord = {
  jid: string
  content: AnyMessageContent
  options?: MiscMessageGenerationOptions
  message: WAMessage
}
export type CallRecord = { method: string; args: unknown[] }

export type InboundAttrs = {
  from: string
  id?: string
  /** Epoch seconds as a string; defaults to now. */
  t?: string
  participant?: string
  recipient?: string
  addressing_mode?: 'lid' | 'pn'
  sender_pn?: string
  sender_lid?: string
  participant_pn?: string
  participant_lid?: string
  notify?: string
  offline?: string
}

/** A Boom like the ones Baileys puts in `lastDisconnect.error`. */
export function boom(message: string, statusCode: number): Boom {
  return new Boom(message, { statusCode })
}

export class FakeSocket implements SocketLike {
  readonly ev: SocketLike['ev']
  /** Raw frames (`sim.frame()`), as Baileys' ws emits them; the watchdog listens. */
  readonly ws = new EventEmitter()
  readonly authState: { creds: AuthenticationCreds }
  readonly signalRepository: SocketLike['signalRepository']
  readonly sent: SentRecord[] = []
  readonly calls: CallRecord[] = []
  /** Encrypted media uploaded by sendMessage, by directPath. */
  readonly media = new Map<string, Uint8Array>()
  closed = false
  endError: Error | undefined
  /** Error codes the server's ack of the next sends carries (`sim.ackError`), in order. */
  private readonly ackErrors: string[] = []
  readonly sim: ReturnType<FakeSocket['makeSim']>
  private readonly lid = new Map<string, string>() // pn user -> lid jid
  private readonly opts: Required<Omit<FakeSocketOptions, 'pictures'>> & { pictures: Record<string, string> }

  constructor(
    readonly config: UserFacingSocketConfig,
    options: FakeSocketOptions = {},
  ) {
    this.opts = {
      mePhone: options.mePhone ?? '5511900000000',
      meLid: options.meLid ?? '99000000000001@lid',
      auto: options.auto ?? false,
      onWhatsApp: options.onWhatsApp ?? ((p) => !p.endsWith('0')),
      pictures: options.pictures ?? {},
      now: options.now ?? Date.now,
    }
    this.ev = makeEventBuffer(silentLogger)
    this.authState = { creds: config.auth.creds }
    const lid = this.lid
    this.signalRepository = {
      lidMapping: {
        getPNForLID: async (lidJid: string) => {
          for (const [pn, l] of lid) if (l === jidNormalizedUser(lidJid)) return `${pn}@s.whatsapp.net`
          return null
        },
        getLIDForPN: async (pn: string) => lid.get(jidNormalizedUser(pn).split('@')[0] ?? '') ?? null,
        storeLIDPNMappings: async (pairs: { lid: string; pn: string }[]) => {
          for (const p of pairs)
            lid.set(jidNormalizedUser(p.pn).split('@')[0] ?? '', jidNormalizedUser(p.lid))
        },
      },
    }
    this.sim = this.makeSim()
    if (this.opts.auto) {
      queueMicrotask(() => {
        if (this.closed) return
        this.sim.connecting()
        const creds = this.authState.creds
        if (creds.me && (creds.registered || creds.account)) this.sim.open()
        else this.sim.qr()
      })
    }
  }

  get user(): Contact | undefined {
    return this.authState.creds.me
  }

  private get meJid(): string {
    return this.user?.id ?? `${this.opts.mePhone}:1@s.whatsapp.net`
  }

  private assertOpen(): void {
    if (this.closed) throw boom('Connection Closed', 428)
  }

  private record(method: string, args: unknown[]): void {
    this.calls.push({ method, args })
  }

  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args)
  }

  /** The fake media upload: keeps the encrypted file in `media` under its directPath. */
  readonly upload = async (encFilePath: string, o: { fileEncSha256B64: string; mediaType: string }) => {
    const directPath = `/fake/${o.mediaType}/${encodeURIComponent(o.fileEncSha256B64)}`
    this.media.set(directPath, new Uint8Array(await readFile(encFilePath)))
    return { mediaUrl: `https://mmg.whatsapp.net${directPath}`, directPath }
  }

  // --- the SocketLike surface -----------------------------------------------------------------------------

  sendMessage = async (
    jid: string,
    content: AnyMessageContent,
    options: MiscMessageGenerationOptions = {},
  ): Promise<WAMessage | undefined> => {
    this.assertOpen()
    const message = await generateWAMessage(jid, content, {
      logger: silentLogger,
      userJid: this.meJid,
      upload: this.upload,
      getUrlInfo: async () => undefined,
      messageId: generateMessageIDV2(this.user?.id),
      timestamp: new Date(this.opts.now()),
      ...options,
    })
    this.sent.push({ jid, content, options, message })
    // emitOwnEvents: the echo comes on the next tick as an `append` upsert, plus derived events; the server's
    // ack of the message (`sim.ackError` makes it an error ack) on the stanza callbacks, as Baileys's ws emits it
    process.nextTick(() => {
      if (this.closed) return
      const attrs: Record<string, string> = { class: 'message', id: message.key.id ?? '', from: jid }
      const error = this.ackErrors.shift()
      if (error) attrs.error = error
      this.ws.emit('CB:ack,class:message', { tag: 'ack', attrs })
      const echo = proto.WebMessageInfo.decode(proto.WebMessageInfo.encode(message).finish()) as WAMessage
      this.emitUpsert([echo], 'append')
    })
    return message
  }

  readMessages = async (keys: WAMessageKey[]): Promise<void> => {
    this.assertOpen()
    this.record('readMessages', [keys])
  }

  sendPresenceUpdate = async (type: WAPresence, toJid?: string): Promise<void> => {
    this.assertOpen()
    this.record('sendPresenceUpdate', [type, toJid])
  }

  presenceSubscribe = async (toJid: string): Promise<void> => {
    this.assertOpen()
    this.record('presenceSubscribe', [toJid])
  }

  onWhatsApp = async (...phones: string[]): Promise<{ jid: string; exists: boolean }[] | undefined> => {
    this.assertOpen()
    this.record('onWhatsApp', phones)
    return phones
      .map((p) => p.replace(/\D/g, ''))
      .filter((p) => this.opts.onWhatsApp(p))
      .map((p) => ({ jid: `${p}@s.whatsapp.net`, exists: true }))
  }

  profilePictureUrl = async (jid: string, type?: 'preview' | 'image'): Promise<string | undefined> => {
    this.assertOpen()
    this.record('profilePictureUrl', [jid, type])
    const url = this.opts.pictures[jid]
    if (url === 'private') throw boom('not-authorized', 401)
    if (!url) throw boom('item-not-found', 404)
    return url
  }

  requestPairingCode = async (phoneNumber: string, customPairingCode?: string): Promise<string> => {
    this.assertOpen()
    this.record('requestPairingCode', [phoneNumber, customPairingCode])
    const code = customPairingCode ?? 'ABCD1234'
    this.authState.creds.pairingCode = code
    this.authState.creds.me = { id: `${phoneNumber}@s.whatsapp.net`, name: '~' }
    this.ev.emit('creds.update', this.authState.creds)
    return code
  }

  updateMediaMessage = async (message: WAMessage): Promise<WAMessage> => {
    this.record('updateMediaMessage', [message])
    return message
  }

  logout = async (msg?: string): Promise<void> => {
    this.record('logout', [msg])
    this.assertOpen()
    await this.end(boom(msg ?? 'Intentional Logout', 401))
  }

  end = async (error: Error | undefined): Promise<void> => {
    this.record('end', [error])
    if (this.closed) return
    this.closed = true
    this.endError = error
    this.ev.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error, date: new Date(this.opts.now()) },
    })
    this.ev.removeAllListeners('connection.update')
  }

  // --- emission helpers -----------------------------------------------------------------------------------

  /** Emits upserts and the events Baileys derives from them, in one buffered batch as live. */
  emitUpsert(messages: WAMessage[], type: 'notify' | 'append'): void {
    this.ev.buffer()
    this.ev.emit('messages.upsert', { messages, type })
    for (const m of messages) this.emitDerived(m)
    this.ev.flush()
  }

  private emitDerived(message: WAMessage): void {
    // As live, the derived events see the message after Baileys' cleanMessage, which turns a reaction's key
    // to our point of view.
    cleanMessage(message, this.meJid, this.user?.lid ?? this.opts.meLid)
    const content = normalizeMessageContent(message.message)
    const protocol = content?.protocolMessage
    if (protocol?.key?.id) {
      if (protocol.type === proto.Message.ProtocolMessage.Type.REVOKE) {
        this.ev.emit('messages.update', [
          {
            key: { ...message.key, id: protocol.key.id },
            update: {
              message: null,
              messageStubType: proto.WebMessageInfo.StubType.REVOKE,
              key: message.key,
            },
          },
        ])
      } else if (protocol.type === proto.Message.ProtocolMessage.Type.MESSAGE_EDIT) {
        const ms = protocol.timestampMs ? Number(protocol.timestampMs) : 0
        this.ev.emit('messages.update', [
          {
            key: { ...message.key, id: protocol.key.id },
            update: {
              message: { editedMessage: { message: protocol.editedMessage } },
              messageTimestamp: ms ? Math.floor(ms / 1000) : message.messageTimestamp,
            },
          },
        ])
      }
    } else if (content?.reactionMessage) {
      this.ev.emit('messages.reaction', [
        {
          reaction: { ...content.reactionMessage, key: message.key },
          key: content.reactionMessage.key as WAMessageKey,
        },
      ])
    }
  }

  // --- the driver -----------------------------------------------------------------------------------------

  private makeSim() {
    const sock = this
    const nowSec = () => String(Math.floor(sock.opts.now() / 1000))
    const meLid = () => sock.user?.lid ?? sock.opts.meLid
    let qrCount = 0
    return {
      connecting(): void {
        sock.ev.emit('connection.update', { connection: 'connecting' })
      },
      /** Emits the next QR (`ref,noise,identity,adv,platform`). */
      qr(ref?: string): string {
        qrCount += 1
        // as Baileys renders it: the adv secret is the creds' own
        const qr = `${ref ?? `ref-${qrCount}`},bm9pc2U=,aWRlbnRpdHk=,${sock.authState.creds.advSecretKey},web`
        sock.ev.emit('connection.update', { qr })
        return qr
      },
      /** The phone scanned the QR (or typed the code): pair-success, creds, then the server's 515. */
      scan(): void {
        sock.authState.creds.me = {
          id: `${sock.opts.mePhone}:1@s.whatsapp.net`,
          lid: sock.opts.meLid,
          name: 'Loja',
        }
        sock.authState.creds.platform = 'android'
        sock.authState.creds.account = {
          details: new Uint8Array([1]),
          accountSignatureKey: new Uint8Array(32),
        }
        sock.ev.emit('creds.update', {
          me: sock.authState.creds.me,
          platform: 'android',
          account: sock.authState.creds.account,
        })
        sock.ev.emit('connection.update', { isNewLogin: true, qr: undefined })
        void sock.end(boom('Stream Errored (restart required)', 515))
      },
      /** Login succeeded. */
      open(): void {
        const me = sock.authState.creds.me ?? { id: `${sock.opts.mePhone}:1@s.whatsapp.net` }
        sock.authState.creds.me = { ...me, lid: me.lid ?? sock.opts.meLid }
        sock.authState.creds.registered = true
        // a linked device always has the account signature pair-success brought
        sock.authState.creds.account ??= {
          details: new Uint8Array([1]),
          accountSignatureKey: new Uint8Array(32),
        }
        sock.ev.emit('creds.update', {
          me: sock.authState.creds.me,
          registered: true,
          account: sock.authState.creds.account,
        })
        sock.ev.emit('connection.update', { connection: 'open', receivedPendingNotifications: false })
      },
      /** The connection closed with a Boom status (Baileys' `end(new Boom(message, {statusCode}))`). */
      close(code: number, message = 'Connection Closed'): void {
        void sock.end(boom(message, code))
      },
      /** Persists part of the creds as Baileys does (Object.assign into the live creds, then creds.update). */
      credsUpdate(update: Partial<AuthenticationCreds>): void {
        Object.assign(sock.authState.creds, update)
        sock.ev.emit('creds.update', update)
      },
      /**
       * A message stanza from the network, decoded by Baileys' real decodeMessageNode, upserted as `type`
       * (`append` when `attrs.offline` is set, unless given).
       */
      inbound(attrs: InboundAttrs, message: proto.IMessage, type?: 'notify' | 'append'): WAMessage {
        const stanza: BinaryNode = {
          tag: 'message',
          attrs: {
            id: attrs.id ?? generateMessageIDV2(),
            t: attrs.t ?? nowSec(),
            type: 'text',
            ...stripUndefined(attrs),
          },
        }
        const { fullMessage } = decodeMessageNode(stanza, sock.meJid, meLid())
        fullMessage.message = proto.Message.fromObject(message)
        sock.emitUpsert([fullMessage], type ?? (attrs.offline ? 'append' : 'notify'))
        return fullMessage
      },
      /** A decryption failure placeholder (CIPHERTEXT stub, no content). */
      undecryptable(attrs: InboundAttrs): WAMessage {
        const stanza: BinaryNode = {
          tag: 'message',
          attrs: { id: attrs.id ?? generateMessageIDV2(), t: attrs.t ?? nowSec(), ...stripUndefined(attrs) },
        }
        const { fullMessage } = decodeMessageNode(stanza, sock.meJid, meLid())
        fullMessage.messageStubType = proto.WebMessageInfo.StubType.CIPHERTEXT
        fullMessage.messageStubParameters = ['Bad MAC']
        sock.emitUpsert([fullMessage], 'notify')
        return fullMessage
      },
      /** A 1:1 receipt for our message: Baileys status 2 SERVER_ACK, 3 DELIVERY_ACK, 4 READ, 5 PLAYED, 0 ERROR. */
      ack(key: WAMessageKey, status: number, t?: number): void {
        sock.ev.emit('messages.update', [
          { key, update: { status, messageTimestamp: t ?? Math.floor(sock.opts.now() / 1000) } },
        ])
      },
      /** A group receipt of one participant. */
      receipt(
        key: WAMessageKey,
        participant: string,
        kind: 'delivery' | 'read' | 'played',
        t?: number,
      ): void {
        const ts = t ?? Math.floor(sock.opts.now() / 1000)
        const receipt: proto.IUserReceipt = { userJid: jidNormalizedUser(participant) }
        if (kind === 'delivery') receipt.receiptTimestamp = ts
        else if (kind === 'read') receipt.readTimestamp = ts
        else receipt.playedTimestamp = ts
        sock.ev.emit('message-receipt.update', [{ key, receipt }])
      },
      /** The author edits a message (`target` as the author addresses it). */
      edit(attrs: InboundAttrs, target: WAMessageKey, text: string): WAMessage {
        return this.inbound(attrs, {
          protocolMessage: {
            type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
            key: target,
            editedMessage: { conversation: text },
            timestampMs: sock.opts.now(),
          },
        })
      },
      /** The author deletes a message for everyone. */
      revoke(attrs: InboundAttrs, target: WAMessageKey): WAMessage {
        return this.inbound(attrs, {
          protocolMessage: { type: proto.Message.ProtocolMessage.Type.REVOKE, key: target },
        })
      },
      /** Someone reacts (`emoji` '' removes); `target` is the reacted message as the reactor addresses it. */
      react(attrs: InboundAttrs, target: WAMessageKey, emoji: string): WAMessage {
        return this.inbound(attrs, {
          reactionMessage: { key: target, text: emoji, senderTimestampMs: sock.opts.now() },
        })
      },
      /** A LID/PN pair learned by the socket (stored and emitted as Baileys does). */
      lidMapping(lid: string, pn: string): void {
        void sock.signalRepository.lidMapping.storeLIDPNMappings([{ lid, pn }])
        sock.ev.emit('lid-mapping.update', { lid, pn })
      },
      /** Any other event, as is. */
      emit<T extends keyof BaileysEventMap>(event: T, data: BaileysEventMap[T]): void {
        sock.ev.emit(event, data)
      },
      /** Real media content (encrypted, "uploaded" here) for an inbound message: `{ image: Buffer, caption }`... */
      async mediaContent(content: AnyMessageContent): Promise<proto.IMessage> {
        return generateWAMessageContent(content, { upload: sock.upload, logger: silentLogger })
      },
      /** A raw frame arrived (keep-alive answer, any stanza). */
      frame(): void {
        sock.ws.emit('frame', { tag: 'iq', attrs: {} })
      },
      /** WhatsApp's server refuses the next send with this error code (463, 479, ...) in its ack. */
      ackError(code: string): void {
        sock.ackErrors.push(code)
      },
      /** The last message sent through sendMessage. */
      lastSent(): SentRecord | undefined {
        return sock.sent.at(-1)
      },
    }
  }
}

function stripUndefined(attrs: InboundAttrs): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(attrs)) if (typeof v === 'string') out[k] = v
  return out
}

/** Decrypts media a FakeSocket "uploaded" (real WhatsApp media crypto: AES-256-CBC, 10-byte MAC at the end). */
export async function downloadFromFake(sock: FakeSocket, msg: WAMessage): Promise<Uint8Array> {
  const content = normalizeMessageContent(msg.message)
  const type = getContentType(content)
  if (!content || !type) throw new Error('no media in message')
  const media = content[type] as { directPath?: string | null; mediaKey?: Uint8Array | null } | undefined
  if (!media?.directPath || !media.mediaKey) throw new Error('no media in message')
  const enc = sock.media.get(media.directPath)
  if (!enc) throw boom('media not found', 404)
  const mediaType = type.replace('Message', '').replace('ptv', 'video') as MediaType
  const { cipherKey, iv } = await getMediaKeys(media.mediaKey, mediaType)
  const decipher = createDecipheriv('aes-256-cbc', cipherKey, iv)
  const body = enc.subarray(0, enc.length - 10)
  return new Uint8Array(Buffer.concat([decipher.update(body), decipher.final()]))
}

/** A socket factory for tests: every socket it made, the current one, and the configs it was given. */
export function fakeSocketFactory(options: FakeSocketOptions = {}) {
  const sockets: FakeSocket[] = []
  return {
    sockets,
    options,
    get current(): FakeSocket {
      const s = sockets.at(-1)
      if (!s) throw new Error('no socket created yet')
      return s
    },
    factory: (config: UserFacingSocketConfig): FakeSocket => {
      const s = new FakeSocket(config, options)
      sockets.push(s)
      return s
    },
  }
}

/** Lets pending promises, microtasks and nextTicks run (the fake echoes on nextTick). */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((resolve) => setImmediate(resolve))
}
