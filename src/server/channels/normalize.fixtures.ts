/**
 * Builders of the Baileys shapes that Baileys hands to normalizeBaileysEvents, for tests only (production never
 * builds them: the sandbox has its own builders in sandbox/shapes.ts).
 */
import {
  type BaileysEventMap,
  isJidGroup,
  isLidUser,
  proto,
  type WAMessage,
  type WAMessageContent,
  type WAMessageKey,
} from '@whiskeysockets/baileys'
import { refToKey } from './normalize'
import type { Ack, MsgRef } from './types'

const Status = proto.WebMessageInfo.Status
const StubType = proto.WebMessageInfo.StubType

/** The inverse of baileysStatusToAck (3, "delivered to all", has no Baileys status and maps to DELIVERY_ACK). */
export function ackToBaileysStatus(ack: Ack): proto.WebMessageInfo.Status {
  switch (ack) {
    case -1:
      return Status.ERROR
    case 0:
      return Status.PENDING
    case 1:
      return Status.SERVER_ACK
    case 2:
    case 3:
      return Status.DELIVERY_ACK
    case 4:
      return Status.READ
    case 5:
      return Status.PLAYED
  }
}

export type BuildMessageInput = {
  id: string
  /** The chat: the customer's JID in 1:1 (`…@s.whatsapp.net` or `…@lid`), or the group. */
  chatJid: string
  /** The other form of the chat JID in 1:1 (PN for a LID chat, LID for a PN chat). */
  chatAlt?: string
  /** Groups: who wrote, and the other form of that JID. */
  participant?: string
  participantAlt?: string
  fromMe?: boolean
  pushName?: string
  /** Epoch ms; defaults to now. */
  timestamp?: number
  message: WAMessageContent
}

/** A WAMessage as Baileys upserts it. */
export function buildWAMessage(input: BuildMessageInput): WAMessage {
  const isGroup = !!isJidGroup(input.chatJid)
  const key: WAMessageKey = {
    remoteJid: input.chatJid,
    fromMe: !!input.fromMe,
    id: input.id,
    addressingMode: isLidUser(isGroup ? input.participant : input.chatJid) ? 'lid' : 'pn',
  }
  if (input.chatAlt && !isGroup) key.remoteJidAlt = input.chatAlt
  if (isGroup && input.participant) key.participant = input.participant
  if (isGroup && input.participantAlt) key.participantAlt = input.participantAlt
  const msg: WAMessage = {
    key,
    message: proto.Message.fromObject(input.message),
    messageTimestamp: Math.floor((input.timestamp ?? Date.now()) / 1000),
  }
  if (input.pushName) msg.pushName = input.pushName
  if (input.fromMe) msg.status = Status.SERVER_ACK
  return msg
}

/** The `messages.update` entry of an ack. */
export function buildAckUpdate(
  ref: MsgRef,
  ack: Ack,
  timestampMs?: number,
): BaileysEventMap['messages.update'][number] {
  const update: Partial<WAMessage> = { status: ackToBaileysStatus(ack) }
  if (timestampMs) update.messageTimestamp = Math.floor(timestampMs / 1000)
  return { key: refToKey(ref), update }
}

/** The `message-receipt.update` entry of a group participant's delivery (2), read (4) or play (5). */
export function buildGroupReceipt(
  ref: MsgRef,
  participant: string,
  ack: 2 | 4 | 5,
  timestampMs: number,
): BaileysEventMap['message-receipt.update'][number] {
  const t = Math.floor(timestampMs / 1000)
  const receipt: proto.IUserReceipt = { userJid: participant }
  if (ack === 2) receipt.receiptTimestamp = t
  else if (ack === 4) receipt.readTimestamp = t
  else receipt.playedTimestamp = t
  return { key: refToKey(ref), receipt }
}

/** The `messages.update` entry Baileys emits for an edit (the key id is the original message's). */
export function buildEditUpdate(
  ref: MsgRef,
  body: string,
  timestampMs: number,
): BaileysEventMap['messages.update'][number] {
  return {
    key: refToKey(ref),
    update: {
      message: { editedMessage: { message: { conversation: body } } },
      messageTimestamp: Math.floor(timestampMs / 1000),
    },
  }
}

/** The `messages.update` entry Baileys emits for a delete for everyone. */
export function buildRevokeUpdate(ref: MsgRef): BaileysEventMap['messages.update'][number] {
  return { key: refToKey(ref), update: { message: null, messageStubType: StubType.REVOKE } }
}

/**
 * The `messages.reaction` entry Baileys emits. `target` is the reacted message from OUR point of view;
 * `reactor` the reaction message's key (its `remoteJid` the chat, `participant` who reacted in groups).
 */
export function buildReaction(
  target: MsgRef,
  reactor: { chatJid: string; fromMe: boolean; participant?: string; id?: string },
  emoji: string,
  timestampMs: number,
): BaileysEventMap['messages.reaction'][number] {
  // The target key as Baileys delivers it: after cleanMessage, from our point of view.
  const key: WAMessageKey = { remoteJid: target.chatJid, id: target.id, fromMe: target.fromMe }
  if (target.participant) key.participant = target.participant
  const reactionKey: WAMessageKey = {
    remoteJid: reactor.chatJid,
    fromMe: reactor.fromMe,
    id: reactor.id ?? `R${target.id}`,
  }
  if (reactor.participant) reactionKey.participant = reactor.participant
  return { key, reaction: { key: reactionKey, text: emoji, senderTimestampMs: timestampMs } }
}
