import { afterEach, beforeEach, describe, expect, jest, test } from 'bun:test'
import { act, render, screen } from '@testing-library/react'
import { TOAST_DURATION, toast, toasts } from '../../state/toast'
import { Toaster } from './Toast'

describe('Toaster', () => {
  beforeEach(() => {
    toasts.value = []
    jest.useFakeTimers()
  })
  afterEach(() => {
    jest.useRealTimers()
  })

  test('a toast closes by itself after 3 s', () => {
    render(<Toaster />)
    act(() => {
      toast.success('Configurações salvas')
    })
    expect(screen.getByText('Configurações salvas')).toBeInTheDocument()
    expect(TOAST_DURATION).toBe(3000)
    act(() => {
      jest.advanceTimersByTime(2900)
    })
    expect(screen.getByText('Configurações salvas')).toBeInTheDocument()
    act(() => {
      jest.advanceTimersByTime(150)
    })
    expect(screen.queryByText('Configurações salvas')).not.toBeInTheDocument()
  })

  test('errors are announced as alerts, others as status; the close button dismisses', () => {
    render(<Toaster />)
    act(() => {
      toast.error('Falhou')
      toast.warning('Sua assinatura vence em 2 dia(s)')
    })
    expect(screen.getByRole('alert')).toHaveTextContent('Falhou')
    expect(screen.getByRole('status')).toHaveTextContent('Sua assinatura vence em 2 dia(s)')
    act(() => {
      screen.getAllByRole('button', { name: 'Fechar' })[0]!.click()
    })
    expect(screen.queryByText('Falhou')).not.toBeInTheDocument()
  })
})
