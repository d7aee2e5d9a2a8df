import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { defaultSchedules } from '../../../shared/schedules'
import { defaultSettings } from '../../../shared/settings'
import { stopLive } from '../../api/live'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'

const withType = (value: string) =>
  defaultSettings().map((s) => (s.key === 'scheduleType' ? { ...s, value } : s))

describe('Settings: Hours tab', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser())
  })
  afterEach(() => {
    stopLive()
    resetState()
  })

  test('hidden unless scheduleType is company', async () => {
    mockFetch({ 'GET /api/settings': () => ({ body: withType('queue') }) })
    renderAt('/settings')
    expect(await screen.findByRole('tab', { name: 'Opções' })).toBeInTheDocument()
    await screen.findByRole('button', { name: 'Avaliações' })
    expect(screen.queryByRole('tab', { name: 'Horários' })).not.toBeInTheDocument()
  })

  test('edits the company hours with the spec messages', async () => {
    const calls = mockFetch({
      'GET /api/settings': () => ({ body: withType('company') }),
      'GET /api/companies/7/schedules': () => ({ body: { id: 7, schedules: defaultSchedules() } }),
      'PUT /api/companies/7/schedules': (c) => ({ body: { id: 7, ...(c.body as object) } }),
    })
    renderAt('/settings')
    await userEvent.click(await screen.findByRole('tab', { name: 'Horários' }))
    const end = await screen.findByLabelText('Fim de Sexta-feira')
    expect(end).toHaveValue('18:00')
    await userEvent.clear(end)
    await userEvent.type(end, '17')
    expect(screen.getByText('Clique em salvar para registar as alterações')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Use HH:MM, de 00:00 a 23:59')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0)
    await userEvent.type(end, '30')
    expect(end).toHaveValue('17:30')
    await userEvent.click(screen.getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Horários atualizados com sucesso.')).toBeInTheDocument()
    const put = calls.find((c) => c.method === 'PUT')!
    const body = put.body as { schedules: { weekdayEn: string; endTime: string }[] }
    expect(body.schedules.find((s) => s.weekdayEn === 'friday')?.endTime).toBe('17:30')
    await waitFor(() =>
      expect(screen.queryByText('Clique em salvar para registar as alterações')).not.toBeInTheDocument(),
    )
  })
})
