import { beforeEach, describe, expect, test } from 'bun:test'
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { livePageSuite, mockFetch, renderAt } from '../../test/utils'
import { parseTasks, TASKS_KEY, type Task } from './tasks'

const stored = (): Task[] => JSON.parse(localStorage.getItem(TASKS_KEY) ?? 'null')
const items = () => within(screen.getByRole('list', { name: 'Tarefas' })).getAllByRole('listitem')
const input = () => screen.getByRole('textbox', { name: 'Nova tarefa' })

describe('parseTasks', () => {
  const now = new Date('2026-05-01T10:00:00.000Z')
  test('keeps the tasks, skips bad entries, reads ISO or epoch times; anything else is no tasks', () => {
    const raw = JSON.stringify([
      { text: 'ok', createdAt: '2026-01-02T03:04:05.000Z', updatedAt: '2026-01-03T00:00:00.000Z' },
      { text: 'epoch', createdAt: 1767225600000, updatedAt: 1767225600000 },
      { text: 'no times' },
      { text: 'bad times', createdAt: 'soon', updatedAt: {} },
      { text: '   ' },
      { text: 42 },
      { title: 'foreign' },
      'a string',
      null,
      7,
      ['text'],
    ])
    expect(parseTasks(raw, now)).toEqual([
      { text: 'ok', createdAt: '2026-01-02T03:04:05.000Z', updatedAt: '2026-01-03T00:00:00.000Z' },
      { text: 'epoch', createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' },
      { text: 'no times', createdAt: now.toISOString(), updatedAt: now.toISOString() },
      { text: 'bad times', createdAt: now.toISOString(), updatedAt: now.toISOString() },
    ])
    for (const junk of [null, '', '{', 'null', '{"tasks":[]}', '"x"', '42', 'true', '[[[', 'NaN'])
      expect({ junk, tasks: parseTasks(junk, now) }).toEqual({ junk, tasks: [] })
  })
})

describe('TodoListPage', () => {
  livePageSuite({ id: 3, companyId: 7, profile: 'user' })
  beforeEach(() => {
    localStorage.removeItem(TASKS_KEY)
    mockFetch({})
  })

  test('every user has it in the menu; empty at first', async () => {
    renderAt('/todolist')
    expect(await screen.findByText('Nenhuma tarefa por aqui')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Tarefas' })).toHaveAttribute('href', '/todolist')
  })

  test('Enter adds a trimmed task; blank text is not added; tasks are stored under "tasks"', async () => {
    renderAt('/todolist')
    await userEvent.type(input(), '   {Enter}')
    expect(screen.getByText('Nenhuma tarefa por aqui')).toBeInTheDocument()
    expect(localStorage.getItem(TASKS_KEY)).toBeNull()
    await userEvent.type(input(), '  Ligar para o cliente  {Enter}')
    await userEvent.type(input(), 'Enviar proposta')
    await userEvent.click(screen.getByRole('button', { name: 'Adicionar' }))
    expect(items().map((li) => li.querySelector('p')?.textContent)).toEqual([
      'Ligar para o cliente',
      'Enviar proposta',
    ])
    expect(input()).toHaveValue('')
    const tasks = stored()
    expect(tasks.map((t) => t.text)).toEqual(['Ligar para o cliente', 'Enviar proposta'])
    for (const task of tasks) {
      expect(Object.keys(task).sort()).toEqual(['createdAt', 'text', 'updatedAt'])
      expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt)
      expect(task.updatedAt).toBe(task.createdAt)
    }
    expect(screen.getByText('2 tarefas')).toBeInTheDocument()
  })

  test('edit in place: Enter saves (updatedAt moves), Escape cancels, blank is not saved', async () => {
    localStorage.setItem(
      TASKS_KEY,
      JSON.stringify([
        {
          text: 'Revisar filas',
          createdAt: '2020-01-01T10:00:00.000Z',
          updatedAt: '2020-01-01T10:00:00.000Z',
        },
      ]),
    )
    renderAt('/todolist')
    await userEvent.click(await screen.findByRole('button', { name: 'Editar: Revisar filas' }))
    const edit = screen.getByRole('textbox', { name: 'Editar tarefa' })
    expect(edit).toHaveValue('Revisar filas')
    await userEvent.clear(edit)
    await userEvent.type(edit, 'Algo diferente{Escape}')
    expect(screen.queryByRole('textbox', { name: 'Editar tarefa' })).toBeNull()
    expect(screen.getByText('Revisar filas')).toBeInTheDocument()
    expect(stored()[0]!.text).toBe('Revisar filas')

    await userEvent.click(screen.getByRole('button', { name: 'Editar: Revisar filas' }))
    const again = screen.getByRole('textbox', { name: 'Editar tarefa' })
    await userEvent.clear(again)
    await userEvent.type(again, '   {Enter}')
    // Blank: not saved, still editing.
    expect(screen.getByRole('textbox', { name: 'Editar tarefa' })).toBeInTheDocument()
    expect(stored()[0]!.text).toBe('Revisar filas')
    await userEvent.type(again, 'Revisar filas e tags{Enter}')
    expect(screen.queryByRole('textbox', { name: 'Editar tarefa' })).toBeNull()
    const [task] = stored()
    expect(task!.text).toBe('Revisar filas e tags')
    expect(task!.createdAt).toBe('2020-01-01T10:00:00.000Z')
    expect(Date.parse(task!.updatedAt)).toBeGreaterThan(Date.parse(task!.createdAt))
    expect(screen.getByText(/Editada:/)).toBeInTheDocument()
  })

  test('delete, with an undo that puts the task back where it was', async () => {
    renderAt('/todolist')
    for (const text of ['um', 'dois', 'três']) await userEvent.type(input(), `${text}{Enter}`)
    await userEvent.click(screen.getByRole('button', { name: 'Excluir: dois' }))
    expect(stored().map((t) => t.text)).toEqual(['um', 'três'])
    const status = screen.getByRole('status')
    expect(status).toHaveTextContent('Tarefa excluída.')
    await userEvent.click(within(status).getByRole('button', { name: 'Desfazer' }))
    expect(stored().map((t) => t.text)).toEqual(['um', 'dois', 'três'])
    expect(screen.queryByRole('status')).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Excluir: um' }))
    await userEvent.click(screen.getByRole('button', { name: 'Excluir: dois' }))
    await userEvent.click(screen.getByRole('button', { name: 'Excluir: três' }))
    expect(stored()).toEqual([])
    expect(screen.getByText('Nenhuma tarefa por aqui')).toBeInTheDocument()
  })

  test('tasks survive a reload (a new mount reads them back)', async () => {
    const first = renderAt('/todolist')
    await userEvent.type(input(), 'Persistente{Enter}')
    first.unmount()
    renderAt('/todolist')
    expect(await screen.findByText('Persistente')).toBeInTheDocument()
  })

  test('corrupt or foreign data under "tasks" never crashes; the good entries show', async () => {
    localStorage.setItem(TASKS_KEY, '{not json')
    const first = renderAt('/todolist')
    expect(await screen.findByText('Nenhuma tarefa por aqui')).toBeInTheDocument()
    await userEvent.type(input(), 'Nova{Enter}')
    expect(stored().map((t) => t.text)).toEqual(['Nova'])
    first.unmount()
    localStorage.setItem(
      TASKS_KEY,
      JSON.stringify([{ text: 'Boa', createdAt: 0, updatedAt: 0 }, { foo: 1 }, 'x', null]),
    )
    renderAt('/todolist')
    expect(await screen.findByText('Boa')).toBeInTheDocument()
    expect(items()).toHaveLength(1)
  })

  test("another tab's change shows at once", async () => {
    renderAt('/todolist')
    await screen.findByText('Nenhuma tarefa por aqui')
    const now = new Date().toISOString()
    localStorage.setItem(
      TASKS_KEY,
      JSON.stringify([{ text: 'De outra aba', createdAt: now, updatedAt: now }]),
    )
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: TASKS_KEY }))
    })
    expect(await screen.findByText('De outra aba')).toBeInTheDocument()
  })
})
