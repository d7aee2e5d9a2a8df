import { describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../../test/harness'
import { CONTACTS_PAGE_SIZE, foldTerm, SORT_HITS_LIMIT, searchPaths } from './search'
import { makeContact, makeTag, tagContact } from './testing'

const FIRST = [
  'Ana',
  'Ána',
  'Mariana',
  'Luciána',
  'João',
  'José',
  'Patrícia',
  'Bruno',
  'ANAÍS',
  'Zoë',
  'Łukasz',
  'Ñandú',
]
const LAST = ['Silva', 'Conceição', 'Santana', 'Muñoz', 'Gonçalves', 'Lima', 'Ødegård', 'Souza']

/** 960 contacts whose names mix ASCII, accents, cases and letters folding cannot make ASCII. */
function seed(h: Harness, companyId: number) {
  const made: { id: number; name: string; number: string }[] = []
  let i = 0
  for (const first of FIRST)
    for (const last of LAST)
      for (let k = 0; k < 10; k++) {
        i += 1
        const name = `${first} ${last}${k ? ` ${k}` : ''}`
        const number = `5511${String(900000000 + i)}`
        made.push({ id: makeContact(h, companyId, { name, number }).id, name, number })
      }
  return made
}

type Page = { status: number; body: { count: number; hasMore: boolean; contacts: { id: number }[] } }

async function allPages(get: (path: string) => Promise<Page>, query: string) {
  const ids: number[] = []
  let count = -1
  for (let page = 1; page < 100; page++) {
    const res = await get(`/contacts?pageNumber=${page}&${query}`)
    expect(res.status).toBe(200)
    if (count === -1) count = res.body.count
    else expect(res.body.count).toBe(count)
    ids.push(...res.body.contacts.map((c: { id: number }) => c.id))
    expect(res.body.contacts.length).toBeLessThanOrEqual(CONTACTS_PAGE_SIZE)
    if (!res.body.hasMore) break
    expect(res.body.contacts).toHaveLength(CONTACTS_PAGE_SIZE)
  }
  return { ids, count }
}

const lowerAscii = (s: string) => s.replace(/[A-Z]/g, (ch) => ch.toLowerCase())

/**
 * What the trigram index answers: a case- and accent-insensitive substring, in name order (then id). Terms
 * under 3 characters: LIKE's substring, case-insensitive for ASCII letters only.
 */
function reference(made: { id: number; name: string }[], term: string) {
  const short = [...foldTerm(term)].length < 3
  const matches = (name: string) =>
    short ? lowerAscii(name).includes(lowerAscii(term)) : foldTerm(name).includes(foldTerm(term))
  return made
    .filter((c) => matches(c.name))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id))
    .map((c) => c.id)
}

describe('contacts: the list and its search', () => {
  test('every term gives the same contacts, in name order, with the right count, whichever path answers', async () => {
    const h = await createHarness()
    const made = seed(h, h.a.id)
    seed(h, h.b.id) // another company's contacts never count
    // Many hits bunched at the end of the alphabet: a window of the name index misses them.
    for (let k = 0; k < 450; k++) {
      const name = `Zulmira ${k}`
      made.push({ id: makeContact(h, h.a.id, { name }).id, name, number: '' })
    }
    const admin = await h.as(h.a.admin)
    const before = { ...searchPaths }
    const terms = [
      'ana',
      'ÁNA',
      'anai',
      'luciana',
      'conceicao',
      'ção',
      'munoz',
      'souza 3',
      'zoe',
      'lukasz',
      'odegard',
      'zulm',
      'an',
      'AN',
      'ç',
      'xyz',
      '%',
      'a_a',
    ]
    for (const term of terms) {
      const expected = reference(made, term)
      const { ids, count } = await allPages(admin.get, `searchParam=${encodeURIComponent(term)}`)
      expect({ term, ids }).toEqual({ term, ids: expected })
      expect({ term, count }).toEqual({ term, count: expected.length })
    }
    // Every way to a page was taken: a whole walk, a window, a window that fell short, sorting the hits.
    expect(reference(made, 'ana').length).toBeGreaterThan(SORT_HITS_LIMIT)
    expect(reference(made, 'luciana').length).toBeLessThan(SORT_HITS_LIMIT)
    for (const way of ['walk', 'window', 'windowMissed', 'sort'] as const)
      expect({ way, taken: searchPaths[way] > before[way] }).toEqual({ way, taken: true })
  })

  test('without a search: every contact, 20 a page, count from the counters', async () => {
    const h = await createHarness()
    const made = seed(h, h.a.id)
    const admin = await h.as(h.a.admin)
    const first = await admin.get('/contacts/')
    expect(first.body.count).toBe(made.length)
    expect(first.body.hasMore).toBe(true)
    expect(first.body.contacts).toHaveLength(20)
    const { ids } = await allPages(admin.get, '')
    expect(ids).toEqual(reference(made, ''))
    const past = await admin.get('/contacts?pageNumber=1000')
    expect(past.body).toEqual({ contacts: [], count: made.length, hasMore: false })
    // The counters follow inserts and deletes.
    await admin.del(`/contacts/${made[0]!.id}`)
    await admin.post('/contacts', { name: 'Nova', number: '5599912345678' })
    await admin.post('/contacts', { name: 'Outra' })
    expect((await admin.get('/contacts')).body.count).toBe(made.length + 1)
  })

  test('a number typed with separators searches the digits of numbers', async () => {
    const h = await createHarness()
    const one = makeContact(h, h.a.id, { name: 'Ana', number: '5511987654321' })
    makeContact(h, h.a.id, { name: 'Bia', number: '5521900001111' })
    const admin = await h.as(h.a.admin)
    for (const term of ['98765-43', '(11) 98765', '+55 11 9876', '654', '11'])
      expect(
        (await admin.get(`/contacts?searchParam=${encodeURIComponent(term)}`)).body.contacts.map(
          (c: { id: number }) => c.id,
        ),
      ).toContain(one.id)
    expect((await admin.get('/contacts?searchParam=0000111')).body.count).toBe(1)
  })

  test('contactTag keeps the contacts with any of the tags, with or without a search', async () => {
    const h = await createHarness()
    const [vip, late] = [makeTag(h, h.a.id, 'VIP'), makeTag(h, h.a.id, 'Atraso')]
    const ana = makeContact(h, h.a.id, { name: 'Ana' })
    const bia = makeContact(h, h.a.id, { name: 'Bia' })
    const caio = makeContact(h, h.a.id, { name: 'Caio' })
    makeContact(h, h.a.id, { name: 'Ana sem tag' })
    tagContact(h, ana.id, vip.id)
    tagContact(h, bia.id, late.id)
    tagContact(h, caio.id, vip.id)
    tagContact(h, caio.id, late.id)
    const admin = await h.as(h.a.admin)
    const ids = async (q: string) => (await admin.get(`/contacts?${q}`)).body
    expect(await ids(`contactTag=${encodeURIComponent(JSON.stringify([vip.id]))}`)).toMatchObject({
      count: 2,
      contacts: [{ id: ana.id }, { id: caio.id }],
    })
    expect((await ids(`contactTag=${encodeURIComponent(JSON.stringify([vip.id, late.id]))}`)).count).toBe(3)
    expect(
      await ids(`searchParam=ana&contactTag=${encodeURIComponent(JSON.stringify([vip.id]))}`),
    ).toMatchObject({
      count: 1,
      contacts: [{ id: ana.id, tags: [{ id: vip.id, name: 'VIP' }] }],
    })
    expect((await ids('contactTag=[]')).count).toBe(4)
  })

  test('GET /contacts/list answers every contact by name', async () => {
    const h = await createHarness()
    makeContact(h, h.a.id, { name: 'Zeca' })
    makeContact(h, h.a.id, { name: 'Alice' })
    const agent = await h.as(h.a.attendant)
    const res = await agent.get('/contacts/list')
    expect(res.body.map((c: { name: string }) => c.name)).toEqual(['Alice', 'Zeca'])
  })
})

describe('contacts: odd search terms', () => {
  test('quotes, operators, wildcards and control characters are searched literally, never a 500', async () => {
    const h = await createHarness()
    makeContact(h, h.a.id, { name: 'Ana "Nana" O\'Neil (loja) 100% * NEAR AND' })
    const admin = await h.as(h.a.admin)
    const terms = [
      '"',
      '""',
      '"nana"',
      "o'neil",
      '(loja)',
      '100%',
      '* near',
      'AND',
      'NEAR(',
      '^ana',
      'a:b',
      '\u0000ab',
      '-',
      '---',
      '+',
      '()',
      '   ',
      'x'.repeat(200),
      '🙂🙂🙂',
    ]
    for (const term of terms) {
      const res = await admin.get(`/contacts?searchParam=${encodeURIComponent(term)}`)
      expect({ term, status: res.status }).toEqual({ term, status: 200 })
    }
    expect((await admin.get(`/contacts?searchParam=${encodeURIComponent('"nana"')}`)).body.count).toBe(1)
    expect((await admin.get(`/contacts?searchParam=${encodeURIComponent('100%')}`)).body.count).toBe(1)
    expect((await admin.get(`/contacts?searchParam=${encodeURIComponent('x'.repeat(201))}`)).status).toBe(400)
  })
})
