/**
 * Spreadsheet import benchmark: 10,000 rows into a contact list through the real route (upload, parse, durable
 * job, chunks), on an in-memory database. Prints rows/s for .xlsx and .xls and the longest event-loop stall seen
 * while the import ran (what another request would have waited at worst), for the upload (the file is parsed on a
 * worker thread, so this is the multipart read plus storing the job) and for the apply (IMPORT_CHUNK rows per
 * transaction).
 *
 *   bun tests/bench/import.ts [rows]
 */
import * as XLSX from '@e965/xlsx'
import { importRunner } from '../../src/server/modules/contact-lists/imports'
import { createHarness } from '../../src/server/test/harness'
import { uploadTo } from '../../src/server/test/probe'

const ROWS = Number(process.argv[2] ?? 10_000)

function file(bookType: 'xlsx' | 'xls') {
  const rows: unknown[][] = [['nome', 'numero', 'email']]
  for (let i = 0; i < ROWS; i++)
    rows.push([`Pessoa ${i}`, `55119${String(i).padStart(8, '0')}`, `p${i}@exemplo.com`])
  const book = XLSX.utils.book_new()
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Contatos')
  return new File([XLSX.write(book, { type: 'array', bookType }) as ArrayBuffer], `bench.${bookType}`)
}

for (const bookType of ['xlsx', 'xls'] as const) {
  const h = await createHarness()
  const admin = await h.as(h.a.admin)
  const list = (await admin.post('/contact-lists', { name: 'Bench' })).body
  const upload = file(bookType)
  const stall = { upload: 0, apply: 0 }
  let phase: keyof typeof stall = 'upload'
  let last = performance.now()
  const lag = setInterval(() => {
    const now = performance.now()
    stall[phase] = Math.max(stall[phase], now - last)
    last = now
  }, 1)
  const t0 = performance.now()
  const res = await uploadTo(h, `/contact-lists/${list.id}/upload`, admin.token, [{ value: upload }])
  const t1 = performance.now()
  phase = 'apply'
  await importRunner(h.deps).idle()
  const t2 = performance.now()
  clearInterval(lag)
  const job = (await admin.get(`/contact-lists/imports/${res.body.id}`)).body
  if (job.state !== 'done' || job.created !== ROWS)
    throw new Error(`import did not finish: ${JSON.stringify(job)}`)
  const total = t2 - t0
  console.log(
    `${bookType}: ${ROWS} rows (${(upload.size / 1024).toFixed(0)} KiB) in ${total.toFixed(0)} ms = ${Math.round((ROWS / total) * 1000)} rows/s` +
      ` (upload+parse ${(t1 - t0).toFixed(0)} ms, apply ${(t2 - t1).toFixed(0)} ms; longest event-loop stall: upload ${stall.upload.toFixed(0)} ms, apply ${stall.apply.toFixed(0)} ms)`,
  )
}
process.exit(0)
