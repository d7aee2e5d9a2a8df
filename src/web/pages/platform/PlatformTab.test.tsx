import { describe, expect, test } from 'bun:test'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { PlatformSettingDto } from '../../../shared/platform-settings'
import { defaultSettings } from '../../../shared/settings'
import { type Call, livePageSuite, mockFetch, renderAt } from '../../test/utils'

const SECRET_SMTP = 'smtp://user:hunter2@mail.example.com:587'

function settingsList(): PlatformSettingDto[] {
  return [
    { key: 'smtpUrl', value: null, secret: true, isSet: true, source: 'environment', env: 'BALCAO_SMTP_URL' },
    {
      key: 'smtpFrom',
      value: 'Balcão <no-reply@x.com>',
      secret: false,
      isSet: true,
      source: 'settings',
      env: 'BALCAO_SMTP_FROM',
    },
    {
      key: 'pixKey',
      value: 'chave@pix.com',
      secret: false,
      isSet: true,
      source: 'environment',
      env: 'BALCAO_PIX_KEY',
    },
    {
      key: 'pixMerchantName',
      value: null,
      secret: false,
      isSet: false,
      source: null,
      env: 'BALCAO_PIX_MERCHANT_NAME',
    },
    {
      key: 'pixMerchantCity',
      value: null,
      secret: false,
      isSet: false,
      source: null,
      env: 'BALCAO_PIX_MERCHANT_CITY',
    },
    {
      key: 'paymentWebhookSecret',
      value: null,
      secret: true,
      isSet: true,
      source: 'settings',
      env: 'BALCAO_PAYMENT_WEBHOOK_SECRET',
    },
  ]
}

function serve(extra = {}) {
  return mockFetch({
    'GET /api/settings': () => ({ body: defaultSettings() }),
    'GET /api/platform-settings': () => ({ body: settingsList() }),
    'PUT /api/platform-settings/:key': (c: Call) => {
      const key = c.path.split('/').pop() as PlatformSettingDto['key']
      const value = (c.body as { value: string | null }).value
      const old = settingsList().find((s) => s.key === key)!
      return {
        body: {
          ...old,
          value: old.secret ? null : value,
          isSet: !!value || old.source === 'environment',
          source: value ? 'settings' : old.source === 'environment' ? 'environment' : null,
        },
      }
    },
    ...extra,
  })
}

async function openTab() {
  renderAt('/settings')
  await userEvent.click(await screen.findByRole('tab', { name: 'Plataforma' }))
  return screen.findByRole('region', { name: 'E-mail (recuperação de senha)' })
}

const rowOf = (label: string) => screen.getByText(label, { selector: 'label' }).closest('form') as HTMLElement

describe('Settings: Platform tab', () => {
  livePageSuite({ id: 1, companyId: 1, profile: 'admin', super: true })

  test('groups the settings; secrets show only whether they are set and where from, never a value', async () => {
    serve()
    await openTab()
    expect(screen.getByRole('region', { name: 'Pix (checkout)' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Pagamentos' })).toBeInTheDocument()
    const smtp = rowOf('Servidor SMTP (URL)')
    expect(within(smtp).getByText('definido')).toBeInTheDocument()
    expect(within(smtp).getByText('BALCAO_SMTP_URL')).toBeInTheDocument()
    const secretInput = within(smtp).getByLabelText('Novo valor de Servidor SMTP (URL)') as HTMLInputElement
    expect(secretInput.type).toBe('password')
    expect(secretInput.value).toBe('')
    expect(secretInput.placeholder).not.toContain('smtp://')
    // From the environment: no 'Remover' (nothing saved here to remove).
    expect(within(smtp).queryByRole('button', { name: 'Remover' })).toBeNull()
    const webhook = rowOf('Segredo do webhook')
    expect(within(webhook).getByText('Salvo aqui')).toBeInTheDocument()
    expect(within(webhook).getByRole('button', { name: 'Remover' })).toBeInTheDocument()
    // An environment value: its variable is named, the value is the placeholder (saving would copy nothing).
    const pix = within(rowOf('Chave Pix')).getByRole('textbox') as HTMLInputElement
    expect(pix.value).toBe('')
    expect(pix.placeholder).toBe('chave@pix.com')
    expect(within(rowOf('Chave Pix')).getByText('BALCAO_PIX_KEY')).toBeInTheDocument()
    expect(within(rowOf('Nome do recebedor')).getByText('não definido')).toBeInTheDocument()
    // The webhook's address and header.
    expect(screen.getByText(`${location.origin}/api/payments/webhook`)).toBeInTheDocument()
    expect(screen.getByText('X-Balcao-Signature')).toBeInTheDocument()
  })

  test('replacing a secret sends it once and the field is empty again; Remover sends null', async () => {
    const calls = serve()
    await openTab()
    const smtp = rowOf('Servidor SMTP (URL)')
    const save = within(smtp).getByRole('button', { name: 'Salvar' })
    expect(save).toBeDisabled()
    const input = within(smtp).getByLabelText('Novo valor de Servidor SMTP (URL)') as HTMLInputElement
    await userEvent.type(input, SECRET_SMTP)
    await userEvent.click(save)
    expect(await screen.findByText('Configuração salva.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/api/platform-settings/smtpUrl',
      body: { value: SECRET_SMTP },
    })
    await waitFor(() => expect(input.value).toBe(''))
    expect(document.body.textContent).not.toContain('hunter2')
    // Saved here now: it can be removed (back to the environment).
    await userEvent.click(within(rowOf('Servidor SMTP (URL)')).getByRole('button', { name: 'Remover' }))
    expect(await screen.findByText('Valor removido.')).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ value: null })
  })

  test('a plain value saves with a toast; over the limit it says so and does not save', async () => {
    const calls = serve()
    await openTab()
    const name = within(rowOf('Nome do recebedor')).getByRole('textbox')
    await userEvent.type(name, 'Uma razão social longa demais para o Pix')
    expect(await screen.findByText('No máximo 25 caracteres')).toBeInTheDocument()
    expect(within(rowOf('Nome do recebedor')).getByRole('button', { name: 'Salvar' })).toBeDisabled()
    await userEvent.clear(name)
    await userEvent.type(name, 'Balcao LTDA{Enter}')
    expect(await screen.findByText('Configuração salva.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
      path: '/api/platform-settings/pixMerchantName',
      body: { value: 'Balcao LTDA' },
    })
  }, 15_000)

  test("'Gerar código' issues a sign-up code and shows it with its expiry", async () => {
    const calls = serve({
      'POST /api/signup/codes': () => ({
        status: 201,
        body: { code: '482913', expiresAt: '2026-03-10T15:30:00.000Z' },
      }),
    })
    await openTab()
    await userEvent.click(screen.getByRole('button', { name: 'Gerar código' }))
    expect(await screen.findByTestId('signup-code')).toHaveTextContent('482913')
    expect(screen.getByText(/^Válido até/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Copiar: Código de cadastro' })).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/signup/codes')).toBe(true)
  })

  test('a code that cannot be issued says so', async () => {
    serve({
      'POST /api/signup/codes': () => ({ status: 403, body: { error: 'ERR_NO_PERMISSION', message: 'x' } }),
    })
    await openTab()
    await userEvent.click(screen.getByRole('button', { name: 'Gerar código' }))
    expect(await screen.findByText(/^Não foi possível gerar o código\./)).toBeInTheDocument()
    expect(screen.queryByTestId('signup-code')).toBeNull()
  })
})
