import { Box, render, Text } from 'ink'

/** What a command shows on a terminal: a titled box of label/value rows. */
export type ResultView = {
  title: string
  rows: [string, string][]
  tone?: 'success' | 'warning' | 'info'
  note?: string
}

const TONES = { success: 'green', warning: 'yellow', info: 'cyan' } as const

function Result({ title, rows, tone = 'info', note }: ResultView) {
  const width = Math.max(0, ...rows.map(([label]) => label.length))
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={TONES[tone]}
      paddingX={1}
      alignSelf="flex-start"
    >
      <Text bold color={TONES[tone]}>
        {title}
      </Text>
      {rows.map(([label, value]) => (
        <Box key={label}>
          <Text dimColor>{label.padEnd(width)} </Text>
          <Text>{value}</Text>
        </Box>
      ))}
      {note ? <Text dimColor>{note}</Text> : null}
    </Box>
  )
}

export async function renderResult(view: ResultView) {
  const app = render(<Result {...view} />)
  app.unmount()
  await app.waitUntilExit()
}
