import { type } from 'arktype'
import { pageQuery, text } from './common'

/** A contact list: only a name, 2 to 50 characters (spec 2: 'Too Short!', 'Too Long!', 'Required'). */
export const contactListBody = type({ '+': 'delete', name: text(2, 50) })
export type ContactListInput = typeof contactListBody.infer

export const listContactListsQuery = pageQuery
export type ListContactListsQuery = typeof listContactListsQuery.infer

/** An item: name 2 to 50, number 8 to 50 characters (digits kept), email valid when given. */
export const contactListItemBody = type({
  '+': 'delete',
  name: text(2, 50),
  number: text(8, 50),
  'email?': type('string.trim')
    .pipe((s) => s.toLowerCase())
    .to("'' | string.email <= 120"),
  'contactListId?': 'number.integer > 0',
})
export type ContactListItemInput = typeof contactListItemBody.infer

export const listContactListItemsQuery = type({
  '+': 'delete',
  'searchParam?': 'string <= 200',
  'pageNumber?': type('string.integer.parse').to('1 <= number.integer <= 100000'),
  contactListId: type(/^[1-9]\d{0,15}$/).pipe((s) => Number(s)),
})
export type ListContactListItemsQuery = typeof listContactListItemsQuery.infer

export const exportContactsQuery = type({ '+': 'delete', 'format?': "'csv' | 'xlsx'" })
