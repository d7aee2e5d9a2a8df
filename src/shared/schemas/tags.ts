import { type } from 'arktype'
import { text } from './common'

export const tagColor = type('string.trim')
  .to(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/)
  .describe('a colour such as #3284FE')

/** A tag: name at least 3 characters ('Mensagem muito curta'), a colour, and kanban 1 for a Kanban lane. */
export const tagBody = type({
  '+': 'delete',
  name: text(3, 50),
  'color?': tagColor,
  'kanban?': '0 | 1',
})

export type TagInput = typeof tagBody.infer

/** `GET /tags/`: search by name, page, and kanban 0 (tags) or 1 (lanes); absent gives both. */
export const listTagsQuery = type({
  '+': 'delete',
  'searchParam?': 'string <= 200',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
  'kanban?': type("'0' | '1'").pipe((s) => Number(s) as 0 | 1),
})

export type ListTagsQuery = typeof listTagsQuery.infer
