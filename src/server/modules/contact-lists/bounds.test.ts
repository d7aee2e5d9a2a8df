import { describe, expect, test } from 'bun:test'
import * as XLSX from '@e965/xlsx'
import type { Ctx } from '../../context'
import { createHarness } from '../../test/harness'
import { uploadTo } from '../../test/probe'
import { MAX_EXPANDED_BYTES, MAX_SPREADSHEET_BYTES, MAX_ZIP_ENTRIES } from './bounds'
import { importRunner, MAX_PARSES, withImportSlot } from './imports'
import { readSpreadsheet } from './spreadsheet'
import { bombXlsx, zipOf } from './testing'

const sheetFile = (rows: string[][]) => {
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Planilha')
  return new File([XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer], 'lista.xlsx')
}

const codeOf = (fn: () => unknown) => {
  try {
    fn()
    return 'ok'
  } catch (err) {
    return (err as { code?: string }).code
  }
}

describe('spreadsheet bounds (zip bombs)', () => {
  test('an .xlsx whose sheet inflates to 500 MB is refused before SheetJS, honest sizes or lying ones', () => {
    const honest = bombXlsx(500)
    const lying = bombXlsx(500, true)
    expect(honest.length).toBeLessThan(1024 * 1024)
    expect(codeOf(() => readSpreadsheet(honest))).toBe('ERR_SPREADSHEET_TOO_LARGE')
    expect(codeOf(() => readSpreadsheet(lying))).toBe('ERR_SPREADSHEET_TOO_LARGE')
    // A sheet just past the limit in plain size, compressed like a real one would be, is refused too.
    expect(codeOf(() => readSpreadsheet(bombXlsx(MAX_EXPANDED_BYTES / (1024 * 1024) + 1)))).toBe(
      'ERR_SPREADSHEET_TOO_LARGE',
    )
    // The same workbook without the padding reads.
    expect(readSpreadsheet(bombXlsx(0))).toEqual([
      { row: 2, name: 'Ana', number: '5511988887777', email: '' },
    ])
  })

  test('too many entries, or a file past the size limit, are refused', () => {
    const empty = { stored: new Uint8Array(), method: 0 as const, crc: 0, size: 0 }
    const many = zipOf(Array.from({ length: MAX_ZIP_ENTRIES + 1 }, (_, i) => ({ ...empty, name: `x${i}` })))
    expect(codeOf(() => readSpreadsheet(many))).toBe('ERR_SPREADSHEET_TOO_LARGE')
    const big = new Uint8Array(MAX_SPREADSHEET_BYTES + 1)
    big.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
    expect(codeOf(() => readSpreadsheet(big))).toBe('ERR_SPREADSHEET_TOO_LARGE')
  })

  test('uploads: the bomb answers 413 on both import routes and stores nothing', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const { id } = (await admin.post('/contact-lists', { name: 'Base' })).body
    for (const path of [`/contact-lists/${id}/upload`, '/contacts/import']) {
      const res = await uploadTo(h, path, admin.token, [{ value: new File([bombXlsx(400)], 'a.xlsx') }])
      expect(res.status).toBe(413)
      expect(res.body).toMatchObject({ error: 'ERR_SPREADSHEET_TOO_LARGE', fields: [{ field: 'file' }] })
    }
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM spreadsheet_imports').get()).toEqual({ n: 0 })
  })
})

describe('spreadsheet imports: one per company, a few per server, admins only for contacts', () => {
  test('a second import of the same company while the first is read or applied answers 409', async () => {
    const h = await createHarness()
    const admin = await h.as(h.a.admin)
    const other = await h.as(h.b.admin)
    const rows = [
      ['nome', 'numero'],
      ...Array.from({ length: 300 }, (_, i) => [`Nome ${i}`, `55119${8e7 + i}`]),
    ]
    const send = (token: string) => uploadTo(h, '/contacts/import', token, [{ value: sheetFile(rows) }])
    const [first, second, theirs] = await Promise.all([
      send(admin.token),
      send(admin.token),
      send(other.token),
    ])
    expect([first.status, second.status].sort()).toEqual([202, 409])
    expect([first, second].find((r) => r.status === 409)!.body.error).toBe('ERR_IMPORT_IN_PROGRESS')
    expect(theirs.status).toBe(202)
    await importRunner(h.deps).idle()
    // A job not yet applied (as after a restart, resuming) keeps the company's turn.
    const setState = (state: string) =>
      h.deps.sqlite.query('UPDATE spreadsheet_imports SET state = ? WHERE company_id = ?').run(state, h.a.id)
    setState('running')
    expect((await send(admin.token)).body.error).toBe('ERR_IMPORT_IN_PROGRESS')
    setState('done')
    expect((await send(admin.token)).status).toBe(202)
    await importRunner(h.deps).idle()
  })

  test(`at most ${MAX_PARSES} spreadsheets are read at once on a server: the next answers 429`, async () => {
    const h = await createHarness()
    const ctxOf = (companyId: number) => ({ ...h.deps, actor: { kind: 'system', companyId } }) as Ctx
    const releases: (() => void)[] = []
    const held = [h.a.id, h.b.id].map((id) =>
      withImportSlot(ctxOf(id), () => new Promise<void>((resolve) => releases.push(resolve))),
    )
    const third = await withImportSlot(ctxOf(h.platform.id), async () => 'read').catch((e) => e.code)
    expect(third).toBe('ERR_IMPORTS_BUSY')
    for (const release of releases) release()
    await Promise.all(held)
    expect(await withImportSlot(ctxOf(h.platform.id), async () => 'read')).toBe('read')
  })

  test('attendants may not import or export contacts (403); admins may', async () => {
    const h = await createHarness()
    const agent = await h.as(h.a.attendant)
    const file = () =>
      sheetFile([
        ['nome', 'numero'],
        ['Ana', '5511988887777'],
      ])
    const imported = await uploadTo(h, '/contacts/import', agent.token, [{ value: file() }])
    expect(imported.status).toBe(403)
    expect((await agent.get('/contacts/export?format=csv')).status).toBe(403)
    const admin = await h.as(h.a.admin)
    const job = await uploadTo(h, '/contacts/import', admin.token, [{ value: file() }])
    expect(job.status).toBe(202)
    await importRunner(h.deps).idle()
    expect((await agent.get(`/contacts/import/${job.body.id}`)).status).toBe(403)
    expect((await admin.get(`/contacts/import/${job.body.id}`)).body.state).toBe('done')
    expect((await admin.get('/contacts/export?format=csv')).status).toBe(200)
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM spreadsheet_imports').get()).toEqual({ n: 1 })
  })
})
