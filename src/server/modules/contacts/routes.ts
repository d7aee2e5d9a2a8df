import { Hono } from 'hono'
import { exportContactsQuery } from '../../../shared/schemas/contact-lists'
import { contactBody, findOrCreateContactBody, listContactsQuery } from '../../../shared/schemas/contacts'
import { ctxOf, requireAdmin, requireAuth, requirePermission } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { getImportJob, startImport, withImportSlot } from '../contact-lists/imports'
import { readUploadedSheet } from '../contact-lists/uploaded-sheet'
import { erasePersonalData, exportPersonalData } from './personal-data'
import { listAllContacts, listContacts } from './search'
import { createContact, deleteContact, findOrCreateContact, getContact, updateContact } from './service'
import { exportContacts } from './transfer'

/**
 * `/contacts`. `GET /contacts` and `GET /contacts/` are one route (strict: false): both answer the page
 * `{ contacts, count, hasMore }`, which also serves the spec's `GET /contacts?searchParam=` (it reads `contacts`).
 */
export const contactsRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(listContacts(ctxOf(c), parse(listContactsQuery, c.req.query()))))
  .get('/list', (c) => c.json(listAllContacts(ctxOf(c))))
  // Import and export are administration (spec 1 sends them to the administration document): admins only.
  .get('/export', requireAdmin, async (c) => {
    const file = await exportContacts(ctxOf(c), parse(exportContactsQuery, c.req.query()).format ?? 'csv')
    return new Response(new Blob([file.bytes as Uint8Array<ArrayBuffer>]), {
      headers: {
        'content-type': file.type,
        'content-disposition': `attachment; filename="${file.fileName}"`,
        'cache-control': 'no-store',
      },
    })
  })
  // A spreadsheet into the contacts (nome, numero, email): a durable job (202); `/import/{id}` reads it.
  .post('/import', requireAdmin, async (c) => {
    const ctx = ctxOf(c)
    const job = await withImportSlot(ctx, async () => {
      const { rows, name } = await readUploadedSheet(c)
      return startImport(ctx, 'contacts', null, name, rows)
    })
    return c.json(job, 202)
  })
  .get('/import/:id', requireAdmin, (c) => c.json(getImportJob(ctxOf(c), pathId(c, 'ERR_NO_IMPORT_FOUND'))))
  .post('/findOrCreate', async (c) => {
    const { contact, created } = findOrCreateContact(ctxOf(c), await parseBody(c, findOrCreateContactBody))
    return c.json(contact, created ? 201 : 200)
  })
  // LGPD: one person's data, downloaded as a file or erased (admins only; personal-data.ts)
  .get('/:id/personal-data', requireAdmin, (c) => {
    const file = exportPersonalData(ctxOf(c), pathId(c, 'ERR_NO_CONTACT_FOUND'))
    return new Response(file.json, {
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'content-disposition': `attachment; filename="${file.fileName}"`,
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
    })
  })
  .delete('/:id/personal-data', requireAdmin, (c) =>
    c.json(erasePersonalData(ctxOf(c), pathId(c, 'ERR_NO_CONTACT_FOUND'))),
  )
  .get('/:id', (c) => c.json(getContact(ctxOf(c), pathId(c, 'ERR_NO_CONTACT_FOUND'))))
  .post('/', async (c) => c.json(createContact(ctxOf(c), await parseBody(c, contactBody)), 201))
  .put('/:id', async (c) =>
    c.json(updateContact(ctxOf(c), pathId(c, 'ERR_NO_CONTACT_FOUND'), await parseBody(c, contactBody))),
  )
  .delete('/:id', requirePermission('contacts-page:deleteContact'), (c) => {
    deleteContact(ctxOf(c), pathId(c, 'ERR_NO_CONTACT_FOUND'))
    return c.json({ message: 'Contact deleted' })
  })
