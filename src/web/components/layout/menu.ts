import {
  Blocks,
  BookUser,
  Bot,
  CalendarClock,
  Code,
  Columns3,
  CreditCard,
  FolderOpen,
  Inbox,
  LayoutDashboard,
  LifeBuoy,
  ListChecks,
  ListTodo,
  type LucideIcon,
  Megaphone,
  MessageSquareText,
  MessagesSquare,
  Newspaper,
  Receipt,
  Settings,
  SlidersHorizontal,
  Smartphone,
  SquareKanban,
  Tag,
  Users,
  Workflow,
} from 'lucide-react'
import type { SessionUser } from '../../../shared/api'
import { can, type Permission } from '../../../shared/permissions'
import { type PlanFlag, planAllows } from '../../../shared/plans'
import { campaignsVisible } from '../../state/campaigns'
import { maySeeDashboard } from '../../state/dashboard'

export type MenuItemDef = {
  to: string
  labelKey: string
  icon: LucideIcon
  /** Shown only to users holding this permission (admin items use 'drawer-admin-items:view'). */
  permission?: Permission
  /** Shown only when the company plan has this flag on. */
  planFlag?: PlanFlag
  superOnly?: boolean
  section: 'main' | 'admin'
  /** A further condition (read at render; signals it reads keep the menu in step): the campaigns' 'cshow'. */
  visible?: (user: SessionUser) => boolean
  /** A live badge next to the label ('connections': the '!' when a connection is not connected). */
  badge?: 'connections' | 'chats'
}

/** Only pages that exist today are listed; the rest of the spec's menu arrives with their pages. */
export const MENU_ITEMS: MenuItemDef[] = [
  { to: '/tickets', labelKey: 'menu.tickets', icon: Inbox, section: 'main' },
  { to: '/contacts', labelKey: 'menu.contacts', icon: BookUser, section: 'main' },
  { to: '/tags', labelKey: 'menu.tags', icon: Tag, section: 'main' },
  { to: '/kanban', labelKey: 'kanban.menuBoard', icon: SquareKanban, planFlag: 'useKanban', section: 'main' },
  { to: '/tagsKanban', labelKey: 'kanban.menuLanes', icon: Columns3, planFlag: 'useKanban', section: 'main' },
  { to: '/quick-messages', labelKey: 'quickMessages.menu', icon: MessageSquareText, section: 'main' },
  // A dot while any chat of mine is unread (ChatsNotificationsPopover drives it).
  {
    to: '/chats',
    labelKey: 'chats.menu',
    icon: MessagesSquare,
    planFlag: 'useInternalChat',
    section: 'main',
    badge: 'chats',
  },
  {
    to: '/schedules',
    labelKey: 'schedules.title',
    icon: CalendarClock,
    planFlag: 'useSchedules',
    section: 'main',
  },
  { to: '/todolist', labelKey: 'todo.menu', icon: ListTodo, section: 'main' },
  { to: '/helps', labelKey: 'helps.menu', icon: LifeBuoy, section: 'main' },
  // The dashboard is the home page (/) of those who may see it: admins and users with showDashboard.
  { to: '/', labelKey: 'dashboard.menu', icon: LayoutDashboard, visible: maySeeDashboard, section: 'admin' },
  {
    to: '/connections',
    labelKey: 'menu.connections',
    icon: Smartphone,
    permission: 'connections-page:actionButtons',
    section: 'admin',
    badge: 'connections',
  },
  {
    to: '/campaigns',
    labelKey: 'campaigns.menu',
    icon: Megaphone,
    permission: 'drawer-admin-items:view',
    planFlag: 'useCampaigns',
    // The spec's local flag 'cshow' (set at sign-in from the company's campaignsEnabled): see state/campaigns.ts.
    visible: campaignsVisible,
    section: 'admin',
  },
  {
    to: '/contact-lists',
    labelKey: 'contactLists.menu',
    icon: ListChecks,
    permission: 'drawer-admin-items:view',
    planFlag: 'useCampaigns',
    visible: campaignsVisible,
    section: 'admin',
  },
  {
    to: '/campaigns-config',
    labelKey: 'campaignSettings.menu',
    icon: SlidersHorizontal,
    permission: 'drawer-admin-items:view',
    planFlag: 'useCampaigns',
    visible: campaignsVisible,
    section: 'admin',
  },
  {
    to: '/files',
    labelKey: 'files.menu',
    icon: FolderOpen,
    permission: 'drawer-admin-items:view',
    section: 'admin',
  },
  {
    to: '/prompts',
    labelKey: 'prompts.menu',
    icon: Bot,
    permission: 'drawer-admin-items:view',
    planFlag: 'useOpenAi',
    section: 'admin',
  },
  {
    to: '/messages-api',
    labelKey: 'messagesApi.menu',
    icon: Code,
    permission: 'drawer-admin-items:view',
    planFlag: 'useExternalApi',
    section: 'admin',
  },
  {
    to: '/queue-integration',
    labelKey: 'queueIntegrations.menu',
    icon: Blocks,
    permission: 'drawer-admin-items:view',
    planFlag: 'useIntegrations',
    section: 'admin',
  },
  {
    to: '/queues',
    labelKey: 'menu.queues',
    icon: Workflow,
    permission: 'drawer-admin-items:view',
    section: 'admin',
  },
  {
    to: '/users',
    labelKey: 'menu.users',
    icon: Users,
    permission: 'drawer-admin-items:view',
    section: 'admin',
  },
  {
    to: '/announcements',
    labelKey: 'announcements.menu',
    icon: Newspaper,
    superOnly: true,
    section: 'admin',
  },
  {
    to: '/financeiro',
    labelKey: 'billing.menuInvoices',
    icon: Receipt,
    permission: 'drawer-admin-items:view',
    section: 'admin',
  },
  {
    to: '/subscription',
    labelKey: 'billing.menuSubscription',
    icon: CreditCard,
    permission: 'drawer-admin-items:view',
    // The platform company has no subscription of its own.
    visible: (user) => !user.super,
    section: 'admin',
  },
  {
    to: '/settings',
    labelKey: 'menu.settings',
    icon: Settings,
    permission: 'drawer-admin-items:view',
    section: 'admin',
  },
]

export function visibleMenuItems(user: SessionUser | null, items: MenuItemDef[] = MENU_ITEMS): MenuItemDef[] {
  if (!user) return []
  return items.filter(
    (item) =>
      (!item.permission || can(user, item.permission)) &&
      (!item.planFlag || planAllows(user.company?.plan, item.planFlag)) &&
      (!item.superOnly || user.super) &&
      (!item.visible || item.visible(user)),
  )
}
