import { expect, test } from 'bun:test'
import { cycles } from '../test/import-graph'

test('no job and no service that wakes one import each other: services reach jobs through ctx.jobs', () => {
  const entries = [
    'server/jobs/catalogue.ts',
    'server/modules/schedules/service.ts',
    'server/modules/schedules/runner.ts',
    'server/modules/campaigns/service.ts',
    'server/modules/campaigns/runner.ts',
  ]
  const touching = cycles(entries).filter((cycle) =>
    cycle.some((file) => /^server\/(jobs|modules\/(schedules|campaigns))\//.test(file)),
  )
  expect(touching).toEqual([])
})
