import { describe, expect, test } from 'bun:test'
import { createHarness } from '../../test/harness'
import { makeContact, makeTag, makeTicket, setTricked } from '../contacts/testing'

describe('ticket tags', () => {
  test('an attendant of the queue tags a ticket and clears its tags; the ticket is live to its rooms', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id)
    h.addToQueue(h.a.attendantId, queue.id)
    setTricked(h, h.a.attendantId, 'disabled')
    const contact = makeContact(h, h.a.id, { number: '5511987654321' })
    const ticket = makeTicket(h, h.a.id, { contactId: contact.id, queueId: queue.id, status: 'pending' })
    const [vip, late] = [makeTag(h, h.a.id, 'VIP'), makeTag(h, h.a.id, 'Atraso')]
    const agent = await h.as(h.a.attendant)
    const events = h.recordEvents()
    const res = await agent.put(`/ticket-tags/${ticket.id}/${vip.id}`)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      id: ticket.id,
      tags: [{ id: vip.id, name: 'VIP' }],
      contact: { number: '551198765****' },
    })
    await agent.put(`/ticket-tags/${ticket.id}/${late.id}`)
    // Adding a tag the ticket has changes nothing and publishes nothing.
    const before = events.length
    expect((await agent.put(`/ticket-tags/${ticket.id}/${vip.id}`)).body.tags).toHaveLength(2)
    expect(events.length).toBe(before)
    const cleared = await agent.del(`/ticket-tags/${ticket.id}`)
    expect(cleared.status).toBe(200)
    expect(cleared.body.tags).toEqual([])
    const updates = events.filter((e) => e.event === `company-${h.a.id}-ticket`)
    expect(updates.map((e) => e.room)).toContain(`company:${h.a.id}:queue:${queue.id}`)
    expect(updates.map((e) => e.room)).toContain(`company:${h.a.id}:admins`)
    const last = updates.at(-1)!
    expect(last.data).toMatchObject({
      action: 'update',
      ticket: { id: ticket.id, tags: [], contact: { number: '551198765****' } },
    })
    expect(last.unmasked).toMatchObject({ ticket: { contact: { number: '5511987654321' } } })
  })

  test('an attendant outside the ticket queue is refused; another company answers 404', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id)
    const contact = makeContact(h, h.a.id)
    const ticket = makeTicket(h, h.a.id, { contactId: contact.id, queueId: queue.id })
    const tag = makeTag(h, h.a.id, 'VIP')
    const agent = await h.as(h.a.attendant)
    const denied = await agent.put(`/ticket-tags/${ticket.id}/${tag.id}`)
    expect(denied.status).toBe(403)
    expect((await agent.del(`/ticket-tags/${ticket.id}`)).status).toBe(403)
    const beta = await h.as(h.b.admin)
    for (const res of [
      await beta.put(`/ticket-tags/${ticket.id}/${tag.id}`),
      await beta.del(`/ticket-tags/${ticket.id}`),
    ]) {
      expect(res.status).toBe(404)
      expect(res.body.error).toBe('ERR_NO_TICKET_FOUND')
    }
    // A tag of another company on one's own ticket: the tag is not found.
    const admin = await h.as(h.a.admin)
    const foreignTag = makeTag(h, h.b.id, 'Beta')
    const res = await admin.put(`/ticket-tags/${ticket.id}/${foreignTag.id}`)
    expect(res.status).toBe(404)
    expect(res.body.error).toBe('ERR_NO_TAG_FOUND')
    expect((await admin.put(`/ticket-tags/abc/${tag.id}`)).status).toBe(404)
    expect((await admin.put(`/ticket-tags/${ticket.id}/0`)).status).toBe(404)
    expect((await h.call('DELETE', `/ticket-tags/${ticket.id}`)).status).toBe(401)
    expect(h.deps.sqlite.query('SELECT count(*) AS n FROM ticket_tags').get()).toEqual({ n: 0 })
  })

  test("tickets.tag_count follows every way a ticket's tags change, and the list shows the tags it counts", async () => {
    const h = await createHarness()
    const [plain, tagged] = [1, 2].map(() =>
      makeTicket(h, h.a.id, { contactId: makeContact(h, h.a.id).id }),
    ) as [{ id: number }, { id: number }]
    const [vip, late] = [makeTag(h, h.a.id, 'VIP'), makeTag(h, h.a.id, 'Atraso')]
    const admin = await h.as(h.a.admin)
    const counts = () =>
      h.deps.sqlite
        .query<{ id: number; tagCount: number }, []>(
          'SELECT id, tag_count AS tagCount FROM tickets ORDER BY id',
        )
        .all()
    const listed = async () => {
      const res = await admin.get('/tickets?showAll=true&status=pending')
      expect(res.status).toBe(200)
      return Object.fromEntries(
        (res.body.tickets as { id: number; tags: { name: string }[] }[]).map((t) => [
          t.id,
          t.tags.map((g) => g.name),
        ]),
      )
    }
    await admin.put(`/ticket-tags/${tagged.id}/${vip.id}`)
    await admin.put(`/ticket-tags/${tagged.id}/${late.id}`)
    await admin.put(`/ticket-tags/${tagged.id}/${late.id}`)
    expect(counts()).toEqual([
      { id: plain.id, tagCount: 0 },
      { id: tagged.id, tagCount: 2 },
    ])
    expect(await listed()).toEqual({ [plain.id]: [], [tagged.id]: ['Atraso', 'VIP'] })
    // A deleted tag leaves its tickets (a cascade), and the count follows.
    expect((await admin.del(`/tags/${vip.id}`)).status).toBe(200)
    expect(counts()[1]).toEqual({ id: tagged.id, tagCount: 1 })
    expect(await listed()).toEqual({ [plain.id]: [], [tagged.id]: ['Atraso'] })
    expect((await admin.del(`/ticket-tags/${tagged.id}`)).status).toBe(200)
    expect(counts()[1]).toEqual({ id: tagged.id, tagCount: 0 })
    expect(await listed()).toEqual({ [plain.id]: [], [tagged.id]: [] })
  })
})
