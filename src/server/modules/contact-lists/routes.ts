import { Hono } from 'hono'
import {
  contactListBody,
  contactListItemBody,
  listContactListItemsQuery,
  listContactListsQuery,
} from '../../../shared/schemas/contact-lists'
import { ctxOf, requireAdmin, requireAuth, requirePermission } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { getImportJob, startImport, withImportSlot } from './imports'
import {
  contactListInCompany,
  createContactList,
  createContactListItem,
  deleteContactList,
  deleteContactListItem,
  getContactList,
  getContactListItem,
  listAllContactLists,
  listContactListItems,
  listContactLists,
  updateContactList,
  updateContactListItem,
} from './service'
import { readUploadedSheet } from './uploaded-sheet'

const NOT_FOUND = 'ERR_NO_CONTACT_LIST_FOUND'
const ITEM_NOT_FOUND = 'ERR_NO_CONTACT_LIST_ITEM_FOUND'

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * `/contact-lists` (spec 2): admins only; the plan's useCampaigns gates the path (PLAN_GATED_PATHS). `GET /`
 * answers `{ records, count, hasMore }`; `/list` every list; `/sample` the sample spreadsheet (ours);
 * `POST /{id}/upload` starts an import and answers its job (202); `/imports/{id}` reads a job.
 */
export const contactListsRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireAdmin)
  .get('/', (c) => c.json(listContactLists(ctxOf(c), parse(listContactListsQuery, c.req.query()))))
  .get('/list', (c) => c.json(listAllContactLists(ctxOf(c))))
  .get('/sample', async () => {
    const { sampleSpreadsheet } = await import('./spreadsheet')
    return new Response(new Blob([sampleSpreadsheet() as Uint8Array<ArrayBuffer>]), {
      headers: {
        'content-type': XLSX_TYPE,
        'content-disposition': 'attachment; filename="contatos-exemplo.xlsx"',
        'cache-control': 'no-store',
      },
    })
  })
  .get('/imports/:id', (c) => c.json(getImportJob(ctxOf(c), pathId(c, 'ERR_NO_IMPORT_FOUND'))))
  .get('/:id', (c) => c.json(getContactList(ctxOf(c), pathId(c, NOT_FOUND))))
  .post('/', async (c) => c.json(createContactList(ctxOf(c), await parseBody(c, contactListBody)), 201))
  .put('/:id', async (c) =>
    c.json(updateContactList(ctxOf(c), pathId(c, NOT_FOUND), await parseBody(c, contactListBody))),
  )
  .delete('/:id', (c) => {
    deleteContactList(ctxOf(c), pathId(c, NOT_FOUND))
    return c.json({ message: 'Contact list deleted' })
  })
  .post('/:id/upload', async (c) => {
    const ctx = ctxOf(c)
    const id = pathId(c, NOT_FOUND)
    // Another company's list is refused before the file is read.
    contactListInCompany(ctx.sqlite, ctx.actor.companyId, id)
    const job = await withImportSlot(ctx, async () => {
      const { rows, name } = await readUploadedSheet(c)
      return startImport(ctx, 'contactList', id, name, rows)
    })
    return c.json(job, 202)
  })

/** `/contact-list-items` (spec 2): admins only; deleting also needs contacts-page:deleteContact. */
export const contactListItemsRoutes = new Hono<AppEnv>()
  .use(requireAuth, requireAdmin)
  .get('/', (c) => c.json(listContactListItems(ctxOf(c), parse(listContactListItemsQuery, c.req.query()))))
  .get('/:id', (c) => c.json(getContactListItem(ctxOf(c), pathId(c, ITEM_NOT_FOUND))))
  .post('/', async (c) =>
    c.json(createContactListItem(ctxOf(c), await parseBody(c, contactListItemBody)), 201),
  )
  .put('/:id', async (c) =>
    c.json(
      updateContactListItem(ctxOf(c), pathId(c, ITEM_NOT_FOUND), await parseBody(c, contactListItemBody)),
    ),
  )
  .delete('/:id', requirePermission('contacts-page:deleteContact'), (c) => {
    deleteContactListItem(ctxOf(c), pathId(c, ITEM_NOT_FOUND))
    return c.json({ message: 'Contact list item deleted' })
  })
