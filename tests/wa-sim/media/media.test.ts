import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import {
  downloadContentFromMessage,
  downloadMediaMessage,
  encryptedStream,
  generateWAMessageContent,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  getWAUploadToServer,
  type MediaConnInfo,
  prepareWAMessageMedia,
  toBuffer,
} from '@whiskeysockets/baileys'
import {
  installSimulatorFetch,
  parseWaSimulatorUrl,
  type WaSimulator,
} from '../../../src/server/channels/baileys/simulator'
import {
  type CustomerMediaKind,
  customerMediaContent,
  decryptMessageMedia,
  MediaStore,
  mediaTypeOf,
} from './index'

// Baileys fetches https://mmg.whatsapp.net/... and https://127.0.0.1:P/...: the product's simulator-mode fetch
// routes both to this server, so these tests go through the same path a simulated Balcão does.
let server: ReturnType<typeof Bun.serve>
let sim: WaSimulator
let restoreFetch: () => void
const store = new MediaStore()
/** The store the server answers with (a failure-mode test swaps in its own). */
let active = store
const seenRanges: string[] = []

beforeAll(() => {
  server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const range = req.headers.get('range')
      if (range) seenRanges.push(range)
      return (await active.handleMediaRequest(req)) ?? new Response('not a media path', { status: 404 })
    },
  })
  sim = parseWaSimulatorUrl(`ws://127.0.0.1:${server.port}/ws/chat`)
  restoreFetch = installSimulatorFetch(sim)
})

afterAll(() => {
  restoreFetch()
  server.stop(true)
})

/** What Baileys's refreshMediaConn builds from the iq result (messages-send.js), from our media_conn node. */
function mediaConnOf(s: MediaStore): MediaConnInfo {
  const node = getBinaryNodeChild(
    { tag: 'iq', attrs: {}, content: [s.mediaConnNode(sim.host)] },
    'media_conn',
  )
  if (!node) throw new Error('no media_conn')
  return {
    hosts: getBinaryNodeChildren(node, 'host').map(({ attrs }) => ({
      hostname: attrs.hostname as string,
      maxContentLengthBytes: +(attrs.maxContentLengthBytes as string),
    })),
    auth: node.attrs.auth as string,
    ttl: +(node.attrs.ttl as string),
    fetchDate: new Date(),
  }
}

const silent = {
  level: 'silent',
  child: () => silent,
  trace() {},
  debug() {},
  info() {},
  warn() {},
  error() {},
}

function uploaderFor(s: MediaStore) {
  return getWAUploadToServer(
    { customUploadHosts: [], fetchAgent: undefined, logger: silent, options: {} } as unknown as Parameters<
      typeof getWAUploadToServer
    >[0],
    async () => mediaConnOf(s),
  )
}

/** Encrypts with Baileys's encryptedStream and uploads through getWAUploadToServer, as a companion sends. */
async function uploadAsCompanion(s: MediaStore, bytes: Uint8Array, timeoutMs?: number) {
  const enc = await encryptedStream(Buffer.from(bytes), 'document')
  const upload = uploaderFor(s)
  const urls = await upload(enc.encFilePath, {
    mediaType: 'document',
    fileEncSha256B64: enc.fileEncSha256.toString('base64'),
    ...(timeoutMs ? { timeoutMs } : {}),
  })
  return { enc, urls }
}

describe('media_conn', () => {
  test('carries the store auth, a ttl and the simulator host', () => {
    const info = mediaConnOf(store)
    expect(info.auth).toBe(store.auth)
    expect(info.ttl).toBeGreaterThan(0)
    expect(info.hosts).toEqual([{ hostname: sim.host, maxContentLengthBytes: 100 * 1024 * 1024 }])
  })
})

describe('customer media, downloaded by Baileys', () => {
  test('downloadContentFromMessage decrypts what uploadForCustomer stored', async () => {
    const photo = new Uint8Array(randomBytes(70_001))
    const fields = await store.uploadForCustomer(photo, 'image', 'image/jpeg')
    expect(fields.fileLength).toBe(photo.length)
    expect(new URL(fields.url).host).toBe('mmg.whatsapp.net')
    const stream = await downloadContentFromMessage(fields, 'image')
    expect(new Uint8Array(await toBuffer(stream))).toEqual(photo)
  })

  test('a ranged download gets the bytes of the range (Range honoured)', async () => {
    const audio = new Uint8Array(randomBytes(10_000))
    const fields = await store.uploadForCustomer(audio, 'audio', 'audio/ogg; codecs=opus')
    seenRanges.length = 0
    const stream = await downloadContentFromMessage(fields, 'audio', { startByte: 1000, endByte: 2000 })
    expect(new Uint8Array(await toBuffer(stream))).toEqual(audio.subarray(1000, 2000))
    expect(seenRanges).toEqual(['bytes=976-2016'])
  })

  test('a download with the wrong key fails (the bytes are really encrypted)', async () => {
    const fields = await store.uploadForCustomer(new Uint8Array(randomBytes(100)), 'image', 'image/jpeg')
    const stream = await downloadContentFromMessage({ ...fields, mediaKey: randomBytes(32) }, 'image')
    await expect(toBuffer(stream)).rejects.toThrow()
  })

  test('unknown and forgotten media are 404; other paths are not the media host', async () => {
    const fields = await store.uploadForCustomer(new Uint8Array(randomBytes(100)), 'video', 'video/mp4')
    expect(store.forget(fields.directPath)).toBe(true)
    const res = await fetch(fields.url)
    expect(res.status).toBe(404)
    expect(await store.handleMediaRequest(new Request('http://x/control/root'))).toBeNull()
    expect(
      await store.handleMediaRequest(new Request('http://x/mms/image/abc', { method: 'PUT' })),
    ).toBeNull()
  })
})

describe('companion uploads, decrypted as the customer device does', () => {
  test('what getWAUploadToServer uploads is stored and decryptUploaded gives the bytes back', async () => {
    const pdf = new Uint8Array(randomBytes(50_000))
    const { enc, urls } = await uploadAsCompanion(store, pdf)
    expect(urls.directPath).toStartWith('/v/')
    expect(store.get(urls.directPath)?.source).toBe('upload')
    const plain = await store.decryptUploaded(
      {
        directPath: urls.directPath,
        mediaKey: enc.mediaKey,
        fileEncSha256: enc.fileEncSha256,
        fileSha256: enc.fileSha256,
      },
      'document',
    )
    expect(plain).toEqual(pdf)
  })

  test('prepareWAMessageMedia (what sendMessage runs) carries fields decryptUploaded accepts, base64 too', async () => {
    const voice = new Uint8Array(randomBytes(4_000))
    const content = await prepareWAMessageMedia(
      { audio: Buffer.from(voice), mimetype: 'audio/ogg; codecs=opus' },
      { upload: uploaderFor(store), logger: silent as never },
    )
    const audio = content.audioMessage
    if (!audio?.mediaKey) throw new Error('no audioMessage')
    expect(await store.decryptUploaded(audio, 'audio')).toEqual(voice)
    const asJson = {
      url: audio.url,
      mediaKey: Buffer.from(audio.mediaKey).toString('base64'),
      fileEncSha256: Buffer.from(audio.fileEncSha256 as Uint8Array).toString('base64'),
    }
    expect(await store.decryptUploaded(asJson, 'audio')).toEqual(voice)
  })

  test('decryptUploaded refuses a wrong key, a wrong kind, a wrong hash and a missing path', async () => {
    const { enc, urls } = await uploadAsCompanion(store, new Uint8Array(randomBytes(300)))
    const fields = { directPath: urls.directPath, mediaKey: enc.mediaKey }
    await expect(store.decryptUploaded({ ...fields, mediaKey: randomBytes(32) }, 'document')).rejects.toThrow(
      /MAC/,
    )
    await expect(store.decryptUploaded(fields, 'image')).rejects.toThrow(/MAC/)
    await expect(
      store.decryptUploaded({ ...fields, fileSha256: randomBytes(32) }, 'document'),
    ).rejects.toThrow(/fileSha256/)
    await expect(store.decryptUploaded({ ...fields, directPath: '/v/none.enc' }, 'document')).rejects.toThrow(
      /no media/,
    )
  })

  test('an upload with the wrong auth or a body that does not hash to its token is refused', async () => {
    const enc = await encryptedStream(Buffer.from(randomBytes(64)), 'image')
    const body = await Bun.file(enc.encFilePath).bytes()
    const token = enc.fileEncSha256.toString('base64url')
    const post = (auth: string, t: string) =>
      store.handleMediaRequest(
        new Request(`http://${sim.host}/mms/image/${t}?auth=${encodeURIComponent(auth)}&token=${t}`, {
          method: 'POST',
          body,
        }),
      )
    expect((await post('wrong', token))?.status).toBe(401)
    expect((await post(store.auth, 'A'.repeat(43)))?.status).toBe(400)
    const ok = await post(store.auth, token)
    expect(ok?.status).toBe(200)
    expect(Object.keys((await ok?.json()) as object)).toContain('direct_path')
  })
})

describe('upload failure modes', () => {
  const bytes = new Uint8Array(randomBytes(2_000))
  /** A store with its own behaviour, served for the length of `run`. */
  async function serving(
    options: ConstructorParameters<typeof MediaStore>[0],
    run: (s: MediaStore) => Promise<void>,
  ) {
    const s = new MediaStore(options)
    active = s
    try {
      await run(s)
    } finally {
      active = store
    }
  }

  test('a failing upload host makes Baileys give up with its error, and the attempt is recorded', async () => {
    await serving({ upload: { failStatus: 500 } }, async (failing) => {
      await expect(uploadAsCompanion(failing, bytes)).rejects.toThrow('Media upload failed on all hosts')
      expect(failing.uploads.map((u) => u.status)).toEqual([500])
    })
  })

  test('a stuck upload times out for its sender and does not hold the next one', async () => {
    await serving({ upload: { stall: true } }, async (stuck) => {
      const first = uploadAsCompanion(stuck, bytes, 300)
      await expect(first).rejects.toThrow('Media upload failed on all hosts')
      await stuck.idle()
      expect(stuck.uploadsInFlight).toBe(0)
      stuck.setUploadBehaviour({})
      const { urls } = await uploadAsCompanion(stuck, bytes)
      expect(stuck.get(urls.directPath)).toBeDefined()
      expect(stuck.uploads.map((u) => u.status)).toEqual([0, 200])
    })
  })

  test('a slow upload answers after its delay; a held one completes when released', async () => {
    await serving({ upload: { delayMs: 150 } }, async (slow) => {
      const started = performance.now()
      await uploadAsCompanion(slow, bytes)
      expect(performance.now() - started).toBeGreaterThanOrEqual(140)

      slow.setUploadBehaviour({ stall: true })
      const held = uploadAsCompanion(slow, bytes)
      await slow.uploadHeld()
      slow.releaseUploads()
      const { urls } = await held
      expect(slow.get(urls.directPath)?.bucket).toBe('document')
    })
  })
})

describe('history blobs', () => {
  test('Baileys downloads and processes them: contacts, names and LID/phone pairs', async () => {
    const { downloadAndProcessHistorySyncNotification, proto } = await import('@whiskeysockets/baileys')
    const notification = await store.historyBlob({
      contacts: [
        { id: '5511999990001@s.whatsapp.net', name: 'Ana', lid: '111111111111111@lid' },
        { id: '222222222222222@lid', name: 'Bia', pn: '5511999990002@s.whatsapp.net' },
        { id: '5511999990003@s.whatsapp.net' },
      ],
      phoneNumberToLidMappings: [{ pn: '5511999990004@s.whatsapp.net', lid: '444444444444444@lid' }],
    })
    // As the phone sends it: inside a protocolMessage, through protobuf.
    const wire = proto.Message.encode({
      protocolMessage: {
        type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
        historySyncNotification: notification,
      },
    }).finish()
    const received = proto.Message.decode(wire).protocolMessage?.historySyncNotification
    if (!received) throw new Error('no notification')
    const data = await downloadAndProcessHistorySyncNotification(received, {})
    expect(data.syncType).toBe(proto.HistorySync.HistorySyncType.INITIAL_BOOTSTRAP)
    expect(data.contacts.map((c) => [c.id, c.name, c.lid, c.phoneNumber])).toEqual([
      ['5511999990001@s.whatsapp.net', 'Ana', '111111111111111@lid', undefined],
      ['222222222222222@lid', 'Bia', undefined, '5511999990002@s.whatsapp.net'],
      ['5511999990003@s.whatsapp.net', undefined, undefined, undefined],
    ])
    expect(data.lidPnMappings).toEqual([
      { lid: '444444444444444@lid', pn: '5511999990004@s.whatsapp.net' },
      { lid: '111111111111111@lid', pn: '5511999990001@s.whatsapp.net' },
      { lid: '222222222222222@lid', pn: '5511999990002@s.whatsapp.net' },
    ])
    expect(store.get(received.directPath as string)?.bucket).toBe('md-app-state')
  })
})

describe('media in messages', () => {
  test("Baileys's downloadMediaMessage reads every kind a customer sends", async () => {
    const mimetypes: Record<CustomerMediaKind, string> = {
      image: 'image/jpeg',
      video: 'video/mp4',
      audio: 'audio/mpeg',
      ptt: 'audio/ogg; codecs=opus',
      document: 'application/pdf',
      sticker: 'image/webp',
    }
    for (const [kind, mimetype] of Object.entries(mimetypes) as [CustomerMediaKind, string][]) {
      const bytes = new Uint8Array(randomBytes(3_000))
      const fields = await store.uploadForCustomer(bytes, mediaTypeOf(kind), mimetype)
      const message = customerMediaContent(kind, fields, {
        caption: 'olha',
        fileName: 'nota.pdf',
        seconds: 3,
      })
      const got = await downloadMediaMessage(
        { key: { id: kind, remoteJid: 'x@s.whatsapp.net' }, message },
        'buffer',
        {},
      )
      expect(new Uint8Array(got)).toEqual(bytes)
    }
  })

  test('decryptMessageMedia reads what Balcão sends: a voice note and a view-once image, wrappers unwrapped', async () => {
    const voice = new Uint8Array(randomBytes(5_000))
    const upload = uploaderFor(store)
    const ptt = await generateWAMessageContent(
      { audio: Buffer.from(voice), ptt: true, seconds: 2, mimetype: 'audio/ogg; codecs=opus' },
      { upload, logger: silent as never },
    )
    const got = await decryptMessageMedia(store, ptt)
    expect(got).toMatchObject({ kind: 'ptt', mimetype: 'audio/ogg; codecs=opus' })
    expect(got?.bytes).toEqual(voice)

    const fields = await store.uploadForCustomer(new Uint8Array(randomBytes(700)), 'image', 'image/png')
    const viewOnce = { viewOnceMessageV2: { message: customerMediaContent('image', fields) } }
    expect((await decryptMessageMedia(store, viewOnce))?.kind).toBe('image')
    expect(await decryptMessageMedia(store, { conversation: 'oi' })).toBeUndefined()
  })

  // Found while building this: Baileys asks the phone to re-upload expired media only when the download error has
  // a numeric `status` (Utils/messages.js, REUPLOAD_REQUIRED_STATUS), but getHttpStream throws a Boom, whose code
  // is in `output.statusCode`. So an expired (404) download fails without ever calling reuploadRequest. If a
  // Baileys release fixes it, this test fails and the product can rely on the re-upload.
  test('Baileys (rc14) never asks for a re-upload when media has expired on the host', async () => {
    const fields = await store.uploadForCustomer(new Uint8Array(randomBytes(300)), 'image', 'image/jpeg')
    store.forget(fields.directPath)
    let reuploads = 0
    const message = {
      key: { id: 'gone', remoteJid: 'x@s.whatsapp.net' },
      message: customerMediaContent('image', fields),
    }
    const download = downloadMediaMessage(
      message,
      'buffer',
      {},
      {
        logger: silent as never,
        reuploadRequest: async (m) => {
          reuploads++
          return m
        },
      },
    )
    await expect(download).rejects.toMatchObject({ output: { statusCode: 404 } })
    expect(reuploads).toBe(0)
  })
})
