import { Box, render, Text } from 'ink'
import type { ReactNode } from 'react'

/** Ink's colour names the tables use. */
export type CellColor = 'green' | 'yellow' | 'red' | 'gray' | 'cyan' | 'magenta'

export type Column<R> = {
  title: string
  /** The cell's text (clipped to `max` characters). */
  cell: (row: R) => string
  color?: (row: R) => CellColor | undefined
  dim?: boolean
  /** Widest a cell may be before it is clipped with … (default 28). */
  max?: number
  align?: 'left' | 'right'
}

export type TableProps<R> = {
  columns: Column<R>[]
  rows: R[]
  /** The key of a row (default: its index). */
  rowKey?: (row: R, index: number) => string | number
  /** Shown instead of the table when there are no rows. */
  empty: ReactNode
  /** A dim line under the table (a count, a hint). */
  footer?: string
  /** The terminal's width (default: stdout's columns, or 100); the widest columns give way to fit it. */
  maxWidth?: number
}

const DEFAULT_MAX = 28

export function clip(value: string, max = DEFAULT_MAX) {
  return value.length > max ? `${value.slice(0, max - 1)}…` : value
}

const GAP = 2
/** The border and the padding on both sides. */
const FRAME = 4
const NARROWEST = 6

/**
 * Column widths that fit `maxWidth`: each as wide as its widest cell, then the widest ones narrowed (never below
 * their title or a few characters) until the table fits, or can narrow no more.
 */
export function fitWidths(natural: number[], minimum: number[], maxWidth: number) {
  const widths = [...natural]
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1) + FRAME
  while (total() > maxWidth) {
    let widest = -1
    for (let i = 0; i < widths.length; i++)
      if (widths[i]! > minimum[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i
    if (widest < 0) break
    widths[widest]! -= 1
  }
  return widths
}

/** A bordered table: bold cyan headers, columns as wide as their widest cell and narrowed to fit the terminal. */
export function Table<R>({ columns, rows, rowKey, empty, footer, maxWidth }: TableProps<R>) {
  if (rows.length === 0) return <Text>{empty}</Text>
  const natural = rows.map((row) => columns.map((c) => clip(c.cell(row), c.max)))
  const widths = fitWidths(
    columns.map((c, i) => Math.max(c.title.length, ...natural.map((line) => line[i]!.length))),
    columns.map((c) => Math.max(c.title.length, NARROWEST)),
    maxWidth ?? (process.stdout.columns || 100),
  )
  const cells = natural.map((line) => line.map((cell, i) => clip(cell, widths[i])))
  return (
    <Box flexDirection="column" alignSelf="flex-start">
      <Box flexDirection="column" borderStyle="round" borderColor="cyan" paddingX={1} alignSelf="flex-start">
        <Box gap={GAP}>
          {columns.map((c, i) => (
            <Box
              key={c.title}
              width={widths[i]}
              flexShrink={0}
              justifyContent={c.align === 'right' ? 'flex-end' : 'flex-start'}
            >
              <Text bold color="cyan">
                {c.title}
              </Text>
            </Box>
          ))}
        </Box>
        {rows.map((row, r) => (
          <Box key={rowKey ? rowKey(row, r) : r} gap={GAP}>
            {columns.map((c, i) => (
              <Box
                key={c.title}
                width={widths[i]}
                flexShrink={0}
                justifyContent={c.align === 'right' ? 'flex-end' : 'flex-start'}
              >
                <Text wrap="truncate" color={c.color?.(row)} dimColor={c.dim}>
                  {cells[r]![i]}
                </Text>
              </Box>
            ))}
          </Box>
        ))}
      </Box>
      {footer ? <Text dimColor> {footer}</Text> : null}
    </Box>
  )
}

/** Draws a table once and returns; `stdout` is for tests. */
export async function renderTable<R>(props: TableProps<R>, stdout?: NodeJS.WriteStream) {
  const app = render(<Table {...props} />, stdout ? { stdout } : undefined)
  app.unmount()
  await app.waitUntilExit()
}
