/**
 * `/prompt`: CRUD with the spec's defaults, validation, keys sealed in the database and never answered in clear
 * (masked, kept when the mask comes back), live events to admins, another company's ids 404, attendants and the
 * plan flag off refused, and queues and connections that may name a prompt of their own company only.
 */
import { describe, expect, test } from 'bun:test'
import { plans } from '../../db/schema'
import { createHarness, type Harness } from '../../test/harness'

const API_KEY = 'sk-test-0123456789abcdefWXYZ'
const VOICE_KEY = 'voice-secret-key-987654321'

async function setup() {
  const h = await createHarness()
  const admin = await h.as(h.a.admin)
  const queue = h.makeQueue(h.a.id, { name: 'Vendas' })
  const body = {
    name: 'Assistente de vendas',
    prompt: 'Você é o assistente da loja. Responda em português, com frases curtas e educadas.',
    queueId: queue.id,
    apiKey: API_KEY,
  }
  return { h, admin, queue, body }
}

const rawRow = (h: Harness, id: number) =>
  h.deps.sqlite
    .query<{ apiKey: string; voiceKey: string }, [number]>(
      'SELECT api_key AS apiKey, voice_key AS voiceKey FROM prompts WHERE id = ?',
    )
    .get(id)!

describe('prompts', () => {
  test('create with the defaults; listed with its queue; get, update, delete', async () => {
    const { h, admin, queue, body } = await setup()
    const created = await admin.post('/prompt', body)
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      name: 'Assistente de vendas',
      queueId: queue.id,
      queue: { id: queue.id, name: 'Vendas' },
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      voice: 'texto',
      voiceKey: '',
      voiceKeySet: false,
      voiceRegion: '',
      apiKey: 'sk-…WXYZ',
      apiKeySet: true,
      baseUrl: '',
      model: '',
    })
    const id = created.body.id as number
    const list = await admin.get('/prompt')
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ count: 1, hasMore: false })
    expect(list.body.prompts.map((p: { id: number }) => p.id)).toEqual([id])
    expect(list.body.prompts[0].queue).toEqual({ id: queue.id, name: 'Vendas' })
    expect((await admin.get(`/prompt/${id}`)).body.name).toBe('Assistente de vendas')

    const other = h.makeQueue(h.a.id, { name: 'Suporte' })
    const updated = await admin.put(`/prompt/${id}`, {
      ...body,
      name: 'Suporte IA',
      queueId: other.id,
      maxTokens: 250,
      temperature: 0.3,
      maxMessages: 4,
      voice: 'pt-BR-FranciscaNeural',
      voiceRegion: 'brazilsouth',
      baseUrl: 'http://127.0.0.1:11434/v1/',
      model: 'llama3.1',
      apiKey: 'sk-…WXYZ',
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({
      name: 'Suporte IA',
      queue: { id: other.id, name: 'Suporte' },
      maxTokens: 250,
      temperature: 0.3,
      maxMessages: 4,
      voice: 'pt-BR-FranciscaNeural',
      voiceRegion: 'brazilsouth',
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1',
      apiKeySet: true,
    })
    // search
    expect((await admin.get('/prompt?searchParam=suporte')).body.count).toBe(1)
    expect((await admin.get('/prompt?searchParam=nada')).body.prompts).toEqual([])

    const deleted = await admin.del(`/prompt/${id}`)
    expect(deleted.status).toBe(200)
    expect(typeof deleted.body.message).toBe('string')
    expect((await admin.get(`/prompt/${id}`)).status).toBe(404)
    expect((await admin.get('/prompt')).body).toMatchObject({ prompts: [], count: 0 })
  })

  test('validation: the queue is required and must be the company’s; numbers in range; voice from the list', async () => {
    const { h, admin, body } = await setup()
    const theirs = h.makeQueue(h.b.id, { name: 'Deles' })
    const cases: [Record<string, unknown>, string][] = [
      [{ ...body, queueId: undefined }, 'queueId'],
      [{ ...body, queueId: null }, 'queueId'],
      [{ ...body, queueId: theirs.id }, 'queueId'],
      [{ ...body, queueId: 999_999 }, 'queueId'],
      [{ ...body, name: '' }, 'name'],
      [{ ...body, name: '   ' }, 'name'],
      [{ ...body, prompt: '' }, 'prompt'],
      [{ ...body, maxTokens: 0 }, 'maxTokens'],
      [{ ...body, maxTokens: 1.5 }, 'maxTokens'],
      [{ ...body, temperature: -0.1 }, 'temperature'],
      [{ ...body, temperature: 2.1 }, 'temperature'],
      [{ ...body, maxMessages: 0 }, 'maxMessages'],
      [{ ...body, maxMessages: 101 }, 'maxMessages'],
      [{ ...body, voice: 'pt-BR-Robo' }, 'voice'],
      [{ ...body, baseUrl: 'ftp://example.com' }, 'baseUrl'],
      [{ ...body, baseUrl: 'not a url' }, 'baseUrl'],
    ]
    for (const [input, field] of cases) {
      const res = await admin.post('/prompt', input)
      expect({ field, status: res.status }).toEqual({ field, status: 400 })
      expect(res.body.error).toBe('ERR_VALIDATION')
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field)
    }
    // the edges are accepted
    const ok = await admin.post('/prompt', {
      ...body,
      temperature: 0,
      maxTokens: 1,
      maxMessages: 100,
      voice: 'pt-BR-YaraNeural',
    })
    expect(ok.status).toBe(201)
    expect(ok.body).toMatchObject({
      temperature: 0,
      maxTokens: 1,
      maxMessages: 100,
      voice: 'pt-BR-YaraNeural',
    })
  })

  test('keys are sealed in the database, never answered in clear, kept when left out or masked, removed with ""', async () => {
    const { h, admin, body } = await setup()
    const events = h.recordEvents()
    const created = await admin.post('/prompt', { ...body, voiceKey: VOICE_KEY })
    const id = created.body.id as number
    const raw = rawRow(h, id)
    expect(raw.apiKey).not.toContain(API_KEY)
    expect(raw.apiKey).not.toContain('0123456789')
    expect(raw.apiKey.startsWith('v1:')).toBe(true)
    expect(raw.voiceKey).not.toContain(VOICE_KEY)
    expect(created.body.voiceKey).toBe('voi…4321')

    const answers = [
      created,
      await admin.get('/prompt'),
      await admin.get(`/prompt/${id}`),
      await admin.put(`/prompt/${id}`, { ...body, apiKey: undefined }),
    ]
    for (const res of answers) {
      const text = JSON.stringify(res.body)
      expect(text).not.toContain(API_KEY)
      expect(text).not.toContain(VOICE_KEY)
      expect(text).not.toContain('0123456789abcdef')
    }
    for (const e of events) {
      const text = JSON.stringify(e)
      expect(text).not.toContain(API_KEY)
      expect(text).not.toContain(VOICE_KEY)
    }
    // left out (undefined) and masked keep the keys
    expect(rawRow(h, id).apiKey).toBe(raw.apiKey)
    await admin.put(`/prompt/${id}`, { ...body, apiKey: 'sk-…WXYZ', voiceKey: 'voi…4321' })
    expect(rawRow(h, id)).toEqual(raw)
    await admin.put(`/prompt/${id}`, { ...body, apiKey: null })
    expect(rawRow(h, id)).toEqual(raw)
    // a new key replaces it; '' removes it
    const next = await admin.put(`/prompt/${id}`, { ...body, apiKey: 'sk-another-key-000000001111' })
    expect(next.body.apiKey).toBe('sk-…1111')
    expect(rawRow(h, id).apiKey).not.toBe(raw.apiKey)
    const cleared = await admin.put(`/prompt/${id}`, { ...body, apiKey: '', voiceKey: '' })
    expect(cleared.body).toMatchObject({ apiKey: '', apiKeySet: false, voiceKey: '', voiceKeySet: false })
    expect(rawRow(h, id)).toEqual({ apiKey: '', voiceKey: '' })
    // a short key is masked without showing any of it
    const short = await admin.put(`/prompt/${id}`, { ...body, apiKey: 'abc12345' })
    expect(short.body.apiKey).toBe('…')
    expect(JSON.stringify(short.body)).not.toContain('abc12345')
  })

  test('live: create, update and delete reach the company’s admins only', async () => {
    const { h, admin, body } = await setup()
    const events = h.recordEvents()
    const id = (await admin.post('/prompt', body)).body.id as number
    await admin.put(`/prompt/${id}`, { ...body, name: 'Outro nome' })
    await admin.del(`/prompt/${id}`)
    const mine = events.filter((e) => e.event === `company-${h.a.id}-prompt`)
    expect(mine.map((e) => (e.data as { action: string }).action)).toEqual(['create', 'update', 'delete'])
    expect(mine.every((e) => e.room === `company:${h.a.id}:admins`)).toBe(true)
    expect(mine[2]!.data).toEqual({ action: 'delete', promptId: id })
  })

  test("another company's ids are 404; attendants are refused; the plan flag off is 403", async () => {
    const { h, admin, body } = await setup()
    const otherAdmin = await h.as(h.b.admin)
    const theirQueue = h.makeQueue(h.b.id, { name: 'Deles' })
    const theirs = (await otherAdmin.post('/prompt', { ...body, queueId: theirQueue.id })).body
    expect(theirs.id).toBeGreaterThan(0)
    for (const res of [
      await admin.get(`/prompt/${theirs.id}`),
      await admin.put(`/prompt/${theirs.id}`, body),
      await admin.del(`/prompt/${theirs.id}`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_PROMPT_FOUND')
    }
    expect((await admin.get('/prompt')).body.prompts).toEqual([])
    expect((await otherAdmin.get(`/prompt/${theirs.id}`)).status).toBe(200)

    const agent = await h.as(h.a.attendant)
    for (const res of [await agent.get('/prompt'), await agent.post('/prompt', body)]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_NO_PERMISSION')
    }

    const now = h.clock.now()
    const basic = h.db
      .insert(plans)
      .values({ name: 'Sem IA', useOpenAi: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem IA Ltda', { planId: basic.id })
    const user = h.makeUser(company.id, { profile: 'admin' })
    const client = await h.as(user.email)
    for (const res of [
      await client.get('/prompt'),
      await client.post('/prompt', body),
      await client.get('/prompt/1'),
      await h.call('POST', '/test/audio', { token: client.token, body: {} }),
      await client.post('/messages/1/transcribe'),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
    }
  })

  test('queues and connections may name a prompt of their own company only; deleting it lets them go', async () => {
    const { h, admin, body } = await setup()
    const id = (await admin.post('/prompt', body)).body.id as number
    const otherAdmin = await h.as(h.b.admin)
    const theirQueue = h.makeQueue(h.b.id)
    const theirs = (await otherAdmin.post('/prompt', { ...body, queueId: theirQueue.id })).body.id as number

    const queue = await admin.post('/queue', { name: 'Robô', color: '#123456', promptId: id })
    expect(queue.status).toBe(201)
    expect(queue.body.promptId).toBe(id)
    for (const promptId of [theirs, 999_999]) {
      const res = await admin.post('/queue', { name: 'Alheia', color: '#654321', promptId })
      expect(res.status).toBe(400)
      expect(res.body.fields[0].field).toBe('promptId')
    }
    const conn = await admin.post('/whatsapp', { name: 'Conexão IA', promptId: id })
    expect(conn.status).toBe(201)
    expect(conn.body.promptId).toBe(id)
    const refused = await admin.post('/whatsapp', { name: 'Conexão X', promptId: theirs })
    expect(refused.status).toBe(400)
    expect(refused.body.fields[0].field).toBe('promptId')

    await admin.del(`/prompt/${id}`)
    const refs = h.deps.sqlite
      .query<{ n: number }, [number]>(
        `SELECT (SELECT count(*) FROM queues WHERE prompt_id = ?1) + (SELECT count(*) FROM whatsapps WHERE prompt_id = ?1) AS n`,
      )
      .get(id)!
    expect(refs.n).toBe(0)
  })
})
