import { describe, expect, test } from 'bun:test'
import { queueBody } from '../../../shared/schemas/queues'
import { createUserBody, updateUserBody } from '../../../shared/schemas/users'
import { createConnectionBody } from '../../../shared/schemas/whatsapp'
import i18n from '../../i18n'
import { schemaErrors } from './schemaErrors'

const t = (key: string) => i18n.t(key)

describe('schemaErrors: the shared schemas with the spec messages', () => {
  test('missing or blank is "Obrigatório"; lengths are "Muito curto!" / "Muito longo!"; e-mails and times', () => {
    expect(schemaErrors(createUserBody({ name: '  ', email: '', password: '' }), t)).toEqual({
      name: 'Obrigatório',
      email: 'Obrigatório',
      password: 'Obrigatório',
      profile: 'Obrigatório',
    })
    expect(
      schemaErrors(createUserBody({ name: 'A', email: 'x@', password: 'x'.repeat(51), profile: 'user' }), t),
    ).toEqual({ name: 'Muito curto!', email: 'E-mail inválido', password: 'Muito longo!' })
    expect(
      schemaErrors(updateUserBody({ startWork: '25:00' }), t, { startWork: 'validation.invalidTime' }),
    ).toEqual({ startWork: 'Use o formato HH:mm' })
  })

  test("a union such as `'' | 5 <= string <= 50` reports the branch that says what is wrong", () => {
    expect(schemaErrors(updateUserBody({ password: '123' }), t)).toEqual({ password: 'Muito curto!' })
    expect(schemaErrors(updateUserBody({ password: '' }), t)).toEqual({})
  })

  test("a field's own message replaces the generic one, never 'Obrigatório'", () => {
    const messages = { color: 'queues.invalidColor', orderQueue: 'queues.invalidOrder' }
    expect(schemaErrors(queueBody({ name: 'Vendas', color: 'red', orderQueue: 1.5 }), t, messages)).toEqual({
      color: 'Use uma cor no formato #RRGGBB',
      orderQueue: 'Use um número inteiro de 0 a 9999',
    })
    expect(schemaErrors(queueBody({ name: 'Vendas', color: '' }), t, messages)).toEqual({
      color: 'Obrigatório',
    })
    expect(
      schemaErrors(
        createConnectionBody({ name: 'Loja', collectiveVacationStart: '2026-1-1', timeSendQueue: -1 }),
        t,
      ),
    ).toEqual({ collectiveVacationStart: 'Valor inválido', timeSendQueue: 'Valor inválido' })
  })

  test('follows the language', async () => {
    await i18n.changeLanguage('es')
    try {
      expect(schemaErrors(queueBody({ name: 'V', color: '#fff' }), t)).toEqual({ name: '¡Muy corto!' })
    } finally {
      await i18n.changeLanguage('pt')
    }
  })

  test('a valid body has no errors', () => {
    expect(schemaErrors(queueBody({ name: 'Vendas', color: '#3284FE' }), t)).toEqual({})
  })
})
