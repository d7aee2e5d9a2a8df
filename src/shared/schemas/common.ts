import { type } from 'arktype'

/** A trimmed text between min and max characters. */
export const text = (min: number, max: number) => type('string.trim').to(`${min} <= string <= ${max}`)

export const email = type('string.trim')
  .pipe((s) => s.toLowerCase())
  .to('string.email <= 120')

export const time = type(/^([01]\d|2[0-3]):[0-5]\d$/).describe('a time as HH:mm')

/** List queries: `?searchParam=&pageNumber=`. */
export const pageQuery = type({
  '+': 'delete',
  'searchParam?': 'string <= 200',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
})

/** A record id in a path: canonical decimal only (`7`, never `07`, `+7` or `7e0`), so one record has one name. */
export const idParam = type(/^[1-9]\d{0,15}$/)
  .pipe((s) => Number(s))
  .to('1 <= number.integer <= 9007199254740991')
