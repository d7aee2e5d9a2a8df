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

  test('public routes send a signed-in user to / and then /tickets', async () => {
    signIn(makeUser())
    for (const path of ['/login', '/signup', '/forgetpsw']) {
      const view = renderAt(path, <Where />)
      expect(await screen.findByText('Selecione um ticket')).toBeInTheDocument()
      expect(screen.getByTestId('where')).toHaveTextContent('/tickets')
      view.unmount()
    }
  })

  test('/ leads to /tickets', async () => {
    signIn(makeUser())
    renderAt('/', <Where />)
    expect(await screen.findByText('Selecione um ticket')).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/tickets')
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

  test('signup and forgot-password pages are honest placeholders with a way back', async () => {
    renderAt('/signup')
    expect(await screen.findByText(/chega com a versão de administração/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Voltar para o login/ })).toHaveAttribute('href', '/login')
  })
})
