import { describe, expect, test } from 'bun:test'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { makeContactList } from '../campaigns/testing'
import { count, messagesOf, sandboxHarness } from '../inbound/testing'
import { searchIndexerOf } from '../search/indexer'
import { ANONYMISED_NAME } from './personal-data'
import { makeContact } from './testing'

const MARIA = '5511988887777'
const JOAO = '5511977776666'
const PHOTO = Buffer.from('a photo of the order').toString('base64')

/** Maria writes twice and sends a photo, the admin answers, João writes once; the search index catches up. */
async function conversation() {
  const t = await sandboxHarness()
  const { h, net, conn } = t
  await net.inject(conn.id, { from: MARIA, name: 'Maria Souza', body: 'meu pedido abacaxi atrasou' })
  await net.inject(conn.id, {
    from: MARIA,
    media: { kind: 'image', mimetype: 'image/jpeg', dataBase64: PHOTO, caption: 'foto do pedido' },
  })
  await net.inject(conn.id, { from: JOAO, name: 'João', body: 'outro cliente abacaxi' })
  await h.inbound.idle()
  const maria = h.deps.sqlite
    .query<{ id: number }, [string]>('SELECT id FROM contacts WHERE number = ?')
    .get(MARIA)!.id
  const ticket = h.deps.sqlite
    .query<{ id: number }, [number]>('SELECT id FROM tickets WHERE contact_id = ?')
    .get(maria)!.id
  const admin = await h.as(h.a.admin)
  expect((await admin.put(`/tickets/${ticket}`, { status: 'open', userId: h.a.adminId })).status).toBe(200)
  expect((await admin.post(`/messages/${ticket}`, { body: 'Olá Maria, vamos ver o abacaxi' })).status).toBe(
    201,
  )
  h.deps.sqlite
    .query("INSERT INTO contact_extra_info (contact_id, name, value) VALUES (?, 'CPF', '123.456.789-00')")
    .run(maria)
  searchIndexerOf(h.deps).drain()
  return { ...t, admin, maria, ticket }
}

const ftsHits = (t: Awaited<ReturnType<typeof conversation>>, word: string) =>
  t.h.deps.sqlite
    .query<{ rowid: number }, [string]>('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?')
    .all(word).length

describe('GET /contacts/{id}/personal-data', () => {
  test('one JSON file with the contact, extra info, tickets, messages and media', async () => {
    const t = await conversation()
    const res = await t.admin.get(`/contacts/${t.maria}/personal-data`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('application/json')
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="dados-pessoais-contato-${t.maria}.json"`,
    )
    const file = res.body
    expect(file.contact).toMatchObject({ id: t.maria, number: MARIA, name: 'Maria Souza' })
    expect(file.extraInfo).toEqual([{ name: 'CPF', value: '123.456.789-00' }])
    const ids = messagesOf(t.h, 'ticket_id = ?', t.ticket).map((m) => m.id)
    expect(ids).toHaveLength(3)
    expect(file.tickets).toHaveLength(1)
    const got = file.tickets[0].messages
    expect(got.map((m: { id: number }) => m.id)).toEqual(ids)
    expect(got.map((m: { direction: string }) => m.direction)).toEqual(['received', 'received', 'sent'])
    expect(got[0].body).toBe('meu pedido abacaxi atrasou')
    expect(got[1].media.name).toMatch(/\.jpg$/)
    expect(got[1].media.url).toMatch(new RegExp(`^/api/media/${t.h.a.id}/`))
    expect(JSON.stringify(file)).not.toContain('outro cliente')
  })

  test('attendants 403; another company 404; a bad id 404', async () => {
    const t = await conversation()
    const attendant = await t.h.as(t.h.a.attendant)
    expect((await attendant.get(`/contacts/${t.maria}/personal-data`)).status).toBe(403)
    expect((await attendant.del(`/contacts/${t.maria}/personal-data`)).status).toBe(403)
    const other = await t.h.as(t.h.b.admin)
    const res = await other.get(`/contacts/${t.maria}/personal-data`)
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('ERR_NO_CONTACT_FOUND')
    expect((await other.del(`/contacts/${t.maria}/personal-data`)).status).toBe(404)
    expect((await t.admin.get('/contacts/abc/personal-data')).status).toBe(404)
    expect(count(t.h, 'messages', 'ticket_id = ?', t.ticket)).toBe(3)
  })
})

describe('DELETE /contacts/{id}/personal-data', () => {
  test('erases the messages, their index entries, the media files and extra info; the ticket stays, anonymised', async () => {
    const t = await conversation()
    const own = messagesOf(t.h, 'ticket_id = ?', t.ticket)
    const media = own.find((m) => m.mediaPath)!
    const file = join(t.h.deps.mediaDir, String(t.h.a.id), media.mediaPath!)
    expect(existsSync(file)).toBe(true)
    expect(ftsHits(t, 'abacaxi')).toBe(3)

    const res = await t.admin.del(`/contacts/${t.maria}/personal-data`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ contactId: t.maria, messages: 3, media: 1, extraInfo: 1, tickets: 1 })
    const ids = own.map((m) => m.id).join(',')
    expect(count(t.h, 'messages', `id IN (${ids})`)).toBe(0)
    expect(existsSync(file)).toBe(false)
    // only João's message is still found
    expect(ftsHits(t, 'abacaxi')).toBe(1)
    expect(count(t.h, 'messages', 'body = ?', 'outro cliente abacaxi')).toBe(1)
    expect(count(t.h, 'contact_extra_info', 'contact_id = ?', t.maria)).toBe(0)
    const ticket = t.h.deps.sqlite
      .query<{ lastMessage: string }, [number]>(
        'SELECT last_message AS lastMessage FROM tickets WHERE id = ?',
      )
      .get(t.ticket)
    expect(ticket).toEqual({ lastMessage: '' })
    const contact = (await t.admin.get(`/contacts/${t.maria}`)).body
    expect(contact).toMatchObject({ name: ANONYMISED_NAME, number: '', email: '' })
    const again = (await t.admin.get(`/contacts/${t.maria}/personal-data`)).body
    expect(again.tickets[0].messages).toEqual([])
    expect(again.extraInfo).toEqual([])
  })

  test('a file a bot sends from a file list stays when the conversation that carried it is erased', async () => {
    const t = await conversation()
    const media = messagesOf(t.h, 'ticket_id = ? AND media_path IS NOT NULL', t.ticket)[0]!
    const now = t.h.clock.now()
    const list = t.h.deps.sqlite
      .query<{ id: number }, [number, number, number]>(
        "INSERT INTO files (company_id, name, message, created_at, updated_at) VALUES (?, 'Catálogo', 'x', ?, ?) RETURNING id",
      )
      .get(t.h.a.id, now, now)!.id
    t.h.deps.sqlite
      .query(
        "INSERT INTO file_options (file_id, name, path, created_at, updated_at) VALUES (?, 'Foto', ?, ?, ?)",
      )
      .run(list, media.mediaPath!, now, now)
    const res = await t.admin.del(`/contacts/${t.maria}/personal-data`)
    expect(res.body.media).toBe(0)
    expect(existsSync(join(t.h.deps.mediaDir, String(t.h.a.id), media.mediaPath!))).toBe(true)
  })

  test('contact lists and campaigns forget the person: unsent rows go, sent ones keep only their state', async () => {
    const t = await conversation()
    const { h } = t
    const now = h.clock.now()
    const list = makeContactList(h, h.a.id, [
      { name: 'Maria Souza', number: MARIA, email: 'maria@example.com' },
      { name: 'João', number: JOAO },
    ])
    const campaign = h.deps.sqlite
      .query<{ id: number }, [number, number, number]>(
        "INSERT INTO campaigns (company_id, name, created_at, updated_at) VALUES (?, 'Natal', ?, ?) RETURNING id",
      )
      .get(h.a.id, now, now)!.id
    const ship = (number: string, state: string) =>
      h.deps.sqlite
        .query(
          `INSERT INTO campaign_shippings (campaign_id, company_id, number, name, message, state, created_at, updated_at)
           VALUES (?, ?, ?, 'Maria Souza', 'Olá Maria', ?, ?, ?)`,
        )
        .run(campaign, h.a.id, number, state, now, now)
    ship(MARIA, 'delivered')
    ship(JOAO, 'pending')
    const other = h.deps.sqlite
      .query<{ id: number }, [number, number, number]>(
        "INSERT INTO campaigns (company_id, name, created_at, updated_at) VALUES (?, 'Páscoa', ?, ?) RETURNING id",
      )
      .get(h.a.id, now, now)!.id
    h.deps.sqlite
      .query(
        `INSERT INTO campaign_shippings (campaign_id, company_id, number, name, state, created_at, updated_at)
         VALUES (?, ?, ?, 'Maria Souza', 'pending', ?, ?)`,
      )
      .run(other, h.a.id, MARIA, now, now)

    const res = await t.admin.del(`/contacts/${t.maria}/personal-data`)
    expect(res.status).toBe(200)
    expect(res.body.campaignRows).toBeGreaterThanOrEqual(3)
    expect(count(h, 'contact_list_items', 'contact_list_id = ? AND number = ?', list, MARIA)).toBe(0)
    expect(count(h, 'contact_list_items', 'contact_list_id = ? AND number = ?', list, JOAO)).toBe(1)
    // the Easter campaign will never write to her; Christmas still counts one delivery, without her
    expect(count(h, 'campaign_shippings', 'campaign_id = ?', other)).toBe(0)
    const sent = h.deps.sqlite
      .query<{ number: string; name: string; message: string; state: string }, [number]>(
        "SELECT number, name, message, state FROM campaign_shippings WHERE campaign_id = ? AND state = 'delivered'",
      )
      .get(campaign)!
    expect(sent).toMatchObject({ name: '', message: '', state: 'delivered' })
    expect(sent.number).not.toContain(MARIA)
    expect(count(h, 'campaign_shippings', 'number = ?', MARIA)).toBe(0)
    expect(count(h, 'campaign_shippings', 'number = ?', JOAO)).toBe(1)
  })

  test('a group is not a person: erasing it is refused and nothing is removed', async () => {
    const t = await conversation()
    const { h } = t
    const group = makeContact(h, h.a.id, {
      name: 'Clientes VIP',
      number: '120363000000000001',
      isGroup: true,
    }).id
    const before = count(h, 'messages', '1 = 1')
    const res = await t.admin.del(`/contacts/${group}/personal-data`)
    expect(res.status).toBe(400)
    expect(res.body.fields[0].field).toBe('id')
    expect(count(h, 'messages', '1 = 1')).toBe(before)
  })

  test('an edit history that cannot be read is exported as none, never a 500', async () => {
    const t = await conversation()
    t.h.deps.sqlite
      .query("UPDATE messages SET is_edited = 1, old_messages = '{broken' WHERE ticket_id = ?")
      .run(t.ticket)
    const res = await t.admin.get(`/contacts/${t.maria}/personal-data`)
    expect(res.status).toBe(200)
    expect(res.body.tickets[0].messages[0].previousVersions).toEqual([])
  })
})
