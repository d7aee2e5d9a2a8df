import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { defaultSettings } from '../../../shared/settings'
import { stopLive } from '../../api/live'
import { settingValue } from '../../state/settings'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'

describe('SettingsPage', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser())
  })
  afterEach(() => {
    stopLive()
    resetState()
  })

  test('a change is saved at once with the spec toast', async () => {
    const calls = mockFetch({
      'GET /api/settings': () => ({ body: defaultSettings() }),
      'PUT /api/settings/userRating': (c) => ({
        body: { key: 'userRating', value: (c.body as { value: string }).value },
      }),
    })
    renderAt('/settings')
    expect(await screen.findByRole('tab', { name: 'Opções' })).toBeInTheDocument()
    const select = await screen.findByRole('button', { name: 'Avaliações' })
    expect(select).toHaveTextContent('Desabilitado')
    await userEvent.click(select)
    await userEvent.click(await screen.findByRole('option', { name: 'Habilitado' }))
    expect(await screen.findByText('Configurações salvas')).toBeInTheDocument()
    const put = calls.find((c) => c.method === 'PUT')!
    expect(put.body).toEqual({ key: 'userRating', value: 'enabled' })
    expect(settingValue('userRating')).toBe('enabled')
  })

  test('a refused change goes back to the previous value', async () => {
    mockFetch({
      'GET /api/settings': () => ({ body: defaultSettings() }),
      'PUT /api/settings/call': () => ({ status: 403, body: { error: 'ERR_NO_PERMISSION', message: 'no' } }),
    })
    renderAt('/settings')
    const select = await screen.findByRole('button', { name: 'Aceitar chamadas' })
    await userEvent.click(select)
    await userEvent.click(await screen.findByRole('option', { name: 'Habilitado' }))
    expect(await screen.findByText('Você não tem permissão para acessar este recurso.')).toBeInTheDocument()
    await waitFor(() => expect(settingValue('call')).toBe('disabled'))
  })
})
