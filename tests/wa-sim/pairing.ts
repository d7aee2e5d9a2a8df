/**
 * Registration and linking, as WhatsApp does it now: a ClientPayload without a username is a
 * registration and gets `pair-device` refs (each a QR); a phone that scans a QR (or enters a
 * pairing code) links the companion with `pair-success`, verifies the companion's device
 * signature in its reply, and restarts the stream (515). A ClientPayload with username and
 * device is a login.
 */

import { randomBytes } from 'node:crypto'
import {
  aesDecryptCTR,
  aesDecryptGCM,
  aesEncryptCTR,
  type BinaryNode,
  Curve,
  derivePairingCodeKey,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  hkdf,
  hmacSign,
  type KeyPair,
  proto,
  WA_ADV_ACCOUNT_SIG_PREFIX,
  WA_ADV_DEVICE_SIG_PREFIX,
} from '@whiskeysockets/baileys'
import { ControlError } from './control'
import { IqError } from './iq'
import type { Companion, Phone } from './phones'
import { type CompanionConnection, type Registration, SERVER_JID, type Simulator } from './server'
import { verifyCurveSignature } from './signatures'

const QR_PREFIX = 'https://wa.me/settings/linked_devices#'
/** WhatsApp sends several refs per registration socket; each becomes one QR on the Baileys side. */
export const REFS_PER_REGISTRATION = 6

const nowSeconds = () => String(Math.floor(Date.now() / 1000))
const readUInt = (bytes: Uint8Array | null | undefined): number =>
  bytes ? bytes.reduce((value, byte) => value * 256 + byte, 0) : 0

export type ParsedQr = {
  ref: string
  noiseKey: Buffer
  identityKey: Buffer
  advSecret: string
  platform: string
}

export const parseQr = (qr: string): ParsedQr => {
  const [ref, noise, identity, advSecret, platform] = (
    qr.startsWith(QR_PREFIX) ? qr.slice(QR_PREFIX.length) : qr
  ).split(',')
  if (!ref || !noise || !identity || !advSecret) throw new ControlError(400, 'not a WhatsApp linking QR')
  return {
    ref,
    noiseKey: Buffer.from(noise, 'base64'),
    identityKey: Buffer.from(identity, 'base64'),
    advSecret,
    platform: platform ?? '',
  }
}

/** What the phone answers to a scan or a code; `linked:false` carries why, as the phone would show it. */
export type LinkOutcome =
  | { linked: true; jid: string; lid: string; device: number }
  | {
      linked: false
      reason: 'refreshed' | 'retired-secret' | 'passkey-required' | 'wrong-code' | 'companion-rejected'
      detail: string
    }

// ---------------------------------------------------------------------------------------------
// Client payloads: registration or login
// ---------------------------------------------------------------------------------------------

export const handleClientPayload = async (
  sim: Simulator,
  connection: CompanionConnection,
  noiseKey: Uint8Array,
  payload: proto.ClientPayload,
): Promise<void> => {
  if (payload.username !== null && payload.username !== undefined && Number(payload.username) > 0) {
    await login(sim, connection, noiseKey, String(payload.username), payload.device ?? 0)
    return
  }
  const pairing = payload.devicePairingData
  if (!pairing?.eIdent || !pairing.eSkeyVal || !pairing.eSkeySig)
    throw new Error('registration without pairing data')
  const deviceProps = pairing.deviceProps ? proto.DeviceProps.decode(pairing.deviceProps) : undefined
  const refs = Array.from({ length: REFS_PER_REGISTRATION }, () => `2@${randomBytes(24).toString('base64')}`)
  const registration: Registration = {
    refs,
    noiseKey: Buffer.from(noiseKey),
    identityKey: Buffer.from(pairing.eIdent),
    registrationId: readUInt(pairing.eRegid),
    signedPreKey: {
      keyId: readUInt(pairing.eSkeyId),
      publicKey: Buffer.from(pairing.eSkeyVal),
      signature: Buffer.from(pairing.eSkeySig),
    },
    platform: deviceProps?.os ?? 'unknown',
    retiredAdvSecrets: new Set(),
    refreshSent: false,
  }
  connection.registration = registration
  for (const ref of refs) sim.registrationsByRef.set(ref, connection)
  // Not awaited: the answer arrives on this connection's frame chain, which is running us now.
  connection.send({
    tag: 'iq',
    attrs: { from: SERVER_JID, type: 'set', xmlns: 'md', id: connection.nextId() },
    content: [
      {
        tag: 'pair-device',
        attrs: {},
        content: refs.map((ref) => ({ tag: 'ref', attrs: {}, content: Buffer.from(ref) })),
      },
    ],
  })
}

const login = async (
  sim: Simulator,
  connection: CompanionConnection,
  noiseKey: Uint8Array,
  number: string,
  device: number,
): Promise<void> => {
  const phone = sim.phones.get(number)
  const companion = phone?.companions.get(device)
  if (!phone || !companion || !Buffer.from(companion.noiseKey).equals(Buffer.from(noiseKey))) {
    connection.failure(401)
    return
  }
  if (phone.flags.rejectVersion) {
    connection.failure(405)
    return
  }
  if (phone.offline) {
    // The number is unreachable: the socket closes, Baileys sees a connection closed (428) and retries.
    connection.close()
    return
  }
  const previous = sim.loggedIn.get(companion.jid)
  if (previous && previous !== connection) {
    previous.streamError({}, [{ tag: 'conflict', attrs: { type: 'replaced' } }])
  }
  connection.companion = companion
  sim.loggedIn.set(companion.jid, connection)
  connection.send({
    tag: 'success',
    attrs: {
      t: nowSeconds(),
      lid: `${phone.lidUser}:${companion.device}@lid`,
      props: '1',
      abprops: '1',
      creation: String(Math.floor(companion.linkedAt / 1000)),
      location: 'sim',
      companion_enc_static: Buffer.from(sim.ca.serverStatic.public).toString('base64'),
    },
  })
  for (const hook of sim.onLogin) await hook(connection)
  deliverQueue(sim, phone, connection)
  for (const hook of sim.onOnline) await hook(connection)
}

/** What waited while the companion was away, then the end-of-offline marker Baileys flushes on. */
export const deliverQueue = (sim: Simulator, phone: Phone, connection: CompanionConnection): void => {
  const queued = phone.queue.splice(0)
  for (const node of queued) {
    // Stanzas that waited are marked offline, as WhatsApp does: Baileys upserts such messages as 'append'.
    if (node.tag === 'message' || node.tag === 'receipt' || node.tag === 'notification')
      node.attrs.offline ??= '1'
    connection.send(node)
  }
  connection.send({
    tag: 'ib',
    attrs: { from: SERVER_JID },
    content: [{ tag: 'offline', attrs: { count: String(queued.length) } }],
  })
  sim.log(`delivered ${queued.length} queued stanzas to ${connection.companion?.jid}`)
}

// ---------------------------------------------------------------------------------------------
// Linking: QR scan, pairing code, pair-success
// ---------------------------------------------------------------------------------------------

export const scanQr = async (sim: Simulator, phone: Phone, qr: string): Promise<LinkOutcome> => {
  const parsed = parseQr(qr)
  const connection = sim.registrationsByRef.get(parsed.ref)
  const registration = connection?.registration
  if (!connection || !registration || connection.closed)
    throw new ControlError(404, 'no companion shows this QR now')
  if (!Buffer.from(registration.noiseKey).equals(parsed.noiseKey))
    throw new ControlError(400, 'QR noise key does not match')
  if (phone.flags.passkeyRequired) {
    return {
      linked: false,
      reason: 'passkey-required',
      detail: 'the account requires a passkey to link a device',
    }
  }
  if (registration.retiredAdvSecrets.has(parsed.advSecret)) {
    return {
      linked: false,
      reason: 'retired-secret',
      detail: 'the QR advertises a secret the server retired',
    }
  }
  if (phone.flags.refresh && !registration.refreshSent) {
    // WhatsApp retires the advertised registration material before linking: the companion must
    // rotate its adv secret and show the QR again (Baileys rc14 does not: issue 2737).
    registration.refreshSent = true
    registration.retiredAdvSecrets.add(parsed.advSecret)
    connection.send({
      tag: 'notification',
      attrs: { from: SERVER_JID, type: 'companion_reg_refresh', id: connection.nextId(), t: nowSeconds() },
      content: [{ tag: 'companion_reg_refresh', attrs: {} }],
    })
    return {
      linked: false,
      reason: 'refreshed',
      detail: 'the server refreshed the registration: scan the new QR',
    }
  }
  return pairSuccess(sim, phone, connection, Buffer.from(parsed.advSecret, 'base64'), parsed.identityKey)
}

/**
 * The phone's half of linking: signs the companion's identity with the account key, wraps it in
 * the HMAC keyed by the adv secret, sends `pair-success`, checks the companion's device signature
 * in its answer, records the companion and restarts its stream (515).
 */
export const pairSuccess = async (
  sim: Simulator,
  phone: Phone,
  connection: CompanionConnection,
  advSecret: Uint8Array,
  companionIdentity: Uint8Array,
): Promise<LinkOutcome> => {
  const registration = connection.registration
  if (!registration) throw new ControlError(409, 'the connection is not registering')
  const device = phone.nextDevice
  const deviceDetails = proto.ADVDeviceIdentity.encode({
    rawId: Math.floor(Math.random() * 0x7fffffff),
    timestamp: Math.floor(Date.now() / 1000),
    keyIndex: device,
  }).finish()
  const accountSignature = Curve.sign(
    phone.identity.private,
    Buffer.concat([WA_ADV_ACCOUNT_SIG_PREFIX, deviceDetails, companionIdentity]),
  )
  const signedIdentity = proto.ADVSignedDeviceIdentity.encode({
    details: deviceDetails,
    accountSignatureKey: phone.identity.public,
    accountSignature,
  }).finish()
  const identityHmac = proto.ADVSignedDeviceIdentityHMAC.encode({
    details: signedIdentity,
    hmac: hmacSign(signedIdentity, advSecret),
  }).finish()
  const jid = `${phone.number}:${device}@s.whatsapp.net`
  const lid = `${phone.lidUser}:${device}@lid`
  const reply = await connection
    .query({
      tag: 'iq',
      attrs: { from: SERVER_JID, type: 'set', xmlns: 'md', id: connection.nextId(), t: nowSeconds() },
      content: [
        {
          tag: 'pair-success',
          attrs: {},
          content: [
            { tag: 'device-identity', attrs: {}, content: identityHmac },
            { tag: 'platform', attrs: { name: 'smba' } },
            { tag: 'device', attrs: { jid, lid } },
          ],
        },
      ],
    })
    .catch(() => undefined)
  if (!reply) {
    return { linked: false, reason: 'companion-rejected', detail: 'the companion closed instead of signing' }
  }
  const signed = getBinaryNodeChildBuffer(getBinaryNodeChild(reply, 'pair-device-sign'), 'device-identity')
  if (reply.attrs.type !== 'result' || !signed) {
    return {
      linked: false,
      reason: 'companion-rejected',
      detail: 'the companion did not sign its device identity',
    }
  }
  const account = proto.ADVSignedDeviceIdentity.decode(signed)
  const deviceMessage = Buffer.concat([
    WA_ADV_DEVICE_SIG_PREFIX,
    deviceDetails,
    companionIdentity,
    phone.identity.public,
  ])
  if (
    !account.deviceSignature ||
    !verifyCurveSignature(companionIdentity, deviceMessage, account.deviceSignature)
  ) {
    return {
      linked: false,
      reason: 'companion-rejected',
      detail: 'the companion device signature is invalid',
    }
  }
  const companion = sim.phones.link(phone, {
    noiseKey: registration.noiseKey,
    identityKey: Buffer.from(companionIdentity),
    platform: registration.platform,
    bundle: {
      registrationId: registration.registrationId,
      identityKey: Buffer.from(companionIdentity),
      signedPreKey: registration.signedPreKey,
      preKeys: [],
    },
  })
  connection.streamError({ code: '515' })
  return { linked: true, jid: companion.jid, lid: companion.lid, device: companion.device }
}

// Pairing by code ---------------------------------------------------------------------------------

/** A companion's `companion_hello`, waiting for the phone to enter the code it shows. */
export type PendingLinkCode = {
  connection: CompanionConnection
  ref: Buffer
  wrappedCompanionEphemeral: Buffer
  /** Set once the phone answered: the companion's `companion_finish` completes it. */
  phoneSide?: {
    code: string
    ephemeral: KeyPair
    companionEphemeral: Buffer
    settle: (outcome: Promise<LinkOutcome>) => void
  }
}

export const pendingLinkCodes = new WeakMap<Phone, PendingLinkCode>()

/** Stage 1, `companion_hello`: the companion asks the server to let the phone enter its code. */
export const onCompanionHello = (
  sim: Simulator,
  connection: CompanionConnection,
  node: BinaryNode,
): BinaryNode[] => {
  const hello = getBinaryNodeChild(node, 'link_code_companion_reg')
  const number = (hello?.attrs.jid ?? '').split('@')[0]?.split(':')[0] ?? ''
  const wrapped = getBinaryNodeChildBuffer(hello, 'link_code_pairing_wrapped_companion_ephemeral_pub')
  const phone = sim.phones.get(number)
  if (!phone || !wrapped || !connection.registration) throw new IqError(404, 'item-not-found')
  const ref = Buffer.from(randomBytes(20).toString('base64url'))
  pendingLinkCodes.set(phone, { connection, ref, wrappedCompanionEphemeral: Buffer.from(wrapped) })
  return [
    {
      tag: 'link_code_companion_reg',
      attrs: {},
      content: [{ tag: 'link_code_pairing_ref', attrs: {}, content: ref }],
    },
  ]
}

/** Stage 2: the phone's user typed `code`; the phone sends its wrapped ephemeral and identity. */
export const enterLinkCode = async (phone: Phone, code: string): Promise<LinkOutcome> => {
  const pending = pendingLinkCodes.get(phone)
  if (!pending || pending.connection.closed) throw new ControlError(404, 'no companion is waiting for a code')
  if (phone.flags.passkeyRequired) {
    return {
      linked: false,
      reason: 'passkey-required',
      detail: 'the account requires a passkey to link a device',
    }
  }
  const wrapped = pending.wrappedCompanionEphemeral
  const companionEphemeral = aesDecryptCTR(
    wrapped.subarray(48, 80),
    await derivePairingCodeKey(code, wrapped.subarray(0, 32)),
    wrapped.subarray(32, 48),
  )
  const ephemeral = Curve.generateKeyPair()
  const salt = randomBytes(32)
  const iv = randomBytes(16)
  const wrappedPrimary = Buffer.concat([
    salt,
    iv,
    aesEncryptCTR(ephemeral.public, await derivePairingCodeKey(code, salt), iv),
  ])
  const outcome = new Promise<LinkOutcome>((resolve) => {
    pending.phoneSide = {
      code,
      ephemeral,
      companionEphemeral,
      settle: (settled) => void settled.then(resolve),
    }
  })
  pending.connection.send({
    tag: 'notification',
    attrs: {
      from: SERVER_JID,
      type: 'link_code_companion_reg',
      id: pending.connection.nextId(),
      t: nowSeconds(),
    },
    content: [
      {
        tag: 'link_code_companion_reg',
        attrs: { stage: 'primary_hello' },
        content: [
          { tag: 'link_code_pairing_wrapped_primary_ephemeral_pub', attrs: {}, content: wrappedPrimary },
          { tag: 'primary_identity_pub', attrs: {}, content: phone.identity.public },
          { tag: 'link_code_pairing_ref', attrs: {}, content: pending.ref },
        ],
      },
    ],
  })
  const timeout = new Promise<LinkOutcome>((resolve) =>
    setTimeout(
      () => resolve({ linked: false, reason: 'companion-rejected', detail: 'no companion_finish' }),
      15_000,
    ).unref(),
  )
  return Promise.race([outcome, timeout])
}

/** Stage 3, `companion_finish`: the phone opens the key bundle, derives the adv secret, links. */
export const onCompanionFinish = (
  sim: Simulator,
  connection: CompanionConnection,
  node: BinaryNode,
): BinaryNode[] | undefined => {
  const finish = getBinaryNodeChild(node, 'link_code_companion_reg')
  const number = (finish?.attrs.jid ?? '').split('@')[0]?.split(':')[0] ?? ''
  const phone = sim.phones.get(number)
  const pending = phone ? pendingLinkCodes.get(phone) : undefined
  const phoneSide = pending?.phoneSide
  if (!phone || !pending || !phoneSide || pending.connection !== connection)
    throw new IqError(404, 'item-not-found')
  const bundle = Buffer.from(getBinaryNodeChildBuffer(finish, 'link_code_pairing_wrapped_key_bundle') ?? [])
  const sharedEphemeral = Curve.sharedKey(phoneSide.ephemeral.private, phoneSide.companionEphemeral)
  let opened: Buffer
  try {
    const key = hkdf(sharedEphemeral, 32, {
      salt: bundle.subarray(0, 32),
      info: 'link_code_pairing_key_bundle_encryption_key',
    })
    opened = aesDecryptGCM(bundle.subarray(44), key, bundle.subarray(32, 44), Buffer.alloc(0))
  } catch {
    pendingLinkCodes.delete(phone)
    phoneSide.settle(
      Promise.resolve({ linked: false, reason: 'wrong-code', detail: 'the code does not match' }),
    )
    throw new IqError(400, 'bad-request')
  }
  const companionIdentity = opened.subarray(0, 32)
  const random = opened.subarray(64, 96)
  const identityShared = Curve.sharedKey(phone.identity.private, companionIdentity)
  const advSecret = hkdf(Buffer.concat([sharedEphemeral, identityShared, random]), 32, { info: 'adv_secret' })
  pendingLinkCodes.delete(phone)
  // Answer companion_finish first, then pair-success, as the server does.
  setTimeout(() => phoneSide.settle(pairSuccess(sim, phone, connection, advSecret, companionIdentity)), 0)
  return undefined
}

export type { Companion }
