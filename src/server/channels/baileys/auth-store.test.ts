import { describe, expect, test } from 'bun:test'
import {
  addTransactionCapability,
  Curve,
  makeCacheableSignalKeyStore,
  proto,
  type SignalDataSet,
} from '@whiskeysockets/baileys'
import { whatsapps } from '../../db/schema'
import { createHarness, type Harness } from '../../test/harness'
import { createSqliteAuthState } from './auth-store'

let tokens = 0
function makeConnection(h: Harness, companyId = h.a.id) {
  tokens += 1
  const now = h.clock.now()
  return h.db
    .insert(whatsapps)
    .values({
      companyId,
      name: `WA ${tokens}`,
      token: `tok-${tokens}-${crypto.randomUUID()}`,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
    .get().id
}

function countKeys(h: Harness, whatsappId: number) {
  return (
    h.deps.sqlite.query('SELECT count(*) AS n FROM wa_auth_keys WHERE whatsapp_id = ?').get(whatsappId) as {
      n: number
    }
  ).n
}

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) % 256)

/** One value of every key type Baileys rc14 stores. */
function everyKeyType(): SignalDataSet {
  return {
    'pre-key': { '1': Curve.generateKeyPair() },
    session: { '5511999990000.0': bytes(200, 1) },
    'sender-key': { '120363000000000000@g.us::5511999990000::0': new TextEncoder().encode('{"k":1}') },
    'sender-key-memory': { '120363000000000000@g.us': { '5511999990000:3@s.whatsapp.net': true } },
    'app-state-sync-key': {
      AAAAAQ: proto.Message.AppStateSyncKeyData.fromObject({
        keyData: bytes(32, 3),
        fingerprint: { rawId: 7, currentIndex: 1, deviceIndexes: [0, 1] },
        timestamp: 1_700_000_000,
      }),
    },
    'app-state-sync-version': {
      regular_high: {
        version: 12,
        hash: Buffer.from(bytes(128, 4)),
        indexValueMap: { abc: { valueMac: bytes(32, 5) } },
      },
    },
    'lid-mapping': { '5511999990000': '123456789012345', '123456789012345_reverse': '5511999990000' },
    'device-list': { '5511999990000': ['0', '3', '12'] },
    tctoken: {
      '123456789012345@lid': {
        token: Buffer.from(bytes(24, 6)),
        timestamp: '1700000000',
        senderTimestamp: 1_700_000_001,
      },
      __index: { token: Buffer.from('index'), timestamp: '0' },
    },
    'identity-key': { '5511999990000.0': bytes(33, 8) },
  }
}

describe('SQLite auth state', () => {
  test('every rc14 key type round-trips, bytes intact, and null deletes', async () => {
    const h = await createHarness()
    const wa = makeConnection(h)
    const auth = await createSqliteAuthState(h.deps, wa)
    expect(auth.hasCreds).toBe(false)
    const data = everyKeyType()
    await auth.state.keys.set(data)
    expect(countKeys(h, wa)).toBe(12)

    for (const type of Object.keys(data) as (keyof typeof data)[]) {
      const wanted = data[type] as Record<string, unknown>
      const got = (await auth.state.keys.get(type, [...Object.keys(wanted), 'missing-id'])) as Record<
        string,
        unknown
      >
      expect(Object.keys(got).sort()).toEqual(Object.keys(wanted).sort())
      for (const id of Object.keys(wanted)) {
        if (type === 'app-state-sync-key') continue // checked below as a proto object
        expect(got[id]).toEqual(wanted[id])
      }
    }
    const pre = (await auth.state.keys.get('pre-key', ['1']))['1']
    expect(pre?.public).toBeInstanceOf(Uint8Array)
    expect(Buffer.from(pre?.private ?? []).equals(Buffer.from(data['pre-key']?.['1']?.private ?? []))).toBe(
      true,
    )
    const session = (await auth.state.keys.get('session', ['5511999990000.0']))['5511999990000.0']
    expect(session).toBeInstanceOf(Uint8Array)
    expect([...(session ?? [])]).toEqual([...bytes(200, 1)])
    const version = (await auth.state.keys.get('app-state-sync-version', ['regular_high'])).regular_high
    expect(Buffer.isBuffer(version?.hash)).toBe(true)

    await auth.state.keys.set({
      session: { '5511999990000.0': null },
      'lid-mapping': { '5511999990000': null },
    })
    expect(await auth.state.keys.get('session', ['5511999990000.0'])).toEqual({})
    expect(await auth.state.keys.get('lid-mapping', ['5511999990000', '123456789012345_reverse'])).toEqual({
      '123456789012345_reverse': '5511999990000',
    })
    expect(countKeys(h, wa)).toBe(10)
  })

  test('app-state-sync-key is revived as a proto object', async () => {
    const h = await createHarness()
    const auth = await createSqliteAuthState(h.deps, makeConnection(h))
    await auth.state.keys.set({ 'app-state-sync-key': everyKeyType()['app-state-sync-key'] })
    const key = (await auth.state.keys.get('app-state-sync-key', ['AAAAAQ'])).AAAAAQ
    expect(key).toBeInstanceOf(proto.Message.AppStateSyncKeyData)
    expect([...(key?.keyData ?? [])]).toEqual([...bytes(32, 3)])
    expect(key?.fingerprint).toBeInstanceOf(proto.Message.AppStateSyncKeyFingerprint)
    expect(key?.fingerprint?.rawId).toBe(7)
    // it encodes like the original
    const encoded = proto.Message.AppStateSyncKeyData.encode(
      key as proto.Message.AppStateSyncKeyData,
    ).finish()
    expect(encoded.length).toBeGreaterThan(32)
  })

  test('812 pre-keys in one set call; reads chunk past 500 ids; upsert overwrites', async () => {
    const h = await createHarness()
    const wa = makeConnection(h)
    const auth = await createSqliteAuthState(h.deps, wa)
    const batch: Record<string, { public: Uint8Array; private: Uint8Array }> = {}
    for (let id = 1; id <= 812; id++) batch[String(id)] = Curve.generateKeyPair()
    const started = performance.now()
    await auth.state.keys.set({ 'pre-key': batch })
    const ms = performance.now() - started
    console.log(`set of 812 pre-keys: ${ms.toFixed(1)} ms`)
    expect(countKeys(h, wa)).toBe(812)

    const ids = Object.keys(batch)
    const readStarted = performance.now()
    const got = await auth.state.keys.get('pre-key', [...ids, '9999'])
    console.log(`get of 813 pre-key ids: ${(performance.now() - readStarted).toFixed(1)} ms`)
    expect(Object.keys(got).length).toBe(812)
    expect(Buffer.from(got['812']?.public ?? []).equals(Buffer.from(batch['812']?.public ?? []))).toBe(true)
    // odd chunk sizes (padding of the IN list) answer exactly the ids asked
    expect(Object.keys(await auth.state.keys.get('pre-key', ['3', '5', '7'])).sort()).toEqual(['3', '5', '7'])

    const replacement = Curve.generateKeyPair()
    await auth.state.keys.set({ 'pre-key': { '5': replacement } })
    const five = (await auth.state.keys.get('pre-key', ['5']))['5']
    expect(Buffer.from(five?.public ?? []).equals(Buffer.from(replacement.public))).toBe(true)
    expect(countKeys(h, wa)).toBe(812)
  })

  test('a restart resumes without a new QR: saved creds come back from a new auth state', async () => {
    const h = await createHarness()
    const wa = makeConnection(h)
    const first = await createSqliteAuthState(h.deps, wa)
    expect(first.hasCreds).toBe(false)
    // Baileys mutates creds in place on creds.update
    Object.assign(first.state.creds, {
      registered: true,
      me: { id: '5511999990000:12@s.whatsapp.net', lid: '123456789012345:12@lid', name: 'Loja' },
      routingInfo: Buffer.from([1, 2, 3]),
      nextPreKeyId: 813,
      firstUnuploadedPreKeyId: 813,
    })
    first.saveCreds()
    await first.state.keys.set({ session: { '5511999990000.0': bytes(10, 9) } })

    const second = await createSqliteAuthState(h.deps, wa)
    expect(second.hasCreds).toBe(true)
    const a = first.state.creds
    const b = second.state.creds
    expect(b.registered).toBe(true)
    expect(b.me).toEqual(a.me as NonNullable<typeof a.me>)
    expect(b.nextPreKeyId).toBe(813)
    expect(Buffer.isBuffer(b.noiseKey.private)).toBe(true)
    expect(Buffer.from(b.noiseKey.private).equals(Buffer.from(a.noiseKey.private))).toBe(true)
    expect(Buffer.from(b.noiseKey.public).equals(Buffer.from(a.noiseKey.public))).toBe(true)
    expect(Buffer.from(b.signedIdentityKey.private).equals(Buffer.from(a.signedIdentityKey.private))).toBe(
      true,
    )
    expect(Buffer.from(b.signedPreKey.signature).equals(Buffer.from(a.signedPreKey.signature))).toBe(true)
    expect(b.registrationId).toBe(a.registrationId)
    expect(b.advSecretKey).toBe(a.advSecretKey)
    expect([...(b.routingInfo ?? [])]).toEqual([1, 2, 3])
    expect(Object.keys(await second.state.keys.get('session', ['5511999990000.0']))).toEqual([
      '5511999990000.0',
    ])

    // a later save overwrites the row
    second.state.creds.me = { id: '5511999990000:13@s.whatsapp.net' }
    second.saveCreds()
    const third = await createSqliteAuthState(h.deps, wa)
    expect(third.state.creds.me?.id).toBe('5511999990000:13@s.whatsapp.net')
  })

  test('clear() wipes only that connection', async () => {
    const h = await createHarness()
    const mine = makeConnection(h)
    const other = makeConnection(h)
    const otherCompany = makeConnection(h, h.b.id)
    const states = await Promise.all(
      [mine, other, otherCompany].map((id) => createSqliteAuthState(h.deps, id)),
    )
    for (const s of states) {
      s.saveCreds()
      await s.state.keys.set(everyKeyType())
    }
    // same ids under different connections are separate rows
    expect(countKeys(h, mine)).toBe(12)
    expect(countKeys(h, other)).toBe(12)

    states[0]?.clear()
    expect(countKeys(h, mine)).toBe(0)
    expect((await createSqliteAuthState(h.deps, mine)).hasCreds).toBe(false)
    expect(countKeys(h, other)).toBe(12)
    expect(countKeys(h, otherCompany)).toBe(12)
    const again = await createSqliteAuthState(h.deps, other)
    expect(again.hasCreds).toBe(true)
    expect(Object.keys(await again.state.keys.get('pre-key', ['1']))).toEqual(['1'])
  })

  test('a set that fails midway leaves no partial writes', async () => {
    const h = await createHarness()
    const wa = makeConnection(h)
    const auth = await createSqliteAuthState(h.deps, wa)
    await auth.state.keys.set({ session: { keep: bytes(4, 1), gone: bytes(4, 2) } })

    const poisoned = {
      toJSON() {
        throw new Error('cannot serialize')
      },
    }
    const data = {
      'pre-key': { '1': Curve.generateKeyPair(), '2': Curve.generateKeyPair() },
      session: { keep: bytes(4, 3), gone: null, bad: poisoned },
      'identity-key': { x: bytes(33, 1) },
    } as unknown as SignalDataSet
    expect(() => auth.state.keys.set(data)).toThrow('cannot serialize')

    expect(countKeys(h, wa)).toBe(2)
    expect(await auth.state.keys.get('pre-key', ['1', '2'])).toEqual({})
    const sessions = await auth.state.keys.get('session', ['keep', 'gone'])
    expect(Object.keys(sessions).sort()).toEqual(['gone', 'keep'])
    expect([...(sessions.keep ?? [])]).toEqual([...bytes(4, 1)])
  })

  test("works under Baileys' own makeCacheableSignalKeyStore and addTransactionCapability", async () => {
    const h = await createHarness()
    const wa = makeConnection(h)
    const auth = await createSqliteAuthState(h.deps, wa)
    const logger = {
      level: 'silent',
      child: () => logger,
      trace() {},
      debug() {},
      info() {},
      warn() {},
      error() {},
    }
    const cached = makeCacheableSignalKeyStore(auth.state.keys, logger)
    const keys = addTransactionCapability(cached, logger, { maxCommitRetries: 2, delayBetweenTriesMs: 1 })

    await keys.transaction(async () => {
      await keys.set({ session: { 'a.0': bytes(8, 1) }, 'pre-key': { '1': Curve.generateKeyPair() } })
      // inside the transaction reads see the pending writes, the database does not yet
      expect(Object.keys(await keys.get('session', ['a.0']))).toEqual(['a.0'])
      expect(countKeys(h, wa)).toBe(0)
    }, 'test-key')
    expect(countKeys(h, wa)).toBe(2)

    await keys.set({ 'pre-key': { '1': null } })
    expect(countKeys(h, wa)).toBe(1)
    // the cache remembers the deletion as null (Baileys tests truthiness)
    expect((await keys.get('pre-key', ['1']))['1']).toBeFalsy()
    // a fresh (uncached) store over the same rows sees what the wrapped one committed
    const fresh = await createSqliteAuthState(h.deps, wa)
    expect(await fresh.state.keys.get('pre-key', ['1'])).toEqual({})
    const session = (await fresh.state.keys.get('session', ['a.0']))['a.0']
    expect([...(session ?? [])]).toEqual([...bytes(8, 1)])

    // addTransactionCapability does not pass clear() through; the cacheable layer does
    expect(keys.clear).toBeUndefined()
    await cached.clear?.()
    expect(countKeys(h, wa)).toBe(0)
  })
})
