import { Hono } from 'hono'
import { dashboardQuery, messagesAllMeQuery } from '../../../shared/schemas/dashboard'
import { ctxOf, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse } from '../../http/validate'
import { countMessages, getDashboard } from './service'

/**
 * `/dashboard` (`GET /?days=` or `?date_from=&date_to=`) and `/messages-allMe` (`GET /?fromMe=&dateStart=&dateEnd=`).
 * Both need the permission dashboard:view (admins) or the user's showDashboard 'enabled' (checked in the service).
 */
export const dashboardRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(getDashboard(ctxOf(c), parse(dashboardQuery, c.req.query()))))

export const messagesAllMeRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', (c) => c.json(countMessages(ctxOf(c), parse(messagesAllMeQuery, c.req.query()))))
