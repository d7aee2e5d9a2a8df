import { Box, render, Text } from 'ink'

/** A progress bar on the terminal: `Backing up ████████░░░░ 62%  1.2 GiB of 1.9 GiB`. */
type Progress = { label: string; done: number; total: number }

const WIDTH = 30

export function formatBytes(bytes: number) {
  if (bytes >= 1024 ** 3) return `${(bytes / 1024 ** 3).toFixed(1)} GiB`
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`
  return `${bytes} B`
}

function Bar({ label, done, total }: Progress) {
  const share = total > 0 ? Math.min(1, done / total) : 0
  const filled = Math.round(share * WIDTH)
  return (
    <Box>
      <Text>{label} </Text>
      <Text color="cyan">{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(WIDTH - filled)}</Text>
      <Text> {String(Math.round(share * 100)).padStart(3)}% </Text>
      <Text dimColor>
        {formatBytes(done)}
        {total > 0 ? ` of ${formatBytes(total)}` : ''}
      </Text>
    </Box>
  )
}

/** Draws the bar and returns how to move it (at most ten redraws a second) and how to end it. */
export function startProgress(label: string) {
  let state: Progress = { label, done: 0, total: 0 }
  const app = render(<Bar {...state} />)
  let last = 0
  return {
    update(done: number, total = state.total) {
      state = { label, done, total }
      const now = Date.now()
      if (now - last < 100) return
      last = now
      app.rerender(<Bar {...state} />)
    },
    async finish() {
      app.rerender(<Bar {...state} done={state.total || state.done} />)
      app.unmount()
      await app.waitUntilExit()
    },
  }
}
