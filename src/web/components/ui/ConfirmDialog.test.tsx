import { describe, expect, mock, test } from 'bun:test'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { ConfirmDialog } from './ConfirmDialog'

function Harness({ onConfirm }: { onConfirm: () => unknown }) {
  const [open, setOpen] = useState(true)
  return (
    <>
      <span data-testid="state">{open ? 'open' : 'closed'}</span>
      <ConfirmDialog open={open} onClose={() => setOpen(false)} onConfirm={onConfirm} />
    </>
  )
}

describe('ConfirmDialog', () => {
  test("shows the spec's title and text", async () => {
    render(<Harness onConfirm={() => {}} />)
    expect(await screen.findByText('Exclusão de Registro')).toBeInTheDocument()
    expect(screen.getByText('Deseja realmente excluir esse registro?')).toBeInTheDocument()
  })

  test('confirm runs the action and closes', async () => {
    const onConfirm = mock(async () => {})
    render(<Harness onConfirm={onConfirm} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir' }))
    expect(onConfirm).toHaveBeenCalledTimes(1)
    await waitFor(() => expect(screen.getByTestId('state')).toHaveTextContent('closed'))
  })

  test('cancel closes without running the action', async () => {
    const onConfirm = mock(() => {})
    render(<Harness onConfirm={onConfirm} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Cancelar' }))
    expect(onConfirm).not.toHaveBeenCalled()
    expect(screen.getByTestId('state')).toHaveTextContent('closed')
  })

  test('a failing action keeps the dialog open', async () => {
    const onConfirm = mock(async () => {
      throw new Error('nope')
    })
    render(<Harness onConfirm={onConfirm} />)
    await userEvent.click(await screen.findByRole('button', { name: 'Excluir' }))
    await waitFor(() => expect(onConfirm).toHaveBeenCalled())
    expect(screen.getByTestId('state')).toHaveTextContent('open')
  })
})
