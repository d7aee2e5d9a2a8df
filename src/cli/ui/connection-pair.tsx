import { Box, render, Text } from 'ink'
import type { PairState } from '../pairing'
import { reasonText, statusColor } from './connection-list'

/** Time left until `expirationTime` as mm:ss, 'Expirado' once it has passed, '' when there is no deadline. */
export function formatCountdown(expirationTime: number | null, now: number) {
  if (expirationTime === null) return ''
  const seconds = Math.ceil((expirationTime - now) / 1000)
  if (seconds <= 0) return 'Expirado'
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0')
  const ss = String(seconds % 60).padStart(2, '0')
  return `${mm}:${ss}`
}

/** A pairing code as it is typed on the phone, spaced out: 'ABCD1234' → 'A B C D – 1 2 3 4'. */
export function spacedCode(code: string) {
  const chars = code.replace(/[\s-]/g, '').toUpperCase().split('')
  if (chars.length !== 8) return chars.join(' ')
  return `${chars.slice(0, 4).join(' ')}  –  ${chars.slice(4).join(' ')}`
}

export type PairScreenProps = {
  id: number
  phone?: string
  timeoutSeconds: number
  state?: PairState
  /** The QR drawn for the terminal, when it has been drawn for the current `state.session.qrcode`. */
  qrText?: string
  now: number
}

function Outcome({ state, timeoutSeconds }: { state: PairState; timeoutSeconds: number }) {
  switch (state.outcome) {
    case 'connected':
      return (
        <Text bold color="green">
          ✔ WhatsApp conectado com sucesso!{state.session.number ? ` (${state.session.number})` : ''}
        </Text>
      )
    case 'timeout':
      return (
        <Text bold color="red">
          ✖ The session timed out without being paired (TIMEOUT). Run the command again for a new QR.
        </Text>
      )
    case 'disconnected':
      return (
        <Text bold color="red">
          ✖ The session was disconnected before it connected. Run the command again for a new QR.
        </Text>
      )
    case 'gave-up':
      return (
        <Text bold color="red">
          ✖ Not connected after {timeoutSeconds} s; gave up (the session keeps trying on the server).
        </Text>
      )
    case 'cancelled':
      return <Text color="yellow">Stopped (the session keeps waiting on the server until it expires).</Text>
    default:
      return null
  }
}

function Challenge({ state, qrText, now }: { state: PairState; qrText?: string; now: number }) {
  const { session } = state
  const countdown = formatCountdown(session.expirationTime, now)
  const deadline = countdown ? (
    <Text>
      {countdown === 'Expirado' ? (
        <Text color="red">Expirado</Text>
      ) : (
        <>
          Expires in <Text bold>{countdown}</Text>
        </>
      )}
    </Text>
  ) : null
  if (session.pairingCode) {
    return (
      <Box flexDirection="column" gap={1}>
        <Box borderStyle="double" borderColor="green" paddingX={3} alignSelf="flex-start">
          <Text bold color="green">
            {spacedCode(session.pairingCode)}
          </Text>
        </Box>
        <Text>
          On the phone: WhatsApp → <Text bold>Linked devices</Text> → <Text bold>Link a device</Text> →{' '}
          <Text bold>Link with phone number instead</Text>, then type this code.
        </Text>
        {deadline}
      </Box>
    )
  }
  if (session.qrcode) {
    return (
      <Box flexDirection="column">
        {qrText ? <Text>{qrText}</Text> : <Text dimColor>Drawing the QR…</Text>}
        <Text>
          On the phone: WhatsApp → <Text bold>Linked devices</Text> → <Text bold>Link a device</Text>, then
          scan.
        </Text>
        {deadline}
      </Box>
    )
  }
  return (
    <Text dimColor>Waiting for WhatsApp to send a QR{state.session.status === 'OPENING' ? '…' : ''}</Text>
  )
}

/** The `connection pair` screen: pure, drawn again on every update and every second. */
export function PairScreen({ id, phone, timeoutSeconds, state, qrText, now }: PairScreenProps) {
  if (!state) {
    return (
      <Box borderStyle="round" borderColor="cyan" paddingX={1} alignSelf="flex-start">
        <Text>
          Asking Balcão to start connection {id}
          {phone ? ` with a pairing code for ${phone}` : ''}…
        </Text>
      </Box>
    )
  }
  const { connection, session } = state
  const tone = state.outcome ? (state.outcome === 'connected' ? 'green' : 'red') : 'cyan'
  return (
    <Box flexDirection="column">
      <Box flexDirection="column" borderStyle="round" borderColor={tone} paddingX={1} alignSelf="flex-start">
        <Text>
          <Text bold>{connection.name}</Text>
          <Text dimColor>
            {' '}
            · {connection.companyName} · #{connection.id} · {connection.provider}
          </Text>
        </Text>
        <Text>
          Status: <Text color={statusColor(session.status)}>{session.status}</Text>
          {session.retries > 0 ? <Text dimColor> (attempt {session.retries + 1})</Text> : null}
        </Text>
        {session.statusReason ? <Text color="yellow">{reasonText(session.statusReason)}</Text> : null}
        <Box marginTop={1}>
          {state.outcome ? (
            <Outcome state={state} timeoutSeconds={timeoutSeconds} />
          ) : (
            <Challenge state={state} qrText={qrText} now={now} />
          )}
        </Box>
      </Box>
      {state.outcome ? null : <Text dimColor>Ctrl-C to stop waiting</Text>}
    </Box>
  )
}

export type PairScreenHandle = {
  update: (state: PairState) => void
  /** Draws the last state (or nothing, when `discard`: an error follows), stops the clock, gives the terminal back. */
  close: (discard?: boolean) => Promise<void>
}

/** Mounts the screen on the terminal (or `stdout`, for tests); it ticks every second for the countdown. */
export function mountPairScreen(
  props: Omit<PairScreenProps, 'state' | 'qrText' | 'now'>,
  options: { stdout?: NodeJS.WriteStream; now?: () => number; interactive?: boolean } = {},
): PairScreenHandle {
  const now = options.now ?? Date.now
  let state: PairState | undefined
  let qr: { for: string; text: string } | undefined
  const draw = () => {
    const qrText = state && qr?.for === state.session.qrcode ? qr.text : undefined
    app.rerender(<PairScreen {...props} state={state} qrText={qrText} now={now()} />)
  }
  const app = render(<PairScreen {...props} now={now()} />, {
    ...(options.stdout ? { stdout: options.stdout } : {}),
    ...(options.interactive === undefined ? {} : { interactive: options.interactive }),
    patchConsole: false,
  })
  const clock = setInterval(draw, 1000)
  return {
    update(next) {
      state = next
      draw()
      const code = next.session.qrcode
      if (code && qr?.for !== code) {
        import('qrcode')
          .then((QRCode) => QRCode.toString(code, { type: 'terminal', small: true }))
          .then((text) => {
            if (state?.session.qrcode !== code) return
            qr = { for: code, text: text.trimEnd() }
            draw()
          })
          .catch(() => {
            qr = { for: code, text: `(could not draw the QR; its text is: ${code})` }
            draw()
          })
      }
    },
    async close(discard = false) {
      clearInterval(clock)
      if (discard) app.rerender(null)
      else draw()
      app.unmount()
      await app.waitUntilExit()
    },
  }
}
