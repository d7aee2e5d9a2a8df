import { describe, expect, test } from 'bun:test'
import * as XLSX from '@e965/xlsx'
import { flushMicrotasks } from '../../clock'
import { plans } from '../../db/schema'
import { createHarness, type Harness } from '../../test/harness'
import { uploadTo } from '../../test/probe'
import { setTricked } from '../contacts/testing'
import { CHECK_BATCH, CHECK_PAUSE_MS, validityChecker } from './checker'
import { importRunner } from './imports'

/** A spreadsheet file from rows (the first row is the header), in either format. */
export function sheetFile(rows: unknown[][], bookType: 'xlsx' | 'xls', name = `lista.${bookType}`) {
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Planilha')
  const bytes = XLSX.write(book, { type: 'array', bookType }) as ArrayBuffer
  return new File([bytes], name)
}

async function setup(isTricked: 'enabled' | 'disabled' = 'enabled') {
  const h = await createHarness()
  setTricked(h, h.a.adminId, isTricked)
  const admin = await h.as(h.a.admin)
  const list = (await admin.post('/contact-lists', { name: 'Clientes VIP' })).body
  return { h, admin, list }
}

async function upload(h: Harness, token: string, path: string, file: File) {
  const res = await uploadTo(h, path, token, [{ value: file }])
  await importRunner(h.deps).idle()
  return res
}

const itemsOf = (h: Harness, listId: number) =>
  h.deps.sqlite
    .query<{ name: string; number: string; email: string; valid: number | null }, [number]>(
      'SELECT name, number, email, is_whatsapp_valid AS valid FROM contact_list_items WHERE contact_list_id = ? ORDER BY id',
    )
    .all(listId)

describe('contact lists', () => {
  test('CRUD with contactsCount, search, paging and live events to the admins', async () => {
    const { h, admin, list } = await setup()
    const events = h.recordEvents()
    expect(list).toMatchObject({ name: 'Clientes VIP', contactsCount: 0 })
    for (let i = 0; i < 22; i++)
      await admin.post('/contact-lists', { name: `Lista ${String(i).padStart(2, '0')}` })
    const first = (await admin.get('/contact-lists/')).body
    expect(first.records).toHaveLength(20)
    expect(first.hasMore).toBe(true)
    expect(first.count).toBe(23)
    expect((await admin.get('/contact-lists/?pageNumber=2')).body.hasMore).toBe(false)
    expect(
      (await admin.get('/contact-lists?searchParam=vip')).body.records.map((r: { id: number }) => r.id),
    ).toEqual([list.id])
    expect((await admin.get('/contact-lists/list')).body).toHaveLength(23)
    const item = await admin.post('/contact-list-items', {
      name: 'Ana',
      number: '+55 (11) 98888-7777',
      email: 'ANA@x.com',
      contactListId: list.id,
    })
    expect(item.status).toBe(201)
    expect(item.body).toMatchObject({ name: 'Ana', email: 'ana@x.com', isWhatsappValid: null })
    expect((await admin.get(`/contact-lists/${list.id}`)).body.contactsCount).toBe(1)
    const renamed = await admin.put(`/contact-lists/${list.id}`, { name: 'Clientes Ouro' })
    expect(renamed.body).toMatchObject({ name: 'Clientes Ouro', contactsCount: 1 })
    expect((await admin.put(`/contact-lists/${list.id}`, { name: 'x' })).status).toBe(400)
    expect((await admin.post('/contact-lists', { name: 'x'.repeat(51) })).status).toBe(400)
    expect((await admin.post('/contact-lists', {})).status).toBe(400)
    expect((await admin.del(`/contact-lists/${list.id}`)).status).toBe(200)
    expect((await admin.get(`/contact-lists/${list.id}`)).status).toBe(404)
    expect(itemsOf(h, list.id)).toHaveLength(0)
    const names = events.map((e: { event: string }) => e.event)
    expect(names).toContain(`company-${h.a.id}-ContactList`)
    expect(names).toContain(`company-${h.a.id}-ContactListItem`)
  })

  test('items: validation, one number per list (both forms of a Brazilian mobile), masked for a reader', async () => {
    const { h, admin, list } = await setup('disabled')
    const add = (body: Record<string, unknown>) =>
      admin.post('/contact-list-items', { contactListId: list.id, ...body })
    expect((await add({ name: 'A', number: '5511988887777' })).status).toBe(400)
    expect((await add({ name: 'Ana', number: '1234567' })).status).toBe(400)
    expect((await add({ name: 'Ana', number: '5511988887777', email: 'nope' })).status).toBe(400)
    expect((await add({ name: 'Ana', number: 'abcdefghij' })).status).toBe(400)
    const ok = await add({ name: 'Ana', number: '5511988887777' })
    expect(ok.status).toBe(201)
    const dup = await add({ name: 'Ana 2', number: '551188887777' })
    expect(dup.status).toBe(409)
    expect(dup.body.error).toBe('ERR_DUPLICATED_CONTACT_LIST_ITEM')
    const page = (await admin.get(`/contact-list-items?contactListId=${list.id}`)).body
    expect(page).toMatchObject({ count: 1, hasMore: false })
    expect(page.contacts[0].number).toBe('551198888****')
    // The masked number sent back keeps the number.
    const put = await admin.put(`/contact-list-items/${ok.body.id}`, {
      name: 'Ana Maria',
      number: '551198888****',
    })
    expect(put.status).toBe(200)
    expect(itemsOf(h, list.id)[0]).toMatchObject({ name: 'Ana Maria', number: '5511988887777' })
    expect(
      (await admin.get(`/contact-list-items?contactListId=${list.id}&searchParam=maria`)).body.count,
    ).toBe(1)
    expect((await admin.get(`/contact-list-items?contactListId=${list.id}&searchParam=zzz`)).body.count).toBe(
      0,
    )
    expect((await admin.get('/contact-list-items')).status).toBe(400)
    expect((await admin.del(`/contact-list-items/${ok.body.id}`)).status).toBe(200)
    expect(itemsOf(h, list.id)).toHaveLength(0)
  })

  test('tenancy: another company gets 404 for lists, items and imports', async () => {
    const { h, admin, list } = await setup()
    const item = (
      await admin.post('/contact-list-items', {
        name: 'Ana',
        number: '5511988887777',
        contactListId: list.id,
      })
    ).body
    const job = await upload(
      h,
      admin.token,
      `/contact-lists/${list.id}/upload`,
      sheetFile([['nome', 'numero']], 'xlsx'),
    )
    const b = await h.as(h.b.admin)
    for (const res of [
      await b.get(`/contact-lists/${list.id}`),
      await b.put(`/contact-lists/${list.id}`, { name: 'Roubada' }),
      await b.del(`/contact-lists/${list.id}`),
      await b.get(`/contact-list-items?contactListId=${list.id}`),
      await b.post('/contact-list-items', { name: 'Eve', number: '5511977776666', contactListId: list.id }),
      await b.put(`/contact-list-items/${item.id}`, { name: 'Eve', number: '5511977776666' }),
      await b.del(`/contact-list-items/${item.id}`),
      await b.get(`/contact-lists/imports/${job.body.id}`),
      await uploadTo(h, `/contact-lists/${list.id}/upload`, b.token, [
        { value: sheetFile([['nome', 'numero']], 'xlsx') },
      ]),
    ])
      expect(res.status).toBe(404)
    expect((await b.get('/contact-lists/')).body.count).toBe(0)
    expect(itemsOf(h, list.id)).toHaveLength(1)
  })

  test('admins only; deleting an item needs contacts-page:deleteContact; the plan flag useCampaigns gates all', async () => {
    const { h, list } = await setup()
    const agent = await h.as(h.a.attendant)
    for (const res of [
      await agent.get('/contact-lists/'),
      await agent.get('/contact-lists/list'),
      await agent.get('/contact-lists/sample'),
      await agent.post('/contact-lists', { name: 'Minha' }),
      await agent.get(`/contact-list-items?contactListId=${list.id}`),
      await uploadTo(h, `/contact-lists/${list.id}/upload`, agent.token, [
        { value: sheetFile([['nome']], 'xlsx') },
      ]),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_NO_PERMISSION')
    }
    const now = h.clock.now()
    const basic = h.db
      .insert(plans)
      .values({ name: 'Sem campanhas', useCampaigns: false, createdAt: now, updatedAt: now })
      .returning()
      .get()
    const company = h.makeCompany('Sem Campanha Ltda', { planId: basic.id })
    const admin = await h.as(h.makeUser(company.id, { profile: 'admin' }).email)
    for (const res of [
      await admin.get('/contact-lists/'),
      await admin.get('/contact-lists/sample'),
      await admin.post('/contact-lists', { name: 'Minha' }),
      await admin.get('/contact-list-items?contactListId=1'),
    ]) {
      expect(res.status).toBe(403)
      expect(res.body.error).toBe('ERR_PLAN_FEATURE_DISABLED')
    }
  })

  test('the sample spreadsheet has the columns nome, numero, email', async () => {
    const { h, admin } = await setup()
    const res = await h.app.request('/api/contact-lists/sample', {
      headers: { authorization: `Bearer ${admin.token}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('.xlsx')
    const book = XLSX.read(new Uint8Array(await res.arrayBuffer()), { type: 'array' })
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 })
    expect(rows[0]).toEqual(['nome', 'numero', 'email'])
  })

  for (const bookType of ['xlsx', 'xls'] as const)
    test(`import of an .${bookType}: good rows in, bad and duplicate rows reported with row number and reason`, async () => {
      const { h, admin, list } = await setup()
      await admin.post('/contact-list-items', {
        name: 'Já Estava',
        number: '5511900000001',
        contactListId: list.id,
      })
      const file = sheetFile(
        [
          ['Nome', 'Número', 'E-mail'],
          ['Ana', 5511988887777, 'ana@x.com'], // 2: a number cell
          ['Bruno', '(21) 97777-6666', ''], // 3
          ['C', '5511955554444', ''], // 4: name too short
          ['Dora', '123', ''], // 5: number too short
          ['Eva', '5511944443333', 'not-an-email'], // 6
          ['', '5511933332222', ''], // 7: no name
          ['Fábio', '', ''], // 8: no number
          ['Ana de novo', '551188887777', ''], // 9: the short form of row 2's number
          ['Repetido', '5511900000001', ''], // 10: already in the list
          [],
          ['Gil', '5511922221111', 'GIL@X.COM'], // 12
        ],
        bookType,
      )
      const res = await upload(h, admin.token, `/contact-lists/${list.id}/upload`, file)
      expect(res.status).toBe(202)
      expect(res.body).toMatchObject({ state: 'pending', total: 10 })
      const job = (await admin.get(`/contact-lists/imports/${res.body.id}`)).body
      expect(job).toMatchObject({ state: 'done', total: 10, processed: 10, created: 3, rejectedCount: 7 })
      expect(job.rejected).toEqual([
        { row: 4, field: 'name', reason: 'tooShort' },
        { row: 5, field: 'number', reason: 'tooShort' },
        { row: 6, field: 'email', reason: 'invalid' },
        { row: 7, field: 'name', reason: 'required' },
        { row: 8, field: 'number', reason: 'required' },
        { row: 9, field: 'number', reason: 'duplicateInFile' },
        { row: 10, field: 'number', reason: 'alreadyInList' },
        // row 11 is empty: skipped, not counted
      ])
      expect(itemsOf(h, list.id).map((i) => [i.name, i.number, i.email])).toEqual([
        ['Já Estava', '5511900000001', ''],
        ['Ana', '5511988887777', 'ana@x.com'],
        ['Bruno', '21977776666', ''],
        ['Gil', '5511922221111', 'gil@x.com'],
      ])
      // Importing the same file again adds nothing.
      await upload(h, admin.token, `/contact-lists/${list.id}/upload`, file)
      expect(itemsOf(h, list.id)).toHaveLength(4)
      expect((await admin.get(`/contact-lists/${list.id}`)).body.contactsCount).toBe(4)
    })

  test('upload refuses what is not a spreadsheet, or has no number column, with a 400', async () => {
    const { h, admin, list } = await setup()
    const path = `/contact-lists/${list.id}/upload`
    for (const file of [
      new File(['nome,numero\nAna,5511988887777'], 'lista.csv'),
      new File([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])], 'broken.xlsx'),
      sheetFile(
        [
          ['nome', 'email'],
          ['Ana', 'a@x.com'],
        ],
        'xlsx',
      ),
    ]) {
      const res = await uploadTo(h, path, admin.token, [{ value: file }])
      expect(res.status).toBe(400)
      expect(res.body.fields[0].field).toBe('file')
    }
  })

  test('10,000 rows: progress events, no duplicates, other requests answered during the import', async () => {
    const { h, admin, list } = await setup()
    const events = h.recordEvents()
    const rows: unknown[][] = [['name', 'number', 'email']]
    for (let i = 0; i < 10_000; i++)
      rows.push([`Pessoa ${i}`, `55119${String(i % 9_990).padStart(8, '0')}`, ''])
    const res = await uploadTo(h, `/contact-lists/${list.id}/upload`, admin.token, [
      { value: sheetFile(rows, 'xlsx') },
    ])
    expect(res.status).toBe(202)
    // The server answers while the import runs.
    const during = await admin.get('/contact-lists/')
    expect(during.status).toBe(200)
    await importRunner(h.deps).idle()
    const job = (await admin.get(`/contact-lists/imports/${res.body.id}`)).body
    expect(job).toMatchObject({ state: 'done', processed: 10_000, created: 9_990, rejectedCount: 10 })
    expect(job.rejected.every((r: { reason: string }) => r.reason === 'duplicateInFile')).toBe(true)
    expect(itemsOf(h, list.id)).toHaveLength(9_990)
    const progress = events.filter(
      (e: { event: string }) => e.event === `company-${h.a.id}-spreadsheetImport`,
    )
    expect(progress.length).toBeGreaterThan(10)
  }, 60_000)

  test('a restart resumes an unfinished import where its last chunk committed', async () => {
    const { h, list } = await setup()
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      row: i + 2,
      name: `P ${i}`,
      number: `5511${String(i).padStart(8, '0')}`,
      email: '',
    }))
    const now = h.clock.now()
    // A job as a crash left it: 500 rows applied (the first chunk), the rest waiting.
    h.deps.sqlite
      .query(
        `INSERT INTO spreadsheet_imports (company_id, user_id, target, contact_list_id, state, total, processed, created, rows, created_at, updated_at)
         VALUES (?, ?, 'contactList', ?, 'running', 1200, 500, 500, ?, ?, ?)`,
      )
      .run(h.a.id, h.a.adminId, list.id, JSON.stringify(rows), now, now)
    for (const r of rows.slice(0, 500))
      h.deps.sqlite
        .query(
          'INSERT INTO contact_list_items (company_id, contact_list_id, name, number, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
        )
        .run(h.a.id, list.id, r.name, r.number, now, now)
    const { resumeImports } = await import('./imports')
    resumeImports(h.deps)
    await importRunner(h.deps).idle()
    const job = h.deps.sqlite
      .query('SELECT state, processed, created, rejected_count AS r FROM spreadsheet_imports')
      .get()
    expect(job).toEqual({ state: 'done', processed: 1200, created: 1200, r: 0 })
    expect(itemsOf(h, list.id)).toHaveLength(1200)
  })

  test('validity is checked through a connected connection, paced; without one it stays unknown', async () => {
    const { h, admin, list } = await setup()
    const rows: unknown[][] = [['nome', 'numero']]
    for (let i = 0; i < CHECK_BATCH + 5; i++) rows.push([`P ${i}`, `551190000${String(i).padStart(4, '0')}`])
    await upload(h, admin.token, `/contact-lists/${list.id}/upload`, sheetFile(rows, 'xlsx'))
    await flushMicrotasks()
    expect(itemsOf(h, list.id).every((i) => i.valid === null)).toBe(true)
    const conn = h.makeConnection(h.a.id, { isDefault: true })
    await h.deps.channels.start(conn)
    const fake = h.sessions.get(conn.id)!
    await fake.emit({ t: 'status', status: 'CONNECTED' })
    fake.checkNumbers = async (phones) =>
      phones.map((phone) => ({ phone, exists: !phone.endsWith('0'), jid: `${phone}@s.whatsapp.net` }))
    // Looking at the list kicks the check again.
    await admin.get(`/contact-list-items?contactListId=${list.id}`)
    await flushMicrotasks()
    expect(itemsOf(h, list.id).filter((i) => i.valid !== null)).toHaveLength(CHECK_BATCH)
    await h.clock.advance(CHECK_PAUSE_MS)
    await flushMicrotasks()
    const items = itemsOf(h, list.id)
    expect(items.every((i) => i.valid === (i.number.endsWith('0') ? 0 : 1))).toBe(true)
  })

  test('a stop ends the check after its batch, at once; the rest stay unknown for the next start', async () => {
    const { h, admin, list } = await setup()
    const rows: unknown[][] = [['nome', 'numero']]
    for (let i = 0; i < CHECK_BATCH + 5; i++) rows.push([`P ${i}`, `551190000${String(i).padStart(4, '0')}`])
    const conn = h.makeConnection(h.a.id, { isDefault: true })
    await h.deps.channels.start(conn)
    const fake = h.sessions.get(conn.id)!
    await fake.emit({ t: 'status', status: 'CONNECTED' })
    fake.checkNumbers = async (phones) =>
      phones.map((phone) => ({ phone, exists: true, jid: `${phone}@s.whatsapp.net` }))
    await upload(h, admin.token, `/contact-lists/${list.id}/upload`, sheetFile(rows, 'xlsx'))
    await flushMicrotasks()
    const checker = validityChecker(h.deps)
    expect(checker.running(h.a.id)).toBe(true) // pausing between batches
    await checker.stop() // without the clock moving: the pause is cut short
    expect(checker.running(h.a.id)).toBe(false)
    await h.clock.advance(CHECK_PAUSE_MS)
    await flushMicrotasks()
    expect(itemsOf(h, list.id).filter((i) => i.valid === null)).toHaveLength(5)
  })
})

describe('contacts import and export', () => {
  test('import: new numbers created, known numbers updated, bad and repeated rows reported', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.admin)
    const known = (await agent.post('/contacts', { name: 'Antigo', number: '5511988887777' })).body
    const file = sheetFile(
      [
        ['nome', 'numero', 'email'],
        ['Novo Nome', '551188887777', 'novo@x.com'],
        ['Carla', '5521977776666', ''],
        ['Carla 2', '5521977776666', ''],
        ['X', '5521911112222', ''],
      ],
      'xls',
    )
    const res = await uploadTo(h, '/contacts/import', agent.token, [{ value: file }])
    expect(res.status).toBe(202)
    await importRunner(h.deps).idle()
    const job = (await agent.get(`/contacts/import/${res.body.id}`)).body
    expect(job).toMatchObject({ state: 'done', created: 1, updated: 1, rejectedCount: 2 })
    expect(job.rejected).toEqual([
      { row: 4, field: 'number', reason: 'duplicateInFile' },
      { row: 5, field: 'name', reason: 'tooShort' },
    ])
    expect((await agent.get(`/contacts/${known.id}`)).body).toMatchObject({
      name: 'Novo Nome',
      email: 'novo@x.com',
    })
    expect((await (await h.as(h.b.admin)).get(`/contacts/import/${res.body.id}`)).status).toBe(404)
  })

  test('export as csv and xlsx, numbers masked as the reader sees them', async () => {
    const h = await createHarness()
    setTricked(h, h.a.adminId, 'disabled')
    const agent = await h.as(h.a.admin)
    await agent.post('/contacts', { name: 'Ana', number: '5511988887777', email: 'ana@x.com' })
    const get = (q: string) =>
      h.app.request(`/api/contacts/export${q}`, { headers: { authorization: `Bearer ${agent.token}` } })
    const csv = await get('?format=csv')
    expect(csv.status).toBe(200)
    const text = await csv.text()
    expect(text).toContain('nome,numero,email')
    expect(text).toContain('Ana,551198888****,ana@x.com')
    const xlsx = await get('?format=xlsx')
    const book = XLSX.read(new Uint8Array(await xlsx.arrayBuffer()), { type: 'array' })
    const rows = XLSX.utils.sheet_to_json<string[]>(book.Sheets[book.SheetNames[0]!]!, { header: 1 })
    expect(rows[1]).toEqual(['Ana', '551198888****', 'ana@x.com'])
    expect((await get('?format=pdf')).status).toBe(400)
    const other = await h.as(h.b.admin)
    const theirs = await h.app.request('/api/contacts/export?format=csv', {
      headers: { authorization: `Bearer ${other.token}` },
    })
    expect(await theirs.text()).not.toContain('Ana')
  })

  test('csv export: a cell a spreadsheet would run as a formula starts with a quote', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const names = ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\tTab', '\rCR', 'Ana = ok']
    for (const [i, name] of names.entries()) {
      const { id } = (await admin.post('/contacts', { name: `Nome ${i}`, number: `55119888877${10 + i}` }))
        .body
      h.deps.sqlite.query('UPDATE contacts SET name = ? WHERE id = ?').run(name, id)
    }
    const res = await h.app.request('/api/contacts/export?format=csv', {
      headers: { authorization: `Bearer ${admin.token}` },
    })
    const text = await res.text()
    for (const cell of [
      '"\'=HYPERLINK(""http://x"",""y"")"',
      "'+1+1,",
      "'-2+3,",
      "'@SUM(A1),",
      "'\tTab,",
      "'\rCR,",
      '\nAna = ok,',
    ])
      expect(text).toContain(cell)
    expect(text).not.toMatch(/(^|\n)[=+\-@\t\r]/)
  })
})
