import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { screen } from '@testing-library/react'
import { useLocation } from 'react-router-dom'
import { authStatus } from '../state/session'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../test/utils'

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>
}

describe('route guards', () => {
  beforeEach(() => {
    resetState()
    mockFetch({ 'GET /api/queue': () => ({ body: [] }), 'GET /api/settings': () => ({ body: [] }) })
  })
  afterEach(resetState)

  test('a private route sends an anonymous visitor to /login', async () => {
    renderAt('/users', <Where />)
    expect(await screen.findByRole('button', { name: 'Entrar' })).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/login')
  })

  test('public routes send a signed-in attendant to / and then /tickets', async () => {
    signIn(makeUser({ profile: 'user', showDashboard: 'disabled' }))
    for (const path of ['/login', '/signup', '/forgetpsw']) {
      const view = renderAt(path, <Where />)
      expect(await screen.findByText('Selecione um ticket')).toBeInTheDocument()
      expect(screen.getByTestId('where')).toHaveTextContent('/tickets')
      view.unmount()
    }
  })

  test('/ leads an attendant without the dashboard to /tickets; an admin stays on the dashboard', async () => {
    signIn(makeUser({ profile: 'user', showDashboard: 'disabled' }))
    const view = renderAt('/', <Where />)
    expect(await screen.findByText('Selecione um ticket')).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/tickets')
    view.unmount()
    signIn(makeUser({ profile: 'admin' }))
    renderAt('/', <Where />)
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/')
  })

  test('while the session is being restored, a splash is shown instead of redirecting', () => {
    authStatus.value = 'loading'
    renderAt('/users', <Where />)
    expect(screen.getByText('Abrindo sua sessão...')).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/users')
  })

  test('an attendant opening an admin page sees a permission message', async () => {
    signIn(makeUser({ profile: 'user' }))
    renderAt('/queues')
    expect(await screen.findByText('Você não tem permissão para acessar este recurso.')).toBeInTheDocument()
  })

  test('signup and forgot-password pages are public, with a way back to /login', async () => {
    renderAt('/signup')
    expect(await screen.findByRole('heading', { name: 'Criar conta' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Entrar' })).toHaveAttribute('href', '/login')
    renderAt('/forgetpsw')
    expect(await screen.findByRole('heading', { name: 'Recuperar senha' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Voltar para o login/ })).toHaveAttribute('href', '/login')
  })
})
