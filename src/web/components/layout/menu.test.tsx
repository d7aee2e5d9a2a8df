import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { screen, within } from '@testing-library/react'
import { Bot } from 'lucide-react'
import type { PlanDto } from '../../../shared/api'
import { setCampaignsShown } from '../../state/campaigns'
import { makeUser, mockFetch, renderAt, resetState, signIn } from '../../test/utils'
import { MENU_ITEMS, visibleMenuItems } from './menu'

const plan = (flags: Partial<PlanDto>): PlanDto =>
  ({
    id: 1,
    name: 'P',
    value: 0,
    users: 0,
    connections: 0,
    queues: 0,
    useWhatsapp: true,
    useFacebook: true,
    useInstagram: true,
    useCampaigns: true,
    useSchedules: true,
    useInternalChat: true,
    useExternalApi: true,
    useKanban: true,
    useOpenAi: true,
    useIntegrations: true,
    createdAt: '',
    updatedAt: '',
    ...flags,
  }) as PlanDto

describe('menu items', () => {
  test('an attendant sees the everyday pages; an admin also sees the admin pages', () => {
    // The campaign items also need the local flag 'cshow' (pages/campaigns/CampaignsPage.test.tsx tests it).
    setCampaignsShown(true)
    expect(visibleMenuItems(makeUser({ profile: 'user' })).map((i) => i.to)).toEqual([
      '/tickets',
      '/contacts',
      '/tags',
      '/kanban',
      '/tagsKanban',
      '/quick-messages',
      '/chats',
      '/schedules',
      '/todolist',
      '/helps',
    ])
    expect(visibleMenuItems(makeUser({ profile: 'admin' })).map((i) => i.to)).toEqual([
      '/tickets',
      '/contacts',
      '/tags',
      '/kanban',
      '/tagsKanban',
      '/quick-messages',
      '/chats',
      '/schedules',
      '/todolist',
      '/helps',
      '/',
      '/connections',
      '/campaigns',
      '/contact-lists',
      '/campaigns-config',
      '/files',
      '/prompts',
      '/messages-api',
      '/queue-integration',
      '/queues',
      '/users',
      '/financeiro',
      '/subscription',
      '/settings',
    ])
    setCampaignsShown(false)
    expect(visibleMenuItems(makeUser({ profile: 'admin' })).map((i) => i.to)).not.toContain('/campaigns')
    expect(visibleMenuItems(null)).toEqual([])
  })

  test('a plan flag set to false hides its item; missing or true shows it', () => {
    const items = [
      ...MENU_ITEMS,
      { to: '/prompts', labelKey: 'x', icon: Bot, planFlag: 'useOpenAi' as const, section: 'admin' as const },
    ]
    const base = makeUser()
    const off = { ...base, company: { ...base.company, plan: plan({ useOpenAi: false }) } }
    const on = { ...base, company: { ...base.company, plan: plan({ useOpenAi: true }) } }
    expect(visibleMenuItems(off, items).map((i) => i.to)).not.toContain('/prompts')
    expect(visibleMenuItems(on, items).map((i) => i.to)).toContain('/prompts')
    expect(visibleMenuItems(base, items).map((i) => i.to)).toContain('/prompts') // plan null: flags count as on
  })

  test('super-only items need the super flag', () => {
    const items = [
      { to: '/announcements', labelKey: 'x', icon: Bot, superOnly: true, section: 'admin' as const },
    ]
    expect(visibleMenuItems(makeUser(), items)).toHaveLength(0)
    expect(visibleMenuItems(makeUser({ super: true }), items)).toHaveLength(1)
  })
})

describe('side menu in the shell', () => {
  beforeEach(() => {
    resetState()
    mockFetch({})
  })
  afterEach(resetState)

  test('renders the admin section for admins, with the version label', () => {
    signIn(makeUser({ profile: 'admin' }))
    renderAt('/tickets')
    const nav = screen.getByRole('navigation', { name: 'Navegação principal' })
    expect(within(nav).getByRole('link', { name: /Usuários/ })).toHaveAttribute('href', '/users')
    expect(within(nav).getByRole('link', { name: /Filas/ })).toBeInTheDocument()
    expect(within(nav).getByRole('link', { name: /^Configurações$/ })).toBeInTheDocument()
    expect(screen.getByText(/Versão/)).toBeInTheDocument()
  })

  test('hides the admin section from attendants', () => {
    signIn(makeUser({ profile: 'user' }))
    renderAt('/tickets')
    const nav = screen.getByRole('navigation', { name: 'Navegação principal' })
    expect(within(nav).getByRole('link', { name: /Atendimentos/ })).toBeInTheDocument()
    expect(within(nav).queryByRole('link', { name: /Usuários/ })).not.toBeInTheDocument()
    expect(within(nav).queryByText('Administração')).not.toBeInTheDocument()
  })
})
