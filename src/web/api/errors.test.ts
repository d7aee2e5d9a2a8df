import { afterEach, describe, expect, test } from 'bun:test'
import i18n from '../i18n'
import { ApiError } from './client'
import { errorMessage } from './errors'

describe('shared error handler', () => {
  afterEach(() => i18n.changeLanguage('pt'))

  test('a known code is translated', async () => {
    const err = new ApiError(409, 'ERR_QUEUE_COLOR_ALREADY_EXISTS', 'color taken')
    expect(errorMessage(err)).toBe('Esta cor já está em uso, escolha outra.')
    await i18n.changeLanguage('en')
    expect(errorMessage(err)).toBe('This colour is already in use, choose another.')
  })

  test('an unknown code falls back to the server message, then to the generic text', async () => {
    expect(errorMessage(new ApiError(500, 'ERR_SOMETHING_NEW', 'Servidor disse isto'))).toBe(
      'Servidor disse isto',
    )
    await i18n.changeLanguage('en')
    expect(errorMessage(new ApiError(500, null, ''))).toBe('An error occurred!')
    expect(errorMessage('???')).toBe('An error occurred!')
  })

  test("another user's ticket for the contact (forward, schedules) says who holds it and in which queue", async () => {
    const held = { userId: 7, user: { id: 7, name: 'Carlos' }, queueId: 3, queue: { id: 3, name: 'Vendas' } }
    const err = new ApiError(409, JSON.stringify(held), 'There is already an open ticket for this contact')
    expect(errorMessage(err)).toBe('Este contato já tem um atendimento aberto com Carlos na fila Vendas.')
    const pending = new ApiError(
      409,
      JSON.stringify({ userId: null, user: null, queueId: null, queue: null }),
      'x',
    )
    expect(errorMessage(pending)).toBe('Este contato já tem um atendimento aberto com — na fila Sem fila.')
  })
})

describe('fieldMessage', () => {
  test("a rule's own code is shown translated under the field; plain validation keeps the server text", async () => {
    const { ApiError } = await import('./client')
    const { fieldMessage } = await import('./errors')
    const field = { field: 'name', message: 'Another connection already has this name' }
    const specific = new ApiError(409, 'ERR_WAPP_NAME_ALREADY_EXISTS', field.message, [field])
    expect(fieldMessage(specific, field)).toBe('Já existe uma conexão com este nome.')
    const plain = new ApiError(400, 'ERR_VALIDATION', 'x', [
      { field: 'name', message: 'name must be at least length 2' },
    ])
    expect(fieldMessage(plain, plain.fields[0]!)).toBe('name must be at least length 2')
  })
})

describe('ERR_OTHER_OPEN_TICKET', () => {
  afterEach(() => i18n.changeLanguage('pt'))

  test("the spec's answer with the holder's JSON in `error` is translated, naming the holder and queue", async () => {
    const { api } = await import('./client')
    const { mockFetch } = await import('../test/utils')
    mockFetch({
      'PUT /api/tickets/9': () => ({
        status: 409,
        body: {
          error: JSON.stringify({ userId: 2, user: { name: 'Bia' }, queue: { name: 'Vendas' } }),
          code: 'ERR_OTHER_OPEN_TICKET',
          message: 'Another user holds an open ticket of this contact',
        },
      }),
    })
    const err = await api.put('/tickets/9', { status: 'open' }).catch((e: unknown) => e)
    expect(errorMessage(err)).toBe('Este contato já tem um atendimento aberto com Bia na fila Vendas.')
    await i18n.changeLanguage('es')
    expect(errorMessage(err)).toBe('Este contacto ya tiene una atención abierta con Bia en la cola Vendas.')
  })

  test('an `error` that is not the JSON of a ticket is translated through its `code`', async () => {
    const { api } = await import('./client')
    const { mockFetch } = await import('../test/utils')
    mockFetch({
      'PUT /api/tickets/9': () => ({
        status: 409,
        body: { error: '{not json', code: 'ERR_OTHER_OPEN_TICKET', message: 'Another user holds it' },
      }),
    })
    const err = await api.put('/tickets/9', { status: 'open' }).catch((e: unknown) => e)
    expect(errorMessage(err)).toBe('Já existe um atendimento aberto para este contato.')
  })
})
