import { describe, expect, test } from 'bun:test'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useLocation } from 'react-router-dom'
import { PRIVATE_KEY_MASK, type QueueIntegrationDto } from '../../../shared/queue-integrations'
import { dispatch } from '../../api/live'
import { livePageSuite, makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { EMPTY_INTEGRATION, integrationBodyOf } from './QueueIntegrationDialog'

const integration = (
  id: number,
  name: string,
  type: QueueIntegrationDto['type'],
  extra: Partial<QueueIntegrationDto> = {},
): QueueIntegrationDto => ({
  id,
  companyId: 7,
  type,
  name,
  projectName: name,
  jsonContent: '',
  language: 'pt-BR',
  urlN8N: type === 'dialogflow' ? '' : 'https://hooks.example.com/x',
  typebotSlug: type === 'typebot' ? 'fluxo' : '',
  typebotExpires: 1,
  typebotDelayMessage: 1000,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotUnknownMessage: '',
  createdAt: '',
  updatedAt: '',
  ...extra,
})

const ACCOUNT = JSON.stringify(
  { client_email: 'bot@p.iam.gserviceaccount.com', private_key: PRIVATE_KEY_MASK, project_id: 'p' },
  null,
  2,
)

const ROWS = [
  integration(1, 'Atendimento Typebot', 'typebot'),
  integration(2, 'Agente Dialogflow', 'dialogflow', { jsonContent: ACCOUNT, projectName: 'p' }),
  integration(3, 'Fluxo n8n', 'n8n'),
]

function serve(extra = {}) {
  return mockFetch({
    'GET /api/queueIntegration': (c) => {
      const term = (c.query.get('searchParam') ?? '').toLowerCase()
      const list = ROWS.filter((r) => r.name.toLowerCase().includes(term))
      return { body: { queueIntegrations: list, count: list.length, hasMore: false } }
    },
    'GET /api/queueIntegration/:id': (c) => {
      const found = ROWS.find((r) => r.id === Number(c.path.split('/').pop()))
      return found ? { body: found } : { status: 404, body: { error: 'ERR_NO_QUEUE_INTEGRATION_FOUND' } }
    },
    ...extra,
  })
}

function Where() {
  return <output data-testid="where">{useLocation().pathname}</output>
}

describe('QueueIntegrationsPage', () => {
  livePageSuite({ id: 1, companyId: 7, profile: 'admin' })

  test('the table shows type logos, ids and names; search; the menu links it', async () => {
    const calls = serve()
    renderAt('/queue-integration')
    const table = await screen.findByRole('table', { name: 'Integrações' })
    expect(within(table).getByText('Atendimento Typebot')).toBeInTheDocument()
    expect(within(table).getByTestId('logo-dialogflow')).toBeInTheDocument()
    expect(within(table).getByTestId('logo-n8n')).toBeInTheDocument()
    expect(within(table).getByText('3')).toBeInTheDocument()
    expect(screen.getByText('3 integrações')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Integrações' })).toHaveAttribute('href', '/queue-integration')
    await userEvent.type(screen.getByPlaceholderText('Pesquisar...'), 'flux')
    await waitFor(() => expect(calls.some((c) => c.query.get('searchParam') === 'flux')).toBe(true))
    await waitFor(() => expect(within(table).queryByText('Atendimento Typebot')).toBeNull())
  })

  test('edit and delete are disabled until edit mode is on; delete asks and removes', async () => {
    const calls = serve({ 'DELETE /api/queueIntegration/:id': () => ({ body: { message: 'ok' } }) })
    renderAt('/queue-integration')
    const edit = await screen.findByRole('button', { name: 'Editar: Fluxo n8n' })
    const remove = screen.getByRole('button', { name: 'Excluir: Fluxo n8n' })
    expect(edit).toBeDisabled()
    expect(remove).toBeDisabled()
    const toggle = screen.getByRole('switch', { name: 'Modo de edição' })
    expect(toggle).not.toBeChecked()
    await userEvent.click(toggle)
    expect(edit).toBeEnabled()
    await userEvent.click(remove)
    const confirm = await screen.findByRole('alertdialog')
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }))
    expect(await screen.findByText('Integração excluída com sucesso.')).toBeInTheDocument()
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/queueIntegration/3')).toBe(true)
    await waitFor(() => expect(screen.queryByText('Fluxo n8n')).toBeNull())
  })

  test('add a webhook: name and URL checked; POST with the name as projectName; the toast', async () => {
    const calls = serve({
      'POST /api/queueIntegration': (c: { body: unknown }) => ({
        status: 201,
        body: integration(9, (c.body as { name: string }).name, 'webhook'),
      }),
    })
    renderAt('/queue-integration')
    await screen.findByText('Fluxo n8n')
    await userEvent.click(screen.getAllByRole('button', { name: 'Adicionar' })[0]!)
    const dialog = await screen.findByRole('dialog')
    // typebot is the default type: its defaults are shown
    expect(within(dialog).getByRole('spinbutton', { name: /Expiração/ })).toHaveValue(1)
    expect(within(dialog).getByRole('spinbutton', { name: /Intervalo/ })).toHaveValue(1000)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Tipo' }))
    await userEvent.click(await screen.findByRole('option', { name: 'Webhook' }))
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'W')
    await userEvent.type(within(dialog).getByRole('textbox', { name: /URL/ }), 'ftp://x')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await within(dialog).findByText('Muito curto!')).toBeInTheDocument()
    expect(within(dialog).getByText('Informe uma URL http:// ou https://')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Nome/ }), 'ebhook')
    const url = within(dialog).getByRole('textbox', { name: /URL/ })
    await userEvent.clear(url)
    await userEvent.type(url, 'https://hooks.example.com/balcao')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salvar' }))
    expect(await screen.findByText('Integração adicionada com sucesso.')).toBeInTheDocument()
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      type: 'webhook',
      name: 'Webhook',
      language: 'pt-BR',
      projectName: 'Webhook',
      urlN8N: 'https://hooks.example.com/balcao',
    })
  })

  test('dialogflow: the masked account is shown; Testar sessão posts it with the id and toasts', async () => {
    const calls = serve({
      'POST /api/queueIntegration/testSession': () => ({
        body: { message: 'ok', reply: 'Oi', intent: null },
      }),
    })
    renderAt('/queue-integration')
    await userEvent.click(await screen.findByRole('switch', { name: 'Modo de edição' }))
    await userEvent.click(screen.getByRole('button', { name: 'Editar: Agente Dialogflow' }))
    const dialog = await screen.findByRole('dialog')
    const json = await within(dialog).findByRole('textbox', { name: /Conta de serviço/ })
    expect((json as HTMLTextAreaElement).value).toContain(PRIVATE_KEY_MASK)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Testar sessão' }))
    expect(await screen.findByText('Teste da integração realizado com sucesso!')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/queueIntegration/testSession')?.body).toEqual({
      projectName: 'p',
      jsonContent: ACCOUNT,
      language: 'pt-BR',
      id: 2,
    })
  })

  test('live: create and delete events', async () => {
    serve()
    renderAt('/queue-integration')
    const table = await screen.findByRole('table', { name: 'Integrações' })
    act(() =>
      dispatch(
        JSON.stringify({
          event: 'company-7-queueIntegration',
          data: { action: 'create', queueIntegration: integration(4, 'Novo webhook', 'webhook') },
        }),
      ),
    )
    expect(await within(table).findByText('Novo webhook')).toBeInTheDocument()
    act(() =>
      dispatch(
        JSON.stringify({ event: 'company-7-queueIntegration', data: { action: 'delete', integrationId: 1 } }),
      ),
    )
    await waitFor(() => expect(within(table).queryByText('Atendimento Typebot')).toBeNull())
  })

  test('without the plan flag: the message, then / after 1 s; no menu item', async () => {
    serve()
    resetState()
    signIn(
      makeUser({
        company: { ...makeUser().company!, plan: { useIntegrations: false } as never },
      }),
    )
    renderAt('/queue-integration', <Where />)
    expect(
      await screen.findByText(
        'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
      ),
    ).toBeInTheDocument()
    expect(screen.getByTestId('where')).toHaveTextContent('/queue-integration')
    expect(screen.queryByRole('link', { name: 'Integrações' })).toBeNull()
    await waitFor(() => expect(screen.getByTestId('where')).not.toHaveTextContent('/queue-integration'), {
      timeout: 2500,
    })
  })

  test('integrationBodyOf: typebot numbers; n8n carries no typebot fields', () => {
    expect(
      integrationBodyOf({
        ...EMPTY_INTEGRATION,
        name: ' Bot ',
        urlN8N: 'https://t.x',
        typebotSlug: 's',
        typebotExpires: '',
      }),
    ).toMatchObject({
      type: 'typebot',
      name: 'Bot',
      projectName: 'Bot',
      typebotExpires: 1,
      typebotDelayMessage: 1000,
    })
    expect(integrationBodyOf({ ...EMPTY_INTEGRATION, type: 'n8n', name: 'N', urlN8N: 'https://n' })).toEqual({
      type: 'n8n',
      name: 'N',
      language: 'pt-BR',
      projectName: 'N',
      urlN8N: 'https://n',
    })
  })
})
