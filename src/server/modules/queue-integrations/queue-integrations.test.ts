import { afterEach, describe, expect, test } from 'bun:test'
import { PRIVATE_KEY_MASK } from '../../../shared/queue-integrations'
import { plans } from '../../db/schema'
import { createHarness, type Harness, LOCAL_FAKES_ENV } from '../../test/harness'
import { type DialogflowFake, startDialogflowFake } from './testing'

const stops: (() => void)[] = []
afterEach(() => {
  for (const stop of stops.splice(0)) stop()
})

function dialogflowFake(handler: Parameters<typeof startDialogflowFake>[0]): DialogflowFake {
  const fake = startDialogflowFake(handler)
  stops.push(fake.stop)
  return fake
}

const webhook = { type: 'webhook', name: 'Meu webhook', urlN8N: 'https://hooks.example.com/balcao' }

function storedJson(h: Harness, id: number): string {
  return h.deps.sqlite
    .query<{ json: string }, [number]>('SELECT json_content AS json FROM queue_integrations WHERE id = ?')
    .get(id)!.json
}

describe('queue integrations: CRUD', () => {
  test('create each type with its defaults; list, search, get, update, delete; live events', async () => {
    const h = await createHarness({ env: LOCAL_FAKES_ENV })
    const admin = await h.as(h.a.admin)
    const created = await admin.post('/queueIntegration', webhook)
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      type: 'webhook',
      name: 'Meu webhook',
      projectName: 'Meu webhook',
      urlN8N: 'https://hooks.example.com/balcao',
      language: 'pt-BR',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
      jsonContent: '',
    })
    const typebot = await admin.post('/queueIntegration', {
      type: 'typebot',
      name: 'Typebot vendas',
      projectName: 'ignored',
      urlN8N: 'https://typebot.example.com',
      typebotSlug: 'vendas-abc',
      typebotKeywordFinish: 'sair',
    })
    expect(typebot.status).toBe(201)
    expect(typebot.body).toMatchObject({
      projectName: 'Typebot vendas',
      typebotSlug: 'vendas-abc',
      typebotExpires: 1,
    })
    const n8n = await admin.post('/queueIntegration', {
      type: 'n8n',
      name: 'Fluxo',
      urlN8N: 'http://n8n.local/w',
    })
    expect(n8n.status).toBe(201)

    const list = await admin.get('/queueIntegration')
    expect(list.status).toBe(200)
    expect(list.body.count).toBe(3)
    expect(list.body.hasMore).toBe(false)
    expect(list.body.queueIntegrations.map((i: { name: string }) => i.name)).toEqual([
      'Fluxo',
      'Meu webhook',
      'Typebot vendas',
    ])
    const search = await admin.get('/queueIntegration?searchParam=TYPE')
    expect(search.body.queueIntegrations.map((i: { id: number }) => i.id)).toEqual([typebot.body.id])

    expect((await admin.get(`/queueIntegration/${created.body.id}`)).body.name).toBe('Meu webhook')
    const updated = await admin.put(`/queueIntegration/${created.body.id}`, {
      ...webhook,
      name: 'Outro nome',
    })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ name: 'Outro nome', projectName: 'Outro nome' })

    // a queue that names it is let go on delete
    const queue = await admin.post('/queue', { name: 'Bots', color: '#123456', integrationId: n8n.body.id })
    expect(queue.status).toBe(201)
    expect(queue.body.integrationId).toBe(n8n.body.id)
    const events = h.recordEvents()
    expect((await admin.del(`/queueIntegration/${n8n.body.id}`)).status).toBe(200)
    expect((await admin.get(`/queueIntegration/${n8n.body.id}`)).status).toBe(404)
    expect((await admin.get(`/queue/${queue.body.id}`)).body.integrationId).toBeNull()
    // a connection names one; deleting it lets go of the connection too
    const own = await admin.post('/queueIntegration', { ...webhook, name: 'Da conexão' })
    const conn = h.makeConnection(h.a.id)
    const put = await admin.put(`/whatsapp/${conn.id}`, { name: conn.name, integrationId: own.body.id })
    expect(put.status).toBe(200)
    expect(put.body.integrationId).toBe(own.body.id)
    await admin.del(`/queueIntegration/${own.body.id}`)
    expect((await admin.get(`/whatsapp/${conn.id}`)).body.integrationId).toBeNull()
    const deleted = events.find((e) => e.event === `company-${h.a.id}-queueIntegration`)
    expect(deleted).toMatchObject({
      room: `company:${h.a.id}:admins`,
      data: { action: 'delete', integrationId: n8n.body.id },
    })
  })

  test('validation: name 2..50, URL required and http(s), typebot slug, dialogflow service account', async () => {
    const h = await createHarness({ env: LOCAL_FAKES_ENV })
    const admin = await h.as(h.a.admin)
    const cases: [Record<string, unknown>, string][] = [
      [{ ...webhook, name: 'x' }, 'name'],
      [{ ...webhook, name: 'x'.repeat(51) }, 'name'],
      [{ ...webhook, name: '   ' }, 'name'],
      [{ type: 'webhook', name: 'Sem URL' }, 'urlN8N'],
      [{ ...webhook, urlN8N: 'ftp://example.com/x' }, 'urlN8N'],
      [{ ...webhook, urlN8N: 'javascript:alert(1)' }, 'urlN8N'],
      [{ ...webhook, urlN8N: 'not a url' }, 'urlN8N'],
      [{ type: 'n8n', name: 'N8N', urlN8N: '' }, 'urlN8N'],
      [{ type: 'typebot', name: 'Typebot', urlN8N: 'https://t.example.com' }, 'typebotSlug'],
      [
        { type: 'typebot', name: 'Typebot', urlN8N: 'https://t.example.com', typebotSlug: 'a/b' },
        'typebotSlug',
      ],
      [{ ...webhook, type: 'telegram' }, 'type'],
      [{ ...webhook, language: 'fr' }, 'language'],
      [{ ...webhook, typebotExpires: -1 }, 'typebotExpires'],
      [{ ...webhook, typebotDelayMessage: 1.5 }, 'typebotDelayMessage'],
      [{ type: 'dialogflow', name: 'DF' }, 'jsonContent'],
      [{ type: 'dialogflow', name: 'DF', jsonContent: '{nope' }, 'jsonContent'],
      [{ type: 'dialogflow', name: 'DF', jsonContent: '{"client_email":"a@b.c"}' }, 'jsonContent'],
      [{ type: 'dialogflow', name: 'DF', jsonContent: '[]' }, 'jsonContent'],
      // The token URI is fetched: never a file (Bun's fetch reads file: URLs) nor another scheme.
      ...['file:///etc/passwd', 'data:application/json,{}', 'ftp://h/token', 42].map(
        (token_uri): [Record<string, unknown>, string] => [
          {
            type: 'dialogflow',
            name: 'DF',
            jsonContent: JSON.stringify({
              client_email: 'a@b',
              project_id: 'p',
              private_key: 'k',
              token_uri,
            }),
          },
          'jsonContent',
        ],
      ),
      [
        {
          type: 'dialogflow',
          name: 'DF',
          jsonContent: JSON.stringify({
            client_email: 'a@b',
            project_id: 'p',
            private_key: PRIVATE_KEY_MASK,
          }),
        },
        'jsonContent',
      ],
    ]
    for (const [body, field] of cases) {
      const res = await admin.post('/queueIntegration', body)
      expect({ body, status: res.status }).toEqual({ body, status: 400 })
      expect({ body, field: res.body.fields?.[0]?.field }).toEqual({ body, field })
    }
    expect((await admin.get('/queueIntegration')).body.count).toBe(0)
  })

  test('dialogflow: the service account is sealed; the private key is never answered; a masked key keeps it', async () => {
    const h = await createHarness({ env: LOCAL_FAKES_ENV })
    const admin = await h.as(h.a.admin)
    const fake = dialogflowFake(() => ({ fulfillmentText: 'Oi!' }))
    const json = fake.serviceAccount('agente-1')
    const key = JSON.parse(json).private_key as string
    const created = await admin.post('/queueIntegration', {
      type: 'dialogflow',
      name: 'Agente',
      jsonContent: json,
    })
    expect(created.status).toBe(201)
    expect(created.body.projectName).toBe('agente-1')
    expect(created.body.language).toBe('pt-BR')
    expect(JSON.stringify(created.body)).not.toContain('PRIVATE KEY')
    const shown = JSON.parse(created.body.jsonContent)
    expect(shown).toMatchObject({
      private_key: PRIVATE_KEY_MASK,
      client_email: 'bot@agente-1.iam.gserviceaccount.com',
    })
    // sealed at rest
    expect(storedJson(h, created.body.id)).toStartWith('v1:')
    expect(storedJson(h, created.body.id)).not.toContain('client_email')
    for (const res of [
      await admin.get(`/queueIntegration/${created.body.id}`),
      await admin.get('/queueIntegration'),
    ])
      expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY')

    // the masked JSON sent back keeps the key (the test session works with it)
    const updated = await admin.put(`/queueIntegration/${created.body.id}`, {
      type: 'dialogflow',
      name: 'Agente',
      language: 'en',
      jsonContent: created.body.jsonContent,
    })
    expect(updated.status).toBe(200)
    expect(updated.body.language).toBe('en')
    ;(h.deps.env as Record<string, string>).BALCAO_DIALOGFLOW_BASE_URL = fake.url
    const tested = await admin.post('/queueIntegration/testSession', {
      projectName: 'agente-1',
      jsonContent: updated.body.jsonContent,
      language: 'en',
      id: created.body.id,
    })
    expect(tested.status).toBe(200)
    expect(tested.body.reply).toBe('Oi!')
    expect(fake.detectCalls).toEqual([
      {
        projectId: 'agente-1',
        sessionId: expect.stringContaining('balcao-test-'),
        text: 'Olá',
        languageCode: 'en',
      },
    ])
    // the key itself is still whole
    expect(key).toContain('PRIVATE KEY')
  })

  test('testSession: success, a bad key (token refused), a refusing agent, a silent agent: 400 or 502 with the reason', async () => {
    const h = await createHarness({ env: LOCAL_FAKES_ENV })
    const admin = await h.as(h.a.admin)
    let mode: 'ok' | 'error' | 'hang' = 'ok'
    const fake = dialogflowFake(() =>
      mode === 'ok'
        ? {
            fulfillmentMessages: [{ text: { text: ['Olá! Como posso ajudar?'] } }],
            intent: { displayName: 'Welcome' },
          }
        : mode === 'error'
          ? Response.json(
              { error: { code: 403, message: 'Dialogflow API has not been used' } },
              { status: 403 },
            )
          : 'hang',
    )
    ;(h.deps.env as Record<string, string>).BALCAO_DIALOGFLOW_BASE_URL = fake.url
    const json = fake.serviceAccount()
    const ok = await admin.post('/queueIntegration/testSession', {
      projectName: 'p1',
      jsonContent: json,
      language: 'pt-BR',
    })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ reply: 'Olá! Como posso ajudar?', intent: 'Welcome' })
    expect(fake.detectCalls[0]).toMatchObject({ projectId: 'p1', languageCode: 'pt-BR' })

    // a key that is not the account's: the token endpoint refuses the signature
    const other = startDialogflowFake(() => ({}))
    stops.push(other.stop)
    const wrongKey = JSON.stringify({
      ...JSON.parse(json),
      private_key: JSON.parse(other.serviceAccount()).private_key,
    })
    const bad = await admin.post('/queueIntegration/testSession', { jsonContent: wrongKey })
    expect(bad.status).toBe(502)
    expect(bad.body.error).toBe('ERR_INTEGRATION_TEST_FAILED')
    // the status class, never what the remote server wrote (the URL is the tenant's: it could be anyone's)
    expect(bad.body.message).toContain('4xx')
    expect(bad.body.message).not.toContain('bad signature')

    mode = 'error'
    const refused = await admin.post('/queueIntegration/testSession', { jsonContent: json })
    expect(refused.status).toBe(502)
    expect(refused.body.message).toContain('4xx')
    expect(refused.body.message).not.toContain('has not been used')

    const invalid = await admin.post('/queueIntegration/testSession', { jsonContent: '{"a":1}' })
    expect(invalid.status).toBe(400)
    expect(invalid.body.fields[0].field).toBe('jsonContent')

    mode = 'hang'
    const pending = admin.post('/queueIntegration/testSession', { jsonContent: json })
    await Bun.sleep(50)
    h.clock.advance(10_000)
    const silent = await pending
    expect(silent.status).toBe(502)
    expect(silent.body.message).toContain('no answer within 10 s')
  })

  test("another company's ids are 404; attendants are refused; the plan flag off is 403", async () => {
    const h = await createHarness({ env: LOCAL_FAKES_ENV })
    const admin = await h.as(h.a.admin)
    const theirs = (await (await h.as(h.b.admin)).post('/queueIntegration', webhook)).body
    for (const res of [
      await admin.get(`/queueIntegration/${theirs.id}`),
      await admin.put(`/queueIntegration/${theirs.id}`, webhook),
      await admin.del(`/queueIntegration/${theirs.id}`),
      await admin.post('/queueIntegration/testSession', { jsonContent: '{}', id: theirs.id }),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_QUEUE_INTEGRATION_FOUND')
    }
    expect((await admin.get('/queueIntegration')).body.queueIntegrations).toEqual([])
    // a queue may not name another company's integration
    const queue = await admin.post('/queue', { name: 'Alheia', color: '#654321', integrationId: theirs.id })
    expect(queue.status).toBe(400)
    expect(queue.body.fields[0].field).toBe('integrationId')

    // nor a connection
    const conn = await admin.post('/whatsapp', { name: 'Conexão X', integrationId: theirs.id })
    expect(conn.status).toBe(400)
    expect(conn.body.fields[0].field).toBe('integrationId')

    const agent = await h.as(h.a.attendant)
    for (const res of [await agent.get('/queueIntegration'), await agent.post('/queueIntegration', webhook)])
      expect(res.status).toBe(403)

    const now = h.clock.now()
    const basic = h.db
      .insert(plans)
      .values({ name: 'Sem integrações', useIntegrations: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem Integrações Ltda', { planId: basic.id })
    const user = h.makeUser(company.id, { profile: 'admin' })
    const client = await h.as(user.email)
    for (const res of [
      await client.get('/queueIntegration'),
      await client.post('/queueIntegration', webhook),
      await client.post('/queueIntegration/testSession', { jsonContent: '{}' }),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
    }
  })
})
