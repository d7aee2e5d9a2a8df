import { Hono } from 'hono'
import { pageQuery } from '../../../shared/schemas/common'
import { createCompanyBody, updateCompanyBody } from '../../../shared/schemas/companies'
import { companySchedulesBody } from '../../../shared/schemas/service-hours'
import { ctxOf, requireAuth, requireSuper } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import {
  createCompany,
  deleteCompany,
  extendCompany,
  getCompanySchedules,
  listAllCompanies,
  listCompanies,
  readCompany,
  updateCompany,
  updateCompanySchedules,
} from './service'

/**
 * Companies are managed by the platform's super user only; a company's service hours also by its own admins, and
 * a company's admins read their own company (those routes come before the super gate: a route that answers ends
 * the chain there, so `/list` is gated on its own before `/:id` would take it).
 */
export const companiesRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/:id/schedules', (c) => c.json(getCompanySchedules(ctxOf(c), pathId(c, 'ERR_NO_COMPANY_FOUND'))))
  .put('/:id/schedules', async (c) => {
    const id = pathId(c, 'ERR_NO_COMPANY_FOUND')
    const { schedules } = await parseBody(c, companySchedulesBody)
    return c.json(updateCompanySchedules(ctxOf(c), id, schedules))
  })
  .get('/list', requireSuper, (c) => c.json(listAllCompanies(ctxOf(c))))
  .get('/:id', (c) => c.json(readCompany(ctxOf(c), pathId(c, 'ERR_NO_COMPANY_FOUND'))))
  .use(requireSuper)
  .get('/', (c) => c.json(listCompanies(ctxOf(c), parse(pageQuery, c.req.query()))))
  .post('/', async (c) => c.json(await createCompany(ctxOf(c), await parseBody(c, createCompanyBody)), 201))
  .put('/:id', async (c) =>
    c.json(updateCompany(ctxOf(c), pathId(c, 'ERR_NO_COMPANY_FOUND'), await parseBody(c, updateCompanyBody))),
  )
  .post('/:id/extend', (c) => c.json(extendCompany(ctxOf(c), pathId(c, 'ERR_NO_COMPANY_FOUND'))))
  .delete('/:id', (c) => {
    deleteCompany(ctxOf(c), pathId(c, 'ERR_NO_COMPANY_FOUND'))
    return c.json({ message: 'Company deleted' })
  })
