/**
 * The answers to the iqs a companion sends during linking and after login: keep-alive, passive,
 * pre-key count / upload / digest / rotate, props, blocklist, privacy, dirty, app-state sync,
 * media_conn, logout, pairing by code. Other parts add or override handlers on `sim.iq`.
 */
import {
  type BinaryNode,
  encodeBigEndian,
  getBinaryNodeChild,
  getBinaryNodeChildBuffer,
  getBinaryNodeChildren,
  KEY_BUNDLE_TYPE,
} from '@whiskeysockets/baileys'
import { IqError } from './iq'
import { onCompanionFinish, onCompanionHello } from './pairing'
import type { Companion } from './phones'
import type { CompanionConnection, Simulator } from './server'

const readUInt = (bytes: Uint8Array | undefined): number =>
  bytes ? bytes.reduce((value, byte) => value * 256 + byte, 0) : 0

const requireCompanion = (connection: CompanionConnection): Companion => {
  if (!connection.companion) throw new IqError(401, 'not-authorized')
  return connection.companion
}

const readSignedPreKey = (skey: BinaryNode | undefined) => {
  const publicKey = getBinaryNodeChildBuffer(skey, 'value')
  const signature = getBinaryNodeChildBuffer(skey, 'signature')
  if (!publicKey || !signature) throw new IqError(400, 'bad-request')
  return {
    keyId: readUInt(getBinaryNodeChildBuffer(skey, 'id')),
    publicKey: Buffer.from(publicKey),
    signature: Buffer.from(signature),
  }
}

export const registerDefaultIqHandlers = (sim: Simulator): void => {
  const { iq } = sim
  iq.on('w:p', 'get', () => undefined)
  iq.on('passive', 'set', () => undefined)
  iq.on('urn:xmpp:whatsapp:dirty', 'set', () => undefined)
  iq.on('w:stats', '', () => undefined)

  // Pre-keys: count, upload, digest, rotate ----------------------------------------------------
  iq.on(
    'encrypt',
    'get',
    ({ connection }) => {
      const companion = requireCompanion(connection)
      return [{ tag: 'count', attrs: { value: String(companion.bundle.preKeys.length) } }]
    },
    'count',
  )
  iq.on(
    'encrypt',
    'get',
    ({ connection }) => {
      const { bundle } = requireCompanion(connection)
      return [
        {
          tag: 'digest',
          attrs: {},
          content: [
            { tag: 'registration', attrs: {}, content: encodeBigEndian(bundle.registrationId) },
            { tag: 'type', attrs: {}, content: KEY_BUNDLE_TYPE },
            { tag: 'identity', attrs: {}, content: bundle.identityKey },
            {
              tag: 'skey',
              attrs: {},
              content: [
                { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.signedPreKey.keyId, 3) },
                { tag: 'value', attrs: {}, content: bundle.signedPreKey.publicKey },
                { tag: 'signature', attrs: {}, content: bundle.signedPreKey.signature },
              ],
            },
          ],
        },
      ]
    },
    'digest',
  )
  // The upload's first child is `registration`.
  iq.on(
    'encrypt',
    'set',
    ({ connection, node }) => {
      const companion = requireCompanion(connection)
      const identity = getBinaryNodeChildBuffer(node, 'identity')
      if (!identity) throw new IqError(400, 'bad-request')
      const preKeys = getBinaryNodeChildren(getBinaryNodeChild(node, 'list'), 'key').map((key) => ({
        keyId: readUInt(getBinaryNodeChildBuffer(key, 'id')),
        publicKey: Buffer.from(getBinaryNodeChildBuffer(key, 'value') ?? []),
      }))
      const known = new Set(companion.bundle.preKeys.map((key) => key.keyId))
      companion.bundle = {
        registrationId: readUInt(getBinaryNodeChildBuffer(node, 'registration')),
        identityKey: Buffer.from(identity),
        signedPreKey: readSignedPreKey(getBinaryNodeChild(node, 'skey')),
        preKeys: [...companion.bundle.preKeys, ...preKeys.filter((key) => !known.has(key.keyId))],
      }
      return undefined
    },
    'registration',
  )
  iq.on(
    'encrypt',
    'set',
    ({ connection, node }) => {
      const companion = requireCompanion(connection)
      companion.bundle.signedPreKey = readSignedPreKey(
        getBinaryNodeChild(getBinaryNodeChild(node, 'rotate'), 'skey'),
      )
      return undefined
    },
    'rotate',
  )

  // What Baileys asks on open -------------------------------------------------------------------
  iq.on('abt', 'get', () => [
    { tag: 'props', attrs: { protocol: '1', hash: 'sim', refresh: '86400' }, content: [] },
  ])
  iq.on('w', 'get', () => [{ tag: 'props', attrs: { protocol: '2', hash: 'sim' }, content: [] }])
  iq.on('blocklist', 'get', () => [{ tag: 'list', attrs: {}, content: [] }])
  iq.on('privacy', 'get', () => [
    {
      tag: 'privacy',
      attrs: {},
      content: ['last', 'online', 'profile', 'status', 'readreceipts', 'groupadd', 'calladd'].map((name) => ({
        tag: 'category',
        attrs: { name, value: name === 'readreceipts' ? 'all' : 'contacts' },
      })),
    },
  ])
  iq.on('privacy', 'set', () => undefined)
  iq.on('disappearing_mode', 'set', () => undefined)
  // An empty server state for every collection asked: Baileys sees nothing to sync.
  iq.on('w:sync:app:state', 'set', ({ node }) => {
    const collections = getBinaryNodeChildren(getBinaryNodeChild(node, 'sync'), 'collection')
    return [
      {
        tag: 'sync',
        attrs: {},
        content: collections.map((collection) => ({
          tag: 'collection',
          attrs: {
            name: collection.attrs.name ?? '',
            version: collection.attrs.version ?? '0',
            has_more_patches: 'false',
          },
        })),
      },
    ]
  })
  iq.on('w:m', 'set', ({ sim }) => [
    {
      tag: 'media_conn',
      attrs: { auth: 'sim-media-auth', ttl: '300', auth_ttl: '3600', max_buckets: '12' },
      content: [
        { tag: 'host', attrs: { hostname: `127.0.0.1:${sim.port}`, maxContentLengthBytes: '104857600' } },
      ],
    },
  ])

  // Nobody has a profile picture here: Baileys's profilePictureUrl reads 404 as "none".
  iq.on('w:profile:picture', 'get', () => {
    throw new IqError(404, 'item-not-found')
  })

  // Linking --------------------------------------------------------------------------------------
  iq.on(
    'md',
    'set',
    ({ sim, connection, node }) => {
      const removed = getBinaryNodeChild(node, 'remove-companion-device')
      const companion = connection.companion
      if (
        companion &&
        removed?.attrs.jid &&
        removed.attrs.jid.split('@')[0] === companion.jid.split('@')[0]
      ) {
        sim.phones.unlink(companion)
      }
      return undefined
    },
    'remove-companion-device',
  )
  iq.on(
    'md',
    'set',
    ({ sim, connection, node }) => {
      const stage = getBinaryNodeChild(node, 'link_code_companion_reg')?.attrs.stage
      if (stage === 'companion_hello') return onCompanionHello(sim, connection, node)
      if (stage === 'companion_finish') return onCompanionFinish(sim, connection, node)
      throw new IqError(400, 'bad-request')
    },
    'link_code_companion_reg',
  )
}
