/** Junk to every queue-integration route: a 4xx with an error code, never a 500 (the rest is queue-integrations.test.ts). */
import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  mutations,
} from '../../test/probe'

describe('queue integrations: probes', () => {
  test('junk bodies, content types and field values are refused; never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const base = {
      type: 'typebot',
      name: 'Sonda',
      urlN8N: 'http://127.0.0.1:9/typebot',
      typebotSlug: 'sonda',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
      typebotKeywordFinish: 'sair',
      typebotKeywordRestart: 'reiniciar',
      typebotRestartMessage: 'De novo',
      typebotUnknownMessage: 'Não entendi',
      language: 'pt-BR',
      projectName: 'x',
    }
    const { id } = (await admin.post('/queueIntegration', base)).body
    expect(id).toBeGreaterThan(0)
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/queueIntegration')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/queueIntegration/${id}`)
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/queueIntegration/testSession')
    for (const body of mutations(base)) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST ${label}`, await admin.post('/queueIntegration', body))
      expectNo500(`PUT ${label}`, await admin.put(`/queueIntegration/${id}`, body))
    }
    const dialogflow = { type: 'dialogflow', name: 'DF', jsonContent: '{"a":1}', language: 'en' }
    for (const body of mutations(dialogflow)) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST ${label}`, await admin.post('/queueIntegration', body))
    }
    for (const body of mutations({
      projectName: 'p',
      jsonContent: '{"private_key":"********"}',
      language: 'es',
      id,
    }))
      expectNo500(
        `test ${JSON.stringify(body).slice(0, 80)}`,
        await admin.post('/queueIntegration/testSession', body),
      )
    // unicode and nested JSON in the service account: a clear 400
    for (const jsonContent of [
      '👋🏽',
      '{"a":'.repeat(50),
      JSON.stringify({ client_email: ['x'], private_key: {}, project_id: 1 }),
    ])
      expectRefused(
        jsonContent.slice(0, 30),
        await admin.post('/queueIntegration/testSession', { jsonContent }),
        400,
      )
  })

  test('junk ids answer 404 on every route', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/queueIntegration/:id'],
        ['PUT', '/queueIntegration/:id'],
        ['DELETE', '/queueIntegration/:id'],
      ],
      'ERR_NO_QUEUE_INTEGRATION_FOUND',
    )
  })

  test('junk queries are 400; unknown parameters are ignored', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    for (const q of ['pageNumber=', 'searchParam=%ZZ', `searchParam=${'x'.repeat(300)}`, 'companyId=2'])
      expectNo500(q, await admin.get(`/queueIntegration?${q}`))
    for (const q of ['pageNumber=NaN', 'pageNumber=1.5', 'pageNumber=100001', 'pageNumber=-1'])
      expectRefused(q, await admin.get(`/queueIntegration?${q}`), 400)
  })
})
