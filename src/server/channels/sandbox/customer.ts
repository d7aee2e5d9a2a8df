/**
 * The customer side of a sandbox session: what virtual customers (and the company's own phone) do to a
 * connected session (messages, reactions, edits, deletions, calls, history chunks), built as the Baileys shapes
 * WhatsApp would deliver and handed to the session, which normalizes and emits them (session.ts).
 */
import {
  type BaileysEventMap,
  generateMessageID,
  generateMessageIDV2,
  isJidGroup,
  proto,
  type WAMessage,
} from '@whiskeysockets/baileys'
import { AppError, type FieldError } from '../../../shared/errors'
import { pnFromJid } from '../baileys/jid'
import { refToKey } from '../normalize'
import type { ChannelEvent, MsgRef } from '../types'
import { GROUP_SUFFIX, LID_SUFFIX, PN_SUFFIX } from './identities'
import { mediaBytes, type SandboxInbound, validateInbound } from './inbound'
import {
  type Addressing,
  contactsContent,
  locationContent,
  mediaContent,
  messageKey,
  receivedBatch,
  receivedMessage,
  revokeContent,
  stubMessage,
  textContent,
} from './shapes'
import type { SandboxCredentials, SandboxWorld as SandboxNetwork } from './world'

/** What the customer side needs of its session. */
export type CustomerLink = {
  /** ERR_WAPP_NOT_INITIALIZED unless the session is connected. */
  requireConnected(): void
  /** The company number the session is paired as (set while connected). */
  me(): SandboxCredentials | undefined
  /** Normalizes a Baileys batch and emits it, in order with the session's other events. */
  deliver(batch: Partial<BaileysEventMap>, mark?: (event: ChannelEvent) => void): Promise<void>
}

export class SandboxCustomerSide {
  constructor(
    private readonly net: SandboxNetwork,
    private readonly connectionId: number,
    private readonly link: CustomerLink,
  ) {}

  /** A virtual customer writes (see SandboxInbound); the Baileys batch is normalized and emitted. */
  async inject(input: unknown): Promise<{ id: string }> {
    const data = validateInbound(input)
    this.link.requireConnected()
    if (data.call) return this.placeCall(data)
    const { msg, id } = this.build(data)
    await this.link.deliver(receivedBatch(msg, data.offline ? 'append' : 'notify'))
    return { id }
  }

  /** A virtual customer calls: WhatsApp's `call` offer, normalized like any other batch. */
  private async placeCall(data: SandboxInbound): Promise<{ id: string }> {
    const customer = this.net.customer(data.from, data.name)
    const pnJid = `${customer.pn}${PN_SUFFIX}`
    const id = data.id ?? generateMessageIDV2(pnJid)
    const from = data.lidOnly ? `${customer.lid}${LID_SUFFIX}` : pnJid
    await this.link.deliver({
      call: [
        {
          chatId: from,
          from,
          callerPn: pnJid,
          id,
          date: new Date(data.timestamp ?? this.net.clock.now()),
          isVideo: !!data.video,
          isGroup: false,
          status: 'offer',
          offline: false,
        },
      ],
    })
    return { id }
  }

  /**
   * Several customers' messages at once, in order, as `inject` takes them one by one: every one is checked
   * first (a bad one rejects the whole batch, fields named `[index].field`, nothing delivered); resolves once
   * the listeners handled every one. `mark` sees each event before it is emitted (the inbound pipeline holds
   * marked messages to store them in one transaction, see modules/sandbox/routes.ts).
   */
  async injectBatch(
    inputs: unknown[],
    options: { mark?: (event: ChannelEvent) => void } = {},
  ): Promise<{ ids: string[] }> {
    const fields: FieldError[] = []
    const list: SandboxInbound[] = []
    for (const [i, input] of inputs.entries()) {
      try {
        const data = validateInbound(input)
        if (data.call)
          fields.push({ field: `[${i}].call`, message: 'a call is placed alone, not in a batch' })
        list.push(data)
      } catch (err) {
        if (!(err instanceof AppError) || !err.fields) throw err
        for (const f of err.fields)
          fields.push({ field: f.field ? `[${i}].${f.field}` : `[${i}]`, message: f.message })
      }
    }
    if (fields.length) throw new AppError('ERR_VALIDATION', 'Invalid sandbox message', undefined, fields)
    this.link.requireConnected()
    const ids: string[] = []
    const delivered: Promise<void>[] = []
    for (const data of list) {
      const { msg, id } = this.build(data)
      ids.push(id)
      delivered.push(this.link.deliver(receivedBatch(msg, data.offline ? 'append' : 'notify'), options.mark))
    }
    // every message handled (settled) before answering, even when one of them failed
    const settled = await Promise.allSettled(delivered)
    const failed = settled.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
    return { ids }
  }

  /** A history sync chunk (`messaging-history.set`) of old messages, built as `inject` builds them. */
  async history(
    inputs: unknown[],
    options: { progress?: number; isLatest?: boolean } = {},
  ): Promise<{ ids: string[] }> {
    const list = inputs.map((input) => validateInbound(input))
    this.link.requireConnected()
    const built = list.map((data) => this.build(data))
    await this.link.deliver({
      'messaging-history.set': {
        chats: [],
        contacts: [],
        messages: built.map((b) => b.msg),
        isLatest: options.isLatest ?? false,
        progress: options.progress ?? null,
        syncType: proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP,
      },
    })
    return { ids: built.map((b) => b.id) }
  }

  /** The Baileys message of a customer's (or our phone's) action, remembered by the network. */
  private build(data: SandboxInbound): { msg: WAMessage; id: string } {
    const me = this.link.me()!
    const meJid = `${me.pn}${PN_SUFFIX}`
    const customer = this.net.customer(data.from, data.name)
    const pnJid = `${customer.pn}${PN_SUFFIX}`
    const lidJid = `${customer.lid}${LID_SUFFIX}`
    const [mainJid, altJid] = data.lidOnly ? [lidJid, pnJid] : [pnJid, lidJid]
    const mode = data.lidOnly ? 'lid' : 'pn'
    let addressing: Addressing
    if (data.group) {
      const groupJid = `${data.group.id}${GROUP_SUFFIX}`
      if (data.group.name) this.net.nameGroup(groupJid, data.group.name)
      addressing = data.fromMe
        ? { chatJid: groupJid, participant: data.lidOnly ? `${me.lid}${LID_SUFFIX}` : meJid, mode }
        : { chatJid: groupJid, participant: mainJid, participantAlt: altJid, mode }
    } else {
      addressing = data.fromMe ? { chatJid: mainJid, mode } : { chatJid: mainJid, chatAlt: altJid, mode }
    }
    const id = data.id ?? generateMessageID()
    const fromMe = !!data.fromMe
    const key = messageKey(addressing, id, fromMe)
    const timestampMs = data.timestamp ?? this.net.clock.now()
    /** Our own JID as the customer addresses us (the chat's form). */
    const meAsSeen = data.lidOnly ? `${me.lid}${LID_SUFFIX}` : meJid

    let content: proto.IMessage
    let quoted: WAMessage | undefined
    if (data.reaction) {
      content = {
        reactionMessage: {
          key: this.reactionTargetKey(data.reaction.to, key),
          text: data.reaction.emoji,
          senderTimestampMs: timestampMs,
        },
      }
    } else if (data.edit || data.delete) {
      const targetId = data.edit?.id ?? data.delete!.id
      const field = data.edit ? 'edit.id' : 'delete.id'
      const target = this.net.findMessage(this.connectionId, targetId)
      if (target) {
        const authored = fromMe
          ? !!target.key.fromMe
          : !target.key.fromMe && this.sameCustomer(target, customer.pn)
        if (!authored) {
          throw new AppError('ERR_VALIDATION', 'Only the author can change a message', undefined, [
            { field, message: 'must be a message this customer sent' },
          ])
        }
      }
      // the key of the changed message as its author addresses it
      const authorKey: proto.IMessageKey = {
        remoteJid: fromMe ? addressing.chatJid : meAsSeen,
        fromMe: true,
        id: targetId,
      }
      if (data.group) {
        authorKey.remoteJid = addressing.chatJid
        authorKey.participant = addressing.participant
      }
      content = data.edit
        ? {
            protocolMessage: {
              key: authorKey,
              type: proto.Message.ProtocolMessage.Type.MESSAGE_EDIT,
              editedMessage: { conversation: data.edit.body },
              timestampMs,
            },
          }
        : revokeContent(authorKey)
    } else {
      if (data.replyTo)
        quoted = this.quotable({ id: data.replyTo, chatJid: addressing.chatJid, fromMe: true })
      if (data.media) {
        const bytes = mediaBytes(data.media)
        const directPath = this.net.directPathFor(`in:${this.connectionId}:${id}`)
        this.net.putMedia(directPath, bytes)
        content = mediaContent({
          kind: data.media.kind,
          mimetype: data.media.mimetype,
          directPath,
          size: bytes.byteLength,
          sha256: this.net.digest(bytes),
          timestampMs,
          fileName: data.media.fileName ?? (data.media.kind === 'document' ? 'document' : undefined),
          caption: data.media.caption ?? data.body,
          ptt: data.media.ptt,
          seconds: data.media.seconds,
        })
      } else if (data.location) content = locationContent(data.location)
      else if (data.contact) content = contactsContent([data.contact])
      else content = textContent(data.body ?? '', !!quoted)
    }
    const msg = receivedMessage({
      key,
      content,
      timestampMs,
      pushName: fromMe ? undefined : customer.name,
      meJid,
      quoted,
    })
    if (!data.reaction && !data.edit && !data.delete) this.net.rememberMessage(this.connectionId, msg)
    return { msg, id }
  }

  private sameCustomer(msg: WAMessage, pn: string) {
    const k = msg.key
    const jids = [k.remoteJid, k.remoteJidAlt, k.participant, k.participantAlt].filter(Boolean) as string[]
    return jids.some((j) => pnFromJid(j) === pn || this.net.pnForLid(j) === pn)
  }

  /**
   * The reacted message's key as Baileys hands it over after `cleanMessage`: from our point of view, in the
   * reaction's chat (a message the network no longer holds is taken to be ours).
   */
  private reactionTargetKey(targetId: string, reactionKey: proto.IMessageKey): proto.IMessageKey {
    const target = this.net.findMessage(this.connectionId, targetId)
    const key: proto.IMessageKey = {
      remoteJid: reactionKey.remoteJid,
      fromMe: target ? !!target.key.fromMe : true,
      id: targetId,
    }
    if (isJidGroup(reactionKey.remoteJid ?? '')) {
      key.participant =
        target?.key.participant ??
        (key.fromMe ? `${this.link.me()!.pn}${PN_SUFFIX}` : reactionKey.participant)
    }
    return key
  }

  /** A message to quote: the stored one, or a stand-in. */
  private quotable(ref: MsgRef): WAMessage {
    return this.net.findMessage(this.connectionId, ref.id) ?? stubMessage(refToKey(ref))
  }
}
