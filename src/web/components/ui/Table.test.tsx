import { describe, expect, mock, test } from 'bun:test'
import { fireEvent, render, screen } from '@testing-library/react'
import { DataTable } from './Table'

type Row = { id: number; name: string }
const columns = [{ key: 'name', header: 'Nome', cell: (r: Row) => r.name }]
const rows = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: `Linha ${i + 1}` }))

function setBox(el: HTMLElement, { scrollHeight, clientHeight, scrollTop }: Record<string, number>) {
  Object.defineProperty(el, 'scrollHeight', { configurable: true, value: scrollHeight })
  Object.defineProperty(el, 'clientHeight', { configurable: true, value: clientHeight })
  Object.defineProperty(el, 'scrollTop', { configurable: true, writable: true, value: scrollTop })
}

describe('DataTable', () => {
  test('asks for the next page within 100 px of the bottom, only while hasMore', () => {
    const onLoadMore = mock(() => {})
    const { rerender } = render(
      <DataTable
        label="t"
        rows={rows}
        rowKey={(r) => r.id}
        columns={columns}
        hasMore
        onLoadMore={onLoadMore}
      />,
    )
    const box = screen.getByTestId('table-scroller')
    setBox(box, { scrollHeight: 1000, clientHeight: 400, scrollTop: 450 }) // 150 px left
    fireEvent.scroll(box)
    expect(onLoadMore).not.toHaveBeenCalled()
    setBox(box, { scrollHeight: 1000, clientHeight: 400, scrollTop: 520 }) // 80 px left
    fireEvent.scroll(box)
    expect(onLoadMore).toHaveBeenCalledTimes(1)

    rerender(
      <DataTable
        label="t"
        rows={rows}
        rowKey={(r) => r.id}
        columns={columns}
        hasMore={false}
        onLoadMore={onLoadMore}
      />,
    )
    fireEvent.scroll(screen.getByTestId('table-scroller'))
    expect(onLoadMore).toHaveBeenCalledTimes(1)
  })

  test('loading shows a skeleton, no rows shows the empty state, an error offers a retry', () => {
    const onRetry = mock(() => {})
    const { rerender } = render(
      <DataTable label="t" rows={[]} rowKey={(r: Row) => r.id} columns={columns} loading />,
    )
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true')

    rerender(
      <DataTable label="t" rows={[]} rowKey={(r: Row) => r.id} columns={columns} empty={<p>Nada aqui</p>} />,
    )
    expect(screen.getByText('Nada aqui')).toBeInTheDocument()

    rerender(
      <DataTable
        label="t"
        rows={[]}
        rowKey={(r: Row) => r.id}
        columns={columns}
        error="Caiu"
        onRetry={onRetry}
      />,
    )
    expect(screen.getByText('Caiu')).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: /Tentar novamente/ }))
    expect(onRetry).toHaveBeenCalledTimes(1)
  })
})
