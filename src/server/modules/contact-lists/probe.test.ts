/** Junk to every contact-list route: a 4xx with an error code, never a 500 (the rest is contact-lists.test.ts). */
import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import {
  expectJunkBodiesRefused,
  expectJunkIds404,
  expectNo500,
  expectRefused,
  expectUploadJunkRefused,
  mutations,
  rawRequest,
  uploadTo,
} from '../../test/probe'

describe('contact lists: probes', () => {
  test('junk bodies and field values are refused; never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { id } = (await admin.post('/contact-lists', { name: 'Base' })).body
    const item = (
      await admin.post('/contact-list-items', { name: 'Ana', number: '5511988887777', contactListId: id })
    ).body
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/contact-lists')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/contact-lists/${id}`)
    await expectJunkBodiesRefused(h, admin.token, 'POST', '/contact-list-items')
    await expectJunkBodiesRefused(h, admin.token, 'PUT', `/contact-list-items/${item.id}`)
    for (const body of mutations({ name: 'Lista' })) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST ${label}`, await admin.post('/contact-lists', body))
      expectNo500(`PUT ${label}`, await admin.put(`/contact-lists/${id}`, body))
    }
    for (const body of mutations({
      name: 'Bia',
      number: '5511977776666',
      email: 'b@x.com',
      contactListId: id,
    })) {
      const label = JSON.stringify(body).slice(0, 80)
      expectNo500(`POST item ${label}`, await admin.post('/contact-list-items', body))
      expectNo500(`PUT item ${label}`, await admin.put(`/contact-list-items/${item.id}`, body))
    }
  })

  test('junk ids answer 404 on every route', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/contact-lists/:id'],
        ['PUT', '/contact-lists/:id'],
        ['DELETE', '/contact-lists/:id'],
        ['POST', '/contact-lists/:id/upload'],
      ],
      'ERR_NO_CONTACT_LIST_FOUND',
    )
    await expectJunkIds404(
      h,
      admin.token,
      [
        ['GET', '/contact-list-items/:id'],
        ['PUT', '/contact-list-items/:id'],
        ['DELETE', '/contact-list-items/:id'],
      ],
      'ERR_NO_CONTACT_LIST_ITEM_FOUND',
    )
    await expectJunkIds404(h, admin.token, [['GET', '/contact-lists/imports/:id']], 'ERR_NO_IMPORT_FOUND')
    await expectJunkIds404(h, admin.token, [['GET', '/contacts/import/:id']], 'ERR_NO_IMPORT_FOUND')
  })

  test('junk queries are 400 or ignored, never a 500', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    for (const q of [
      'pageNumber=',
      'pageNumber=NaN',
      'pageNumber=1.5',
      'pageNumber=100001',
      'searchParam=%ZZ',
    ])
      expectNo500(q, await admin.get(`/contact-lists?${q}`))
    for (const q of [
      'contactListId=',
      'contactListId=abc',
      'contactListId=01',
      'contactListId=1&pageNumber=NaN',
    ])
      expectRefused(q, await admin.get(`/contact-list-items?${q}`), 400)
    expectRefused('unknown list', await admin.get('/contact-list-items?contactListId=999'), 404)
    for (const q of ['format=pdf', 'format=', 'format=CSV'])
      expectRefused(q, await admin.get(`/contacts/export?${q}`), 400)
  })

  test('multipart junk to the uploads: 4xx, nothing stored', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { id } = (await admin.post('/contact-lists', { name: 'Base' })).body
    for (const path of [`/contact-lists/${id}/upload`, '/contacts/import']) {
      await expectUploadJunkRefused(h, path, admin.token)
      expectRefused(
        'empty file',
        await uploadTo(h, path, admin.token, [{ value: new File([], 'a.xlsx') }]),
        400,
      )
      expectRefused(
        'json body',
        await rawRequest(h, 'POST', path, admin.token, 'application/json', '{"file":"x"}'),
      )
    }
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM spreadsheet_imports').get()).toEqual({ n: 0 })
  })
})
