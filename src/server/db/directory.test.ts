import { Database } from 'bun:sqlite'
import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { makeContact, makeTicket } from '../modules/contacts/testing'
import { loadTicketDto, loadTicketDtos } from '../modules/tickets/dto'
import { createHarness } from '../test/harness'
import { openDatabase } from './client'
import { companyDirectory } from './directory'
import { runMigrations } from './migrate'

describe("a company's directory (the names tickets show)", () => {
  test('a user, queue or connection added, renamed, recoloured or removed shows in the next ticket read', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id, { name: 'Vendas', color: '#111111' })
    const conn = h.makeConnection(h.a.id, { name: 'Loja' })
    const contact = makeContact(h, h.a.id)
    const ticket = makeTicket(h, h.a.id, {
      contactId: contact.id,
      queueId: queue.id,
      whatsappId: conn.id,
      userId: h.a.attendantId,
      status: 'open',
    })
    const names = () => {
      const t = loadTicketDto(h.deps.sqlite, ticket.id)!
      expect(loadTicketDtos(h.deps.sqlite, [ticket.id])[0]).toEqual(t)
      return [t.user?.name, t.queue && `${t.queue.name} ${t.queue.color}`, t.whatsapp?.name]
    }
    const attendant = h.deps.sqlite
      .query<{ name: string }, [number]>('SELECT name FROM users WHERE id = ?')
      .get(h.a.attendantId)!.name
    expect(names()).toEqual([attendant, 'Vendas #111111', 'Loja'])
    const run = (sql: string, ...args: (string | number)[]) => h.deps.sqlite.query(sql).run(...args)
    run('UPDATE users SET name = ? WHERE id = ?', 'Ana Atendente', h.a.attendantId)
    run('UPDATE queues SET name = ?, color = ? WHERE id = ?', 'Pós-venda', '#222222', queue.id)
    run('UPDATE whatsapps SET name = ? WHERE id = ?', 'Matriz', conn.id)
    expect(names()).toEqual(['Ana Atendente', 'Pós-venda #222222', 'Matriz'])
    // Changes that touch no name leave the kept directory as it is.
    const before = companyDirectory(h.deps.sqlite, h.a.id)
    run("UPDATE whatsapps SET status = 'CONNECTED' WHERE id = ?", conn.id)
    run('UPDATE users SET online = 1 WHERE id = ?', h.a.attendantId)
    expect(companyDirectory(h.deps.sqlite, h.a.id)).toBe(before)
    // Another company's directory is its own.
    expect(companyDirectory(h.deps.sqlite, h.b.id).queues.has(queue.id)).toBe(false)
    run('DELETE FROM queues WHERE id = ?', queue.id)
    expect(loadTicketDto(h.deps.sqlite, ticket.id)!.queue).toBeNull()
  })

  test('a rename rolled back is not kept', async () => {
    const h = await createHarness()
    const queue = h.makeQueue(h.a.id, { name: 'Vendas' })
    const sqlite = h.deps.sqlite
    expect(companyDirectory(sqlite, h.a.id).queues.get(queue.id)?.name).toBe('Vendas')
    expect(() =>
      sqlite.transaction(() => {
        sqlite.query('UPDATE queues SET name = ? WHERE id = ?').run('Rascunho', queue.id)
        expect(companyDirectory(sqlite, h.a.id).queues.get(queue.id)?.name).toBe('Rascunho')
        throw new Error('rolled back')
      })(),
    ).toThrow('rolled back')
    expect(companyDirectory(sqlite, h.a.id).queues.get(queue.id)?.name).toBe('Vendas')
    // A later committed change to the same version number is read, not mistaken for the rolled-back one.
    sqlite.query('UPDATE queues SET name = ? WHERE id = ?').run('Suporte', queue.id)
    expect(companyDirectory(sqlite, h.a.id).queues.get(queue.id)?.name).toBe('Suporte')
  })

  test('a rename by another process (the CLI) is seen by the server', () => {
    const dir = mkdtempSync(join(tmpdir(), 'balcao-directory-'))
    try {
      const server = openDatabase(join(dir, 'balcao.db'))
      runMigrations(server.db)
      const s = server.sqlite
      // Only the directory matters here, not a whole company.
      s.run('PRAGMA foreign_keys = OFF')
      const companyId = 7
      const queueId = s
        .query<{ id: number }, [number]>(
          "INSERT INTO queues (company_id, name, color, created_at, updated_at) VALUES (?, 'Vendas', '#111', 1, 1) RETURNING id",
        )
        .get(companyId)!.id
      expect(companyDirectory(s, companyId).queues.get(queueId)?.name).toBe('Vendas')
      const cli = new Database(join(dir, 'balcao.db'))
      cli.query("UPDATE queues SET name = 'Cobrança' WHERE id = ?").run(queueId)
      cli.close()
      expect(companyDirectory(s, companyId).queues.get(queueId)?.name).toBe('Cobrança')
      s.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
