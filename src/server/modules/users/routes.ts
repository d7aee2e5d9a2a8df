import { Hono } from 'hono'
import { pageQuery } from '../../../shared/schemas/common'
import { createUserBody, updateUserBody } from '../../../shared/schemas/users'
import { ctxOf, requireAdmin, requireAuth } from '../../http/auth'
import type { AppEnv } from '../../http/env'
import { parse, parseBody, pathId } from '../../http/validate'
import { createUser, deleteUser, getUser, listAllUsers, listUsers, updateUser } from './service'

export const usersRoutes = new Hono<AppEnv>()
  .use(requireAuth)
  .get('/', requireAdmin, (c) => c.json(listUsers(ctxOf(c), parse(pageQuery, c.req.query()))))
  .get('/list', (c) => c.json(listAllUsers(ctxOf(c))))
  .get('/:id', (c) => c.json(getUser(ctxOf(c), pathId(c, 'ERR_NO_USER_FOUND'))))
  .post('/', requireAdmin, async (c) =>
    c.json(await createUser(ctxOf(c), await parseBody(c, createUserBody)), 201),
  )
  .put('/:id', async (c) =>
    c.json(await updateUser(ctxOf(c), pathId(c, 'ERR_NO_USER_FOUND'), await parseBody(c, updateUserBody))),
  )
  .delete('/:id', requireAdmin, (c) => {
    deleteUser(ctxOf(c), pathId(c, 'ERR_NO_USER_FOUND'))
    return c.json({ message: 'User deleted' })
  })
