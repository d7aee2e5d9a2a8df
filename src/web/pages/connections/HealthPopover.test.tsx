import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { act, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ConnectionHealth } from '../../../shared/api'
import { dispatch, stopLive } from '../../api/live'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { makeConnection } from './fixtures'
import { formatUpdatedAt } from './format'

const MIN = 60_000
const ago = (ms: number) => new Date(Date.now() - ms).toISOString()

function healthOf(fields: Partial<ConnectionHealth> = {}): ConnectionHealth {
  return {
    baileysVersion: '7.0.0-rc14',
    waWebVersion: '2.3000.1029',
    lastReceivedAt: ago(3 * MIN),
    lastAckedAt: null,
    lastDisconnect: { reason: 'no_network', code: 428, at: ago(2 * 60 * MIN) },
    restricted: null,
    ...fields,
  }
}

const rowOf = (name: string) =>
  within(screen.getByRole('table', { name: 'Conexões' }))
    .getByText(name)
    .closest('tr')!

describe("a connection's health on the connections page", () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser({ id: 1, companyId: 7, profile: 'admin' }))
  })
  afterEach(() => {
    stopLive()
    resetState()
  })

  test('a restriction shows beside the status; the button opens the facts, asked again from the server', async () => {
    const until = new Date(Date.now() + 30 * MIN).toISOString()
    const restricted = makeConnection({
      id: 1,
      name: 'Loja',
      health: healthOf({ restricted: { since: ago(10 * MIN), until, detail: '463' } }),
    })
    const calls = mockFetch({
      'GET /api/whatsapp': () => ({ body: [restricted, makeConnection({ id: 2, name: 'Sem dados' })] }),
      'GET /api/whatsapp/1': () => ({
        body: { ...restricted, health: { ...restricted.health, lastAckedAt: ago(MIN) } },
      }),
    })
    renderAt('/connections')
    await screen.findByText('Loja')
    expect(within(rowOf('Loja')).getByTestId('restricted-badge')).toHaveTextContent(
      `Envios restritos até ${formatUpdatedAt(until)}`,
    )
    // No health (an attendant's answer, or an old server): no button, no badge.
    expect(within(rowOf('Sem dados')).queryByTestId('health-button')).toBeNull()

    await userEvent.click(within(rowOf('Loja')).getByRole('button', { name: 'Saúde da conexão' }))
    const details = await screen.findByTestId('health-details')
    expect(details).toHaveTextContent('Última mensagem recebida')
    expect(details).toHaveTextContent('há 3 min.')
    expect(details).toHaveTextContent('Sem internet (428)')
    expect(details).toHaveTextContent('Baileys7.0.0-rc14')
    expect(details).toHaveTextContent('WhatsApp Web2.3000.1029')
    expect(calls.some((c) => c.path === '/api/whatsapp/1')).toBe(true)
    // The fresh answer replaced "Nunca" for the last acknowledged send.
    expect(await within(details).findByText('há 1 min.')).toBeInTheDocument()
  })

  test('a live session frame carries the new health', async () => {
    mockFetch({
      'GET /api/whatsapp': () => ({ body: [makeConnection({ id: 1, name: 'Loja', health: healthOf() })] }),
    })
    renderAt('/connections')
    await screen.findByText('Loja')
    expect(within(rowOf('Loja')).queryByTestId('restricted-badge')).toBeNull()
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-whatsappSession',
          data: {
            action: 'update',
            session: {
              id: 1,
              status: 'CONNECTED',
              qrcode: '',
              retries: 0,
              number: '5511',
              updatedAt: '',
              health: healthOf({ restricted: { since: ago(MIN), until: null, detail: null } }),
            },
          },
        }),
      ),
    )
    expect(within(rowOf('Loja')).getByTestId('restricted-badge')).toHaveTextContent('Envios restritos')
  })
})
