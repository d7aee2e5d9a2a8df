import { describe, expect, test } from 'bun:test'
import { EventEmitter } from 'node:events'
import { render } from 'ink'
import type { ReactNode } from 'react'
import type { OperatorConnection, OperatorConnectionDetail } from '../operator-client'
import type { PairState } from '../pairing'
import { ConnectionTable, statusColor } from './connection-list'
import { formatCountdown, mountPairScreen, PairScreen, spacedCode } from './connection-pair'

/** A terminal-less stdout Ink can draw on: it has columns and write(), and keeps what was written. */
class FakeStdout extends EventEmitter {
  columns = 120
  rows = 60
  isTTY = false
  chunks: string[] = []
  write(chunk: string, encodingOrCallback?: unknown, callback?: unknown) {
    this.chunks.push(chunk)
    for (const cb of [encodingOrCallback, callback]) if (typeof cb === 'function') queueMicrotask(() => cb())
    return true
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing ANSI colour codes
  text = () => this.chunks.join('').replace(/\u001b\[[0-9;]*m/g, '')
}

async function draw(node: ReactNode) {
  const stdout = new FakeStdout()
  const app = render(node, { stdout: stdout as unknown as NodeJS.WriteStream, patchConsole: false })
  app.unmount()
  await app.waitUntilExit()
  return stdout.text()
}

const base: OperatorConnection = {
  id: 7,
  name: 'Vendas',
  companyId: 2,
  companyName: 'Padaria Estrela',
  provider: 'sandbox',
  status: 'qrcode',
  statusReason: null,
  number: null,
  isDefault: true,
  retries: 0,
  updatedAt: '2025-01-01T00:00:00.000Z',
}
const detail: OperatorConnectionDetail = { ...base, qrcode: '', pairingCode: null, expirationTime: null }

function stateWith(patch: Partial<PairState['session']>, outcome?: PairState['outcome']): PairState {
  return {
    connection: detail,
    session: { ...detail, ...patch },
    started: true,
    ...(outcome ? { outcome } : {}),
  }
}

describe('formatCountdown', () => {
  test('mm:ss, rounding partial seconds up', () => {
    expect(formatCountdown(1_000_000 + 65_000, 1_000_000)).toBe('01:05')
    expect(formatCountdown(1_000_000 + 59_001, 1_000_000)).toBe('01:00')
    expect(formatCountdown(1_000_000 + 600_000, 1_000_000)).toBe('10:00')
    expect(formatCountdown(1_000_000 + 1, 1_000_000)).toBe('00:01')
  })
  test("'Expirado' at and after zero, nothing without a deadline", () => {
    expect(formatCountdown(1_000_000, 1_000_000)).toBe('Expirado')
    expect(formatCountdown(1_000_000, 2_000_000)).toBe('Expirado')
    expect(formatCountdown(null, 1_000_000)).toBe('')
  })
})

test('statusColor: green connected, amber while starting, red when down', () => {
  expect(statusColor('CONNECTED')).toBe('green')
  for (const s of ['qrcode', 'OPENING', 'PAIRING']) expect(statusColor(s)).toBe('yellow')
  for (const s of ['DISCONNECTED', 'TIMEOUT']) expect(statusColor(s)).toBe('red')
  expect(statusColor('importing')).toBe('gray')
})

test('spacedCode spaces the pairing code in two halves', () => {
  expect(spacedCode('abcd1234')).toBe('A B C D  –  1 2 3 4')
  expect(spacedCode('ABCD-1234')).toBe('A B C D  –  1 2 3 4')
  expect(spacedCode('XYZ')).toBe('X Y Z')
})

describe('ConnectionTable', () => {
  test('one row per connection with its status, number and default mark', async () => {
    const text = await draw(
      <ConnectionTable
        connections={[
          base,
          { ...base, id: 8, name: 'Suporte', status: 'CONNECTED', number: '5511999990000', isDefault: false },
        ]}
      />,
    )
    for (const header of ['ID', 'COMPANY', 'NAME', 'PROVIDER', 'STATUS', 'NUMBER', 'DEFAULT']) {
      expect(text).toContain(header)
    }
    const lines = text.split('\n')
    const vendas = lines.find((l) => l.includes('Vendas'))!
    expect(vendas).toContain('Padaria Estrela')
    expect(vendas).toContain('qrcode')
    expect(vendas).toContain('✓')
    const suporte = lines.find((l) => l.includes('Suporte'))!
    expect(suporte).toContain('CONNECTED')
    expect(suporte).toContain('5511999990000')
    expect(suporte).not.toContain('✓')
    expect(text).toContain('╭')
  })

  test('an empty list is a friendly line', async () => {
    const text = await draw(<ConnectionTable connections={[]} />)
    expect(text).toContain('No connections yet')
    expect(text).not.toContain('╭')
  })
})

describe('PairScreen', () => {
  const now = 1_700_000_000_000
  test('a QR with its countdown and the live status', async () => {
    const text = await draw(
      <PairScreen
        id={7}
        timeoutSeconds={300}
        now={now}
        state={stateWith({ status: 'qrcode', qrcode: '2@abc', expirationTime: now + 42_000 })}
        qrText="[QR-ART]"
      />,
    )
    expect(text).toContain('Vendas')
    expect(text).toContain('Padaria Estrela')
    expect(text).toContain('Status: qrcode')
    expect(text).toContain('[QR-ART]')
    expect(text).toContain('Expires in 00:42')
    expect(text).toContain('Linked devices')
  })

  test("a pairing code, spaced, with the phone instructions; 'Expirado' once past", async () => {
    const text = await draw(
      <PairScreen
        id={7}
        timeoutSeconds={300}
        now={now}
        state={stateWith({ status: 'PAIRING', pairingCode: 'WXYZ9876', expirationTime: now - 1 })}
      />,
    )
    expect(text).toContain('W X Y Z  –  9 8 7 6')
    expect(text).toContain('Link with phone number')
    expect(text).toContain('Expirado')
    expect(text).toContain('Status: PAIRING')
  })

  test('success and failure endings', async () => {
    const ok = await draw(
      <PairScreen
        id={7}
        timeoutSeconds={300}
        now={now}
        state={stateWith({ status: 'CONNECTED', number: '5511988887777' }, 'connected')}
      />,
    )
    expect(ok).toContain('WhatsApp conectado com sucesso!')
    expect(ok).toContain('5511988887777')
    expect(ok).toContain('Status: CONNECTED')
    const timedOut = await draw(
      <PairScreen
        id={7}
        timeoutSeconds={300}
        now={now}
        state={stateWith({ status: 'TIMEOUT' }, 'timeout')}
      />,
    )
    expect(timedOut).toContain('Status: TIMEOUT')
    expect(timedOut).toContain('timed out')
    expect(timedOut).not.toContain('conectado')
  })

  test('the mounted screen draws the real QR, counts down, and redraws on a new QR', async () => {
    const stdout = new FakeStdout()
    let clock = now
    const screen = mountPairScreen(
      { id: 7, timeoutSeconds: 300 },
      { stdout: stdout as unknown as NodeJS.WriteStream, now: () => clock, interactive: true },
    )
    const frames = () => stdout.text()
    screen.update(stateWith({ status: 'qrcode', qrcode: 'first-qr', expirationTime: now + 30_000 }))
    await Bun.sleep(150)
    expect(frames()).toContain('Expires in 00:30')
    expect(frames()).toMatch(/[▄▀█]{3}/) // the QR, drawn with half blocks
    const firstQr = frames().match(/[▄▀█][ ▄▀█]{20,}/)![0]

    clock = now + 31_000 // the screen ticks every second
    await Bun.sleep(1100)
    expect(frames()).toContain('Expirado')

    stdout.chunks = []
    screen.update(
      stateWith({ status: 'qrcode', qrcode: 'second-qr', expirationTime: now + 90_000, retries: 1 }),
    )
    await Bun.sleep(150)
    expect(frames()).toContain('Expires in 00:59')
    expect(frames()).toContain('attempt 2')
    expect(frames().match(/[▄▀█][ ▄▀█]{20,}/)![0]).not.toBe(firstQr)

    screen.update(stateWith({ status: 'CONNECTED', qrcode: '' }, 'connected'))
    await screen.close()
    expect(frames()).toContain('WhatsApp conectado com sucesso!')
  })

  test('closing on an error leaves nothing of the screen behind', async () => {
    const stdout = new FakeStdout()
    const screen = mountPairScreen(
      { id: 77, timeoutSeconds: 300 },
      { stdout: stdout as unknown as NodeJS.WriteStream },
    )
    await screen.close(true)
    expect(stdout.text()).not.toContain('Asking Balcão')
  })
})
