/**
 * Transcription through the local fake of the OpenAI API: `POST /test/audio` and `POST /messages/{id}/transcribe`
 * (the text kept on the message, shown in the conversation and published live), which key is used, and every
 * failure as a clear 4xx or 502 (never a 500).
 */
import { afterEach, describe, expect, test } from 'bun:test'
import { storeMedia } from '../../media/store'
import { samples } from '../../media/testing'
import { createHarness, type Harness, LOCAL_FAKES_ENV } from '../../test/harness'
import { uploadTo } from '../../test/probe'
import { addMessage } from '../messages/testing'
import { makeContact, makeTicket } from '../tickets/testing'
import { startOpenAiFake } from './testing'

const stops: (() => void)[] = []
afterEach(() => {
  for (const s of stops.splice(0)) s()
})

async function waitFor(check: () => boolean, what: string) {
  for (let i = 0; i < 400 && !check(); i++) await Bun.sleep(5)
  if (!check()) throw new Error(`timed out waiting for ${what}`)
}

const mp3 = () => new File([samples.mp3()], 'gravacao.mp3', { type: 'audio/mpeg' })

async function setup(handler?: NonNullable<Parameters<typeof startOpenAiFake>[0]>['transcribe']) {
  const fake = startOpenAiFake({ transcribe: handler })
  stops.push(fake.stop)
  const h = await createHarness({ env: LOCAL_FAKES_ENV })
  const admin = await h.as(h.a.admin)
  const general = h.makeQueue(h.a.id, { name: 'Geral' })
  const sales = h.makeQueue(h.a.id, { name: 'Vendas' })
  const first = await admin.post('/prompt', {
    name: 'Primeiro',
    prompt: 'Geral',
    queueId: general.id,
    apiKey: 'sk-first-key-0000000000001',
    baseUrl: fake.baseUrl,
  })
  const salesPrompt = await admin.post('/prompt', {
    name: 'Vendas',
    prompt: 'Vendas',
    queueId: general.id,
    apiKey: 'sk-sales-key-0000000000002',
    baseUrl: fake.baseUrl,
  })
  h.deps.sqlite.query('UPDATE queues SET prompt_id = ? WHERE id = ?').run(salesPrompt.body.id, sales.id)
  return { h, admin, fake, general, sales, firstId: first.body.id as number }
}

/** A received voice note stored on a pending ticket of `queueId`. */
function voiceNote(h: Harness, queueId: number | null, fields: { fromMe?: boolean; stored?: boolean } = {}) {
  const contact = makeContact(h, h.a.id)
  const ticket = makeTicket(h, h.a.id, { contactId: contact.id, queueId })
  const id = addMessage(h, ticket, { body: '', mediaType: 'audio', fromMe: fields.fromMe })
  const stored = storeMedia(h.deps, h.a.id, samples.mp3(), { mime: 'audio/ogg' })
  h.deps.sqlite
    .query(
      `UPDATE messages SET media_state = ?, media_path = ?, media_mime = 'audio/ogg; codecs=opus', ptt = 1,
              media_size = ? WHERE id = ?`,
    )
    .run(fields.stored === false ? 'pending' : 'stored', stored.path, stored.size, id)
  return { ticket, id }
}

describe('transcription', () => {
  test('POST /test/audio: the file and model go to the endpoint with the company’s key; answers { text }', async () => {
    const s = await setup(() => 'Bom dia, quero um orçamento.')
    const res = await uploadTo(s.h, '/test/audio', s.admin.token, [{ name: 'audio', value: mp3() }])
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ text: 'Bom dia, quero um orçamento.' })
    expect(s.fake.transcriptions).toEqual([
      {
        authorization: 'Bearer sk-first-key-0000000000001',
        model: 'whisper-1',
        fileName: 'gravacao.mp3',
        fileType: 'audio/mpeg',
        fileSize: samples.mp3().byteLength,
      },
    ])
    // an attendant may test too; `file` is accepted as the field name
    const agent = await s.h.as(s.h.a.attendant)
    const other = await uploadTo(s.h, '/test/audio', agent.token, [{ name: 'file', value: mp3() }])
    expect(other.status).toBe(200)
    // BALCAO_AI_TRANSCRIBE_MODEL
    ;(s.h.deps.env as Record<string, string>).BALCAO_AI_TRANSCRIBE_MODEL = 'whisper-large-v3'
    await uploadTo(s.h, '/test/audio', s.admin.token, [{ name: 'audio', value: mp3() }])
    expect(s.fake.transcriptions[2]!.model).toBe('whisper-large-v3')
  })

  test('POST /test/audio takes a recording larger than the 2 MiB of a JSON body (audio’s own limit applies)', async () => {
    const s = await setup(() => 'Uma gravação longa.')
    const long = new Uint8Array(3 * 1024 * 1024)
    long.set(samples.mp3())
    const file = new File([long], 'longa.mp3', { type: 'audio/mpeg' })
    const res = await uploadTo(s.h, '/test/audio', s.admin.token, [{ name: 'audio', value: file }])
    expect(res.status).toBe(200)
    expect(s.fake.transcriptions[0]?.fileSize).toBe(3 * 1024 * 1024)
  })

  test('transcribing a voice note keeps the text on the message, shows it in the conversation and publishes it', async () => {
    const s = await setup(() => 'Quero saber o preço da entrega.')
    const note = voiceNote(s.h, s.sales.id)
    const events = s.h.recordEvents()
    const res = await s.admin.post(`/messages/${note.id}/transcribe`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: note.id,
      transcription: 'Quero saber o preço da entrega.',
      ptt: true,
    })
    // the queue's prompt's key
    expect(s.fake.transcriptions[0]!.authorization).toBe('Bearer sk-sales-key-0000000000002')
    expect(s.fake.transcriptions[0]!.fileType).toBe('audio/ogg')
    const stored = s.h.deps.sqlite
      .query<{ transcription: string }, [number]>('SELECT transcription FROM messages WHERE id = ?')
      .get(note.id)!
    expect(stored.transcription).toBe('Quero saber o preço da entrega.')
    const page = await s.admin.get(`/messages/${note.ticket.id}`)
    expect(page.body.messages.find((m: { id: number }) => m.id === note.id).transcription).toBe(
      'Quero saber o preço da entrega.',
    )
    const live = events.filter((e) => e.event === `company-${s.h.a.id}-appMessage`)
    expect(live.length).toBeGreaterThan(0)
    expect(live[0]!.data).toMatchObject({
      action: 'update',
      message: { id: note.id, transcription: 'Quero saber o preço da entrega.' },
    })
    // a ticket without a queue: the company's first prompt
    const plain = voiceNote(s.h, null)
    expect((await s.admin.post(`/messages/${plain.id}/transcribe`)).status).toBe(200)
    expect(s.fake.transcriptions[1]!.authorization).toBe('Bearer sk-first-key-0000000000001')
  })

  test('refusals: another company 404, a ticket the user may not see 403, not a received stored audio 400', async () => {
    const s = await setup()
    const note = voiceNote(s.h, s.sales.id)
    const theirs = await (await s.h.as(s.h.b.admin)).post(`/messages/${note.id}/transcribe`)
    expect(theirs.status).toBe(404)
    expect(theirs.body.error).toBe('ERR_NO_MESSAGE_FOUND')
    const agent = await s.h.as(s.h.a.attendant)
    const hidden = await agent.post(`/messages/${note.id}/transcribe`)
    expect(hidden.status).toBe(403)
    const contact = makeContact(s.h, s.h.a.id)
    const ticket = makeTicket(s.h, s.h.a.id, { contactId: contact.id, queueId: s.sales.id })
    const text = addMessage(s.h, ticket, { body: 'só texto' })
    for (const id of [
      text,
      voiceNote(s.h, s.sales.id, { fromMe: true }).id,
      voiceNote(s.h, s.sales.id, { stored: false }).id,
    ]) {
      const res = await s.admin.post(`/messages/${id}/transcribe`)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe('ERR_VALIDATION')
    }
    expect(s.fake.transcriptions).toHaveLength(0)
  })

  test('no prompt with a key is a 400; the endpoint failing, answering junk or not answering is a 502', async () => {
    let mode: 'error' | 'echo' | 'junk' | 'hang' = 'error'
    const s = await setup((req) =>
      mode === 'error'
        ? new Response(JSON.stringify({ error: { message: 'Invalid file format.' } }), { status: 400 })
        : mode === 'echo'
          ? new Response(JSON.stringify({ error: `Bad key ${req.authorization}` }), { status: 401 })
          : mode === 'junk'
            ? { nope: true }
            : 'hang',
    )
    const note = voiceNote(s.h, s.sales.id)
    const failed = await s.admin.post(`/messages/${note.id}/transcribe`)
    expect(failed.status).toBe(502)
    expect(failed.body.error).toBe('ERR_AI_REQUEST_FAILED')
    // the status class only: what the endpoint wrote stays in the server's log
    expect(failed.body.message).toContain('4xx')
    expect(failed.body.message).not.toContain('Invalid file format.')
    // a server that echoes the key never gets it to the browser
    mode = 'echo'
    const echoed = await s.admin.post(`/messages/${note.id}/transcribe`)
    expect(echoed.status).toBe(502)
    expect(JSON.stringify(echoed.body)).not.toContain('sk-sales-key')
    mode = 'junk'
    const junk = await uploadTo(s.h, '/test/audio', s.admin.token, [{ name: 'audio', value: mp3() }])
    expect(junk.status).toBe(502)
    mode = 'hang'
    const pending = s.admin.post(`/messages/${note.id}/transcribe`)
    await waitFor(() => s.fake.transcriptions.length === 4, 'the request')
    s.h.clock.advance(30_000)
    const silent = await pending
    expect(silent.status).toBe(502)
    expect(silent.body.message).toContain('no answer within 30 s')
    expect(
      s.h.deps.sqlite
        .query<{ transcription: string | null }, [number]>('SELECT transcription FROM messages WHERE id = ?')
        .get(note.id)!.transcription,
    ).toBeNull()

    // no key anywhere in the company
    s.h.deps.sqlite.query("UPDATE prompts SET api_key = ''").run()
    const none = await s.admin.post(`/messages/${note.id}/transcribe`)
    expect(none.status).toBe(400)
    expect(none.body.error).toBe('ERR_AI_NOT_CONFIGURED')
  })
})
