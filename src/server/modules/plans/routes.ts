import { Hono } from 'hono'
import { pageQuery } from '../../../shared/schemas/common'
import { planBody } from '../../../shared/schemas/companies'
import { ctxOf, requireAuth, requireSuper } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { createPlan, deletePlan, getPlan, listPlans, listPublicPlans, updatePlan } from './service'

export const plansRoutes = new Hono<AppEnv>()
  .get('/list', (c) => c.json(listPublicPlans(c.get('deps'))))
  .use(requireAuth)
  // A company's admin reads their own plan (the checkout); `/all` is gated on its own before `/:id` would take it.
  .get('/all', requireSuper, (c) => c.json(listPublicPlans(c.get('deps'))))
  .get('/:id', (c) => c.json(getPlan(ctxOf(c), pathId(c, 'ERR_NO_PLAN_FOUND'))))
  .use(requireSuper)
  .get('/', (c) => c.json(listPlans(ctxOf(c), parse(pageQuery, c.req.query()))))
  .post('/', async (c) => c.json(createPlan(ctxOf(c), await parseBody(c, planBody)), 201))
  .put('/:id', async (c) =>
    c.json(updatePlan(ctxOf(c), pathId(c, 'ERR_NO_PLAN_FOUND'), await parseBody(c, planBody))),
  )
  .delete('/:id', (c) => {
    deletePlan(ctxOf(c), pathId(c, 'ERR_NO_PLAN_FOUND'))
    return c.json({ message: 'Plan deleted' })
  })
