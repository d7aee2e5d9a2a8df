import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import { mockFetch, renderAt, resetState } from '../../test/utils'

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>
}

describe('ForgetPasswordPage', () => {
  beforeEach(resetState)
  afterEach(resetState)

  test('e-mail, then code and new password: the reset call, the toast, and /login', async () => {
    const calls = mockFetch({
      'POST /api/forgetpassword/:email': () => ({ body: { status: 'ok' } }),
      'POST /api/resetpasswords/:email/:token/:password': () => ({ body: { status: 'ok' } }),
    })
    renderAt('/forgetpsw', <Where />)
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Enviar código' }))
    expect(await screen.findByText('Email enviado com sucesso!')).toBeInTheDocument()
    expect(calls[0]?.path).toBe('/api/forgetpassword/ana%40example.com')
    expect(screen.getByText('ana@example.com')).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Código de verificação'), '123456')
    await userEvent.type(screen.getByLabelText('Nova senha'), 'Nova#Senha1')
    await userEvent.type(screen.getByLabelText('Confirme a nova senha'), 'Nova#Senha1')
    await userEvent.click(screen.getByRole('button', { name: 'Redefinir senha' }))
    expect(await screen.findByText('Senha redefinida com sucesso.')).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/login')
    expect(calls[1]?.path).toBe('/api/resetpasswords/ana%40example.com/123456/Nova%23Senha1')
  })

  test("the spec's messages: invalid e-mail, e-mail not found, required, password rule, mismatch", async () => {
    const calls = mockFetch({
      'POST /api/forgetpassword/:email': (call) =>
        call.path.includes('nobody')
          ? { status: 404, body: { error: 'ERR_NO_USER_FOUND', message: 'Email não encontrado' } }
          : { body: { status: 'ok' } },
      'POST /api/resetpasswords/:email/:token/:password': () => ({
        status: 400,
        body: { error: 'ERR_INVALID_RESET_TOKEN', message: 'x' },
      }),
    })
    renderAt('/forgetpsw', <Where />)
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@exemplo')
    await userEvent.click(screen.getByRole('button', { name: 'Enviar código' }))
    expect(await screen.findByText('E-mail inválido')).toBeInTheDocument()
    expect(calls).toHaveLength(0)
    await userEvent.clear(screen.getByLabelText('E-mail'))
    await userEvent.type(screen.getByLabelText('E-mail'), 'nobody@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Enviar código' }))
    expect(await screen.findByText('Email não encontrado')).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText('E-mail'))
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Enviar código' }))
    await screen.findByLabelText('Código de verificação')
    await userEvent.click(screen.getByRole('button', { name: 'Redefinir senha' }))
    expect(await screen.findAllByText('Campo obrigatório')).toHaveLength(3)
    await userEvent.type(screen.getByLabelText('Código de verificação'), '123456')
    await userEvent.type(screen.getByLabelText('Nova senha'), 'semnumero')
    await userEvent.type(screen.getByLabelText('Confirme a nova senha'), 'outra')
    expect(
      await screen.findByText(
        'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.',
      ),
    ).toBeInTheDocument()
    expect(screen.getByText('As senhas não correspondem')).toBeInTheDocument()
    expect(calls.filter((c) => c.path.startsWith('/api/resetpasswords'))).toHaveLength(0)
    await userEvent.clear(screen.getByLabelText('Nova senha'))
    await userEvent.type(screen.getByLabelText('Nova senha'), 'NovaSenha1')
    await userEvent.clear(screen.getByLabelText('Confirme a nova senha'))
    await userEvent.type(screen.getByLabelText('Confirme a nova senha'), 'NovaSenha1')
    await userEvent.click(screen.getByRole('button', { name: 'Redefinir senha' }))
    expect(await screen.findByText('Código inválido ou expirado. Peça um novo código.')).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/forgetpsw')
  })

  test('no mail on the server: the clear message', async () => {
    mockFetch({
      'POST /api/forgetpassword/:email': () => ({
        status: 503,
        body: { error: 'ERR_MAIL_NOT_CONFIGURED', message: 'x' },
      }),
    })
    renderAt('/forgetpsw')
    await userEvent.type(screen.getByLabelText('E-mail'), 'ana@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Enviar código' }))
    expect(
      await screen.findByText('O envio de e-mails não está configurado neste servidor. Fale com o suporte.'),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Voltar para o login' })).toHaveAttribute('href', '/login')
  })
})
