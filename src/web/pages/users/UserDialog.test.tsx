import { afterEach, beforeEach, describe, expect, mock, test } from 'bun:test'
import { act, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Toaster } from '../../components/ui/Toast'
import i18n from '../../i18n'
import { makeUser, mockFetch, resetState, signIn } from '../../test/utils'
import { UserDialog } from './UserDialog'

const queues = [
  {
    id: 1,
    name: 'Vendas',
    color: '#3284FE',
    orderQueue: 1,
    greetingMessage: '',
    outOfHoursMessage: '',
    companyId: 7,
    createdAt: '',
    updatedAt: '',
  },
]

function renderDialog(props: Partial<Parameters<typeof UserDialog>[0]> = {}) {
  const onClose = mock(() => {})
  const onSaved = mock(() => {})
  render(
    <>
      <UserDialog open mode="create" onClose={onClose} onSaved={onSaved} {...props} />
      <Toaster />
    </>,
  )
  return { onClose, onSaved }
}

const nameInput = () => screen.getByLabelText(/^(Nome|Name)/)
const emailInput = () => screen.getByLabelText(/^(E-mail|Email)/)
const passwordInput = () => screen.getByLabelText(/^(Senha|Password)/)
const save = () => screen.getByRole('button', { name: /^(Salvar|Save)$/ })

describe('UserDialog validation', () => {
  beforeEach(() => {
    resetState()
    signIn(makeUser({ profile: 'admin' }))
  })
  afterEach(resetState)

  test('empty form: name, email and password are required (pt)', async () => {
    const calls = mockFetch({ 'GET /api/queue': () => ({ body: queues }) })
    renderDialog()
    await userEvent.click(save())
    expect(await screen.findAllByText('Obrigatório')).toHaveLength(3)
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  test('too short, too long, invalid email, short password (pt)', async () => {
    mockFetch({ 'GET /api/queue': () => ({ body: queues }) })
    renderDialog()
    await userEvent.type(nameInput(), 'A')
    await userEvent.type(emailInput(), 'not-an-email')
    await userEvent.type(passwordInput(), '123')
    await userEvent.click(save())
    expect(await screen.findAllByText('Muito curto!')).toHaveLength(1) // the name
    expect(screen.getByText('E-mail inválido')).toBeInTheDocument()
    // The one password rule (the spec's reset rule), in its wording; 8 lower-case letters do not pass it either.
    const rule =
      'Sua senha precisa ter no mínimo 8 caracteres, sendo uma letra maiúscula, uma minúscula e um número.'
    expect(screen.getByText(rule)).toBeInTheDocument()
    await userEvent.clear(passwordInput())
    await userEvent.type(passwordInput(), 'abcdefgh')
    expect(screen.getByText(rule)).toBeInTheDocument()
    await userEvent.type(passwordInput(), 'A1')
    await waitFor(() => expect(screen.queryByText(rule)).toBeNull())

    await userEvent.clear(nameInput())
    await userEvent.type(nameInput(), 'x'.repeat(51))
    expect(await screen.findByText('Muito longo!')).toBeInTheDocument()
  })

  test('messages follow the language (en)', async () => {
    mockFetch({ 'GET /api/queue': () => ({ body: queues }) })
    await act(() => i18n.changeLanguage('en'))
    renderDialog()
    await userEvent.click(save())
    expect(await screen.findAllByText('Required')).toHaveLength(3)
    await userEvent.type(nameInput(), 'A')
    expect(await screen.findByText('Too Short!')).toBeInTheDocument()
    await userEvent.type(nameInput(), 'b'.repeat(50))
    expect(await screen.findByText('Too Long!')).toBeInTheDocument()
  })

  test('a valid form posts the user and toasts', async () => {
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'POST /api/users': (c) => ({
        status: 200,
        body: { ...makeUser({ id: 9, profile: 'user' }), ...(c.body as object) },
      }),
    })
    const { onSaved, onClose } = renderDialog()
    await userEvent.type(nameInput(), 'Bruno Atendente')
    await userEvent.type(emailInput(), 'bruno@example.com')
    await userEvent.type(passwordInput(), 'Segredo1')
    await userEvent.click(save())
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1))
    const post = calls.find((c) => c.method === 'POST')!
    expect(post.body).toMatchObject({
      name: 'Bruno Atendente',
      email: 'bruno@example.com',
      password: 'Segredo1',
      profile: 'user',
      queueIds: [],
      whatsappId: null,
      startWork: '00:00',
      endWork: '23:59',
    })
    expect(onClose).toHaveBeenCalled()
    expect(await screen.findByText('Usuário salvo com sucesso!')).toBeInTheDocument()
  })

  test("the default connection is chosen from the company's connections", async () => {
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/whatsapp': () => ({ body: [{ id: 4, name: 'Loja Centro' }] }),
      'POST /api/users': (c) => ({ body: { ...makeUser({ id: 9 }), ...(c.body as object) } }),
    })
    const { onSaved } = renderDialog()
    await userEvent.type(nameInput(), 'Bruno Atendente')
    await userEvent.type(emailInput(), 'bruno@example.com')
    await userEvent.type(passwordInput(), 'Segredo1')
    await userEvent.click(screen.getByRole('button', { name: /Conexão padrão/ }))
    await userEvent.click(await screen.findByRole('option', { name: 'Loja Centro' }))
    await userEvent.click(save())
    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1))
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ whatsappId: 4 })
  })

  test("the server's field errors appear under their fields, translated when the rule has its own code", async () => {
    let attempt = 0
    mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'POST /api/users': () => {
        attempt += 1
        return attempt === 1
          ? {
              status: 400,
              body: {
                error: 'ERR_VALIDATION',
                message: 'x',
                fields: [{ field: 'name', message: 'nome recusado' }],
              },
            }
          : {
              status: 409,
              body: {
                error: 'ERR_EMAIL_ALREADY_EXISTS',
                message: 'This e-mail is already in use',
                fields: [{ field: 'email', message: 'This e-mail is already in use' }],
              },
            }
      },
    })
    const { onClose } = renderDialog()
    await userEvent.type(nameInput(), 'Bruno')
    await userEvent.type(emailInput(), 'bruno@example.com')
    await userEvent.type(passwordInput(), 'Segredo1')
    await userEvent.click(save())
    expect(await screen.findByText('nome recusado')).toBeInTheDocument()
    await userEvent.click(save())
    expect(await screen.findByText('Já existe um usuário com este e-mail.')).toBeInTheDocument()
    expect(screen.queryByText('This e-mail is already in use')).toBeNull()
    expect(onClose).not.toHaveBeenCalled()
  })

  test('editing keeps the password optional and leaves it out of the request when blank', async () => {
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/users/5': () => ({
        body: makeUser({ id: 5, name: 'Carla', email: 'carla@example.com', profile: 'user' }),
      }),
      'PUT /api/users/5': (c) => ({ body: { ...makeUser({ id: 5 }), ...(c.body as object) } }),
    })
    const { onSaved } = renderDialog({ mode: 'edit', userId: 5 })
    expect(await screen.findByDisplayValue('Carla')).toBeInTheDocument()
    await userEvent.click(save())
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    const put = calls.find((c) => c.method === 'PUT')!
    expect(put.body).not.toHaveProperty('password')
    expect(put.body).toMatchObject({ name: 'Carla', profile: 'user' })
  })
})

describe('UserDialog permissions', () => {
  beforeEach(resetState)
  afterEach(resetState)

  test('admins see profile and queues; the own-profile form hides them and sends only own fields', async () => {
    signIn(makeUser({ id: 3, profile: 'admin' }))
    mockFetch({ 'GET /api/queue': () => ({ body: queues }) })
    const view = render(<UserDialog open mode="create" onClose={() => {}} />)
    expect(screen.getByText('Perfil')).toBeInTheDocument()
    expect(screen.getByText('Filas')).toBeInTheDocument()
    view.unmount()

    signIn(makeUser({ id: 3, profile: 'user' }))
    const calls = mockFetch({
      'GET /api/users/3': () => ({ body: makeUser({ id: 3, name: 'Dora', profile: 'user' }) }),
      'PUT /api/users/3': (c) => ({ body: { ...makeUser({ id: 3 }), ...(c.body as object) } }),
    })
    const onSaved = mock(() => {})
    render(<UserDialog open mode="profile" userId={3} onClose={() => {}} onSaved={onSaved} />)
    expect(await screen.findByDisplayValue('Dora')).toBeInTheDocument()
    expect(screen.queryByText('Perfil')).not.toBeInTheDocument()
    expect(screen.queryByText('Filas')).not.toBeInTheDocument()
    expect(screen.queryByText('Ver dashboard')).not.toBeInTheDocument()
    await userEvent.click(save())
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    const put = calls.find((c) => c.method === 'PUT')!
    expect(Object.keys(put.body as object).sort()).toEqual([
      'defaultMenu',
      'defaultTheme',
      'email',
      'farewellMessage',
      'name',
    ])
  })
})

describe('UserDialog: changing your own password or e-mail', () => {
  beforeEach(resetState)
  afterEach(resetState)

  const me = () => makeUser({ id: 3, name: 'Dora', email: 'dora@example.com', profile: 'admin' })
  const currentInput = () => screen.queryByLabelText(/^Senha atual/)

  test('asks for the current password, sends it, and shows a wrong one under its field', async () => {
    signIn(me())
    let attempt = 0
    const calls = mockFetch({
      'GET /api/users/3': () => ({ body: me() }),
      'PUT /api/users/3': (c) => {
        attempt += 1
        return attempt === 1
          ? {
              status: 403,
              body: { error: 'ERR_INVALID_CURRENT_PASSWORD', message: 'The current password is wrong' },
            }
          : { body: { ...me(), ...(c.body as object) } }
      },
    })
    const { onClose, onSaved } = renderDialog({ mode: 'profile', userId: 3 })
    expect(await screen.findByDisplayValue('Dora')).toBeInTheDocument()
    expect(currentInput()).toBeNull()

    await userEvent.type(passwordInput(), 'Nova-senha1')
    expect(currentInput()).toBeInTheDocument()
    await userEvent.click(save())
    expect(await screen.findByText('Obrigatório')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0)

    await userEvent.type(currentInput()!, 'errada')
    await userEvent.click(save())
    expect(await screen.findByText('Senha atual incorreta.')).toBeInTheDocument()
    expect(currentInput()).toHaveAttribute('aria-invalid', 'true')
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      password: 'Nova-senha1',
      currentPassword: 'errada',
    })
    expect(onClose).not.toHaveBeenCalled()
    expect(localStorage.getItem('token')).not.toBeNull() // a wrong password does not sign you out

    // Typing again clears the server's error; the right password saves.
    await userEvent.clear(currentInput()!)
    expect(screen.queryByText('Senha atual incorreta.')).toBeNull()
    await userEvent.type(currentInput()!, 'certa123')
    await userEvent.click(save())
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toMatchObject({
      currentPassword: 'certa123',
    })
  })

  test('a new e-mail of your own asks for it too; the same e-mail written differently does not', async () => {
    signIn(me())
    mockFetch({ 'GET /api/queue': () => ({ body: queues }), 'GET /api/users/3': () => ({ body: me() }) })
    renderDialog({ mode: 'edit', userId: 3 })
    expect(await screen.findByDisplayValue('dora@example.com')).toBeInTheDocument()
    await userEvent.clear(emailInput())
    await userEvent.type(emailInput(), ' DORA@example.com ')
    expect(currentInput()).toBeNull()
    await userEvent.clear(emailInput())
    await userEvent.type(emailInput(), 'dora@novo.com')
    expect(currentInput()).toBeInTheDocument()
  })

  test("an admin changing someone else's password is not asked for theirs", async () => {
    signIn(me())
    const calls = mockFetch({
      'GET /api/queue': () => ({ body: queues }),
      'GET /api/users/5': () => ({ body: makeUser({ id: 5, name: 'Carla', email: 'carla@example.com' }) }),
      'PUT /api/users/5': (c) => ({ body: { ...makeUser({ id: 5 }), ...(c.body as object) } }),
    })
    const { onSaved } = renderDialog({ mode: 'edit', userId: 5 })
    expect(await screen.findByDisplayValue('Carla')).toBeInTheDocument()
    await userEvent.type(passwordInput(), 'Outra-senha1')
    await userEvent.clear(emailInput())
    await userEvent.type(emailInput(), 'carla@novo.com')
    expect(currentInput()).toBeNull()
    await userEvent.click(save())
    await waitFor(() => expect(onSaved).toHaveBeenCalled())
    expect(calls.find((c) => c.method === 'PUT')?.body).not.toHaveProperty('currentPassword')
  })
})
