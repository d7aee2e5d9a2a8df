/**
 * The inbound chatbot: one explicit state machine per ticket. `decide(state, input, context)` is pure: it reads
 * the ticket's bot state, the customer's message and a snapshot of what the company configured (connection,
 * settings, queues and their option trees, the time), and answers the next state and the actions to take
 * (messages to send, the queue to land the ticket in, a rating to record). runner.ts loads the context,
 * applies the actions in one transaction and keeps the state in `chatbot_sessions`, so a restart loses nothing.
 *
 * States (`node`):
 *
 * | node       | meaning                                                                                  |
 * |------------|------------------------------------------------------------------------------------------|
 * | start      | nothing said yet: the ticket's first customer message                                    |
 * | consent    | the LGPD consent question was sent; the bot waits for '1' (accept) or '2' (refuse)       |
 * | vacation   | the collective vacation message was sent; the bot waits for the vacation to end          |
 * | outOfHours | closed (scheduleType 'company' or 'connection' and their hours); out-of-hours message sent |
 * | menu       | the connection's greeting with the numbered queue menu was sent                          |
 * | queue      | a queue's greeting with its top-level options was sent (queueId)                         |
 * | option     | an option's message with its child options was sent (queueId, optionId)                  |
 * | done       | the bot is finished with this ticket: people take it from here                           |
 * | nps        | the ticket was closed with userRating on; the rating question was sent                   |
 *
 * Before any transition: a group ticket gets nothing (state unchanged); a contact with disableBot ends the bot
 * at once (done, nothing sent).
 *
 * Transitions (input = the customer's text, trimmed; 'sair' in any case):
 *
 * | from                 | input / condition                               | to        | actions                     |
 * |----------------------|-------------------------------------------------|-----------|-----------------------------|
 * | start                | LGPD consent due, the connection requires it    | consent   | consent question (budget)   |
 * | start                | LGPD consent due, not required                  | → as below, the consent notice first    |
 * | start                | collective vacation today (connection dates)    | vacation  | vacation message (budget)   |
 * | start                | scheduleType company (connection), outside the company's (connection's) hours | outOfHours | out-of-hours message (budget) |
 * | start                | the ticket has an external bot                  | done      | nothing; the message goes on to the bot (`pass`) |
 * | start                | connection has no queue                         | done      | greeting, when there is one |
 * | start                | one queue, or the ticket already has a queue    | → enter that queue                      |
 * | start                | otherwise                                       | menu      | greeting + numbered queues  |
 * | vacation, outOfHours | still closed                                    | same      | the message again, while the budget lasts, then silence |
 * | vacation, outOfHours | open again                                      | as from start                           |
 * | consent              | '1', 'sim', 'aceito' (any case and accents)     | → consent recorded, then as from start  |
 * | consent              | '2', 'não', 'recuso'                            | done      | refusal recorded; CONSENT_REFUSED (+ the vacation message); people take it |
 * | consent              | anything else                                   | consent   | the question again, while the budget lasts, then silence |
 * | menu                 | a queue's number (1..n, menu order)             | → enter that queue                      |
 * | menu                 | '#' or '0'                                      | menu      | the menu again              |
 * | menu, queue, option  | 'Sair'                                          | done      | exit notice; the ticket stays pending as it is (no queue) |
 * | queue, option        | an option's position with children              | option    | its message (+ media) + its children |
 * | queue, option        | an option's position without children (a leaf)  | done      | its message + media; ticket lands in the queue |
 * | queue, option        | '#'                                             | menu      | the main menu (or the queue's menu when the connection has one queue) |
 * | option               | '0'                                             | option/queue | the parent's menu        |
 * | queue                | '0'                                             | menu      | the main menu (as '#')      |
 * | menu, queue, option  | anything else                                   | same      | the current menu again (budget); once spent, done: handed to people (in the queue chosen so far) with the exit notice |
 * | queue, option        | the queue or option was deleted meanwhile       | menu      | the main menu               |
 * | done                 | anything                                        | done      | nothing                     |
 * | nps                  | a whole number 0..10                            | done      | rating recorded; complation message |
 * | nps                  | anything else, asked fewer than maxUseBotQueuesNPS times | nps | the rating question again |
 * | nps                  | anything else, asked enough                     | done      | nothing                     |
 *
 * Entering a queue: with scheduleType 'queue' and the queue outside its hours, the ticket lands in the queue and
 * the queue's out-of-hours message (else the connection's) is sent (done). A queue with options shows its
 * greeting and top-level options (queue). A queue without options: the ticket lands in it and its greeting is
 * sent (done). In each case a queue with a file list then sends the list's files, one message each (the option's
 * name as caption), once per entry.
 *
 * The prompt budget: at most maxUseBotQueues prompts (0 = unlimited) are repeated within timeUseBotQueues
 * minutes counted from the window's first prompt (0 = the window never resets). It limits the repeated
 * vacation and out-of-hours messages and the menus repeated after invalid input; a valid choice resets it.
 *
 * Schedules: the company's or the queue's list (src/shared/schedules.ts), read in the company's time zone (the
 * `timezone` setting, default America/Sao_Paulo); the start minute is inside, the end minute outside; an empty
 * list means no hours configured (always open).
 *
 * LGPD (connection `enableLGPD`): consent is due when the contact has no answer recorded and either this is its
 * first conversation (no earlier ticket) or the connection requires consent (`lgpdConsent`: asked on every new
 * conversation until answered). Without `lgpdConsent` the message is a notice sent once, on the first
 * conversation, before the rest; with it the bot asks (the message, the privacy-policy link, CONSENT_HINT) and
 * waits. The consent gate and the vacation come before the external bots (runner.ts).
 *
 * chatBotType 'list' and 'button' fall back to the numbered text menu: no channel sends interactive lists
 * (WhatsApp removed them for non-business accounts, and the sandbox mirrors what Baileys can send).
 */
import { isWithinSchedule, type ScheduleEntry } from '../../../shared/schedules'
import type { ChatbotNode } from '../../db/schema/chatbot'
import { localTime } from '../../local-time'

export type BotState = {
  node: ChatbotNode
  queueId: number | null
  optionId: number | null
  attempts: number
  windowStart: number | null
  lastPromptAt: number | null
}

export type BotMedia = { path: string; name: string; mime: string }

export type BotOption = {
  id: number
  parentId: number | null
  /** The position the customer types. */
  option: string
  title: string
  message: string
  media: BotMedia | null
}

export type BotQueue = {
  id: number
  name: string
  greetingMessage: string
  outOfHoursMessage: string
  schedules: readonly ScheduleEntry[]
  options: readonly BotOption[]
  /** The attached files of the queue's file list, in the list's order; the caption is the option's name. */
  files?: readonly { caption: string; media: BotMedia }[]
}

export type BotContext = {
  now: number
  timeZone: string
  scheduleType: 'disabled' | 'queue' | 'company' | 'connection' | string
  chatBotType: 'text' | 'button' | 'list' | string
  connection: {
    greetingMessage: string
    outOfHoursMessage: string
    complationMessage: string
    ratingMessage: string
    maxUseBotQueues: number
    timeUseBotQueues: number
    maxUseBotQueuesNPS: number
    collectiveVacationStart: string | null
    collectiveVacationEnd: string | null
    collectiveVacationMessage: string
    enableLGPD: boolean
    lgpdMessage: string
    lgpdLink: string
    /** The bot waits for the consent answer. */
    lgpdConsent: boolean
    /** The connection's hours (scheduleType 'connection'). */
    schedules: readonly ScheduleEntry[]
  }
  companySchedules: readonly ScheduleEntry[]
  /** The connection's queues, in menu order. */
  queues: readonly BotQueue[]
  ticket: { queueId: number | null; isGroup: boolean }
  contact: {
    disableBot: boolean
    /** The contact's LGPD answer so far. */
    lgpdConsent: 'accepted' | 'refused' | null
    /** No earlier ticket of the contact: its first conversation. */
    firstConversation: boolean
  }
  /** The ticket's queue or connection names an external bot (AI prompt, integration): it answers after the gates. */
  hasBot?: boolean
}

export type BotInput = { text: string }

export type BotAction =
  | { kind: 'send'; body: string; media?: BotMedia }
  | { kind: 'setQueue'; queueId: number }
  | { kind: 'rate'; rate: number }
  | { kind: 'consent'; accepted: boolean }

/** `pass`: the message goes on to the ticket's external bot (the gates let it through). */
export type Decision = { state: BotState; actions: BotAction[]; pass?: boolean }

export const INITIAL_STATE: BotState = {
  node: 'start',
  queueId: null,
  optionId: null,
  attempts: 0,
  windowStart: null,
  lastPromptAt: null,
}

/** Sent on 'Sair', and when the menus' budget is spent. */
export const EXIT_NOTICE =
  'Certo! Você saiu do atendimento automático. Aguarde, logo um atendente vai falar com você.'
/** Ends the LGPD consent question: the convention the machine reads. */
export const CONSENT_HINT = 'Responda *1* para aceitar ou *2* para recusar.'
/** Sent when the contact refuses: the bot stops, the ticket waits for a person. */
export const CONSENT_REFUSED =
  'Sua recusa foi registrada. Não usaremos o atendimento automático; aguarde, um atendente vai falar com você.'
/** The consent text when the connection has none (notice mode only: consent mode requires one). */
export const DEFAULT_LGPD_MESSAGE =
  'Seus dados pessoais são tratados conforme a Lei Geral de Proteção de Dados (LGPD).'
/** Added to the rating question, and repeated on an answer that is not a grade. */
export const RATING_HINT = 'Responda com uma nota de *0* a *10*.'

type Step = (s: BotState, text: string, c: BotContext) => Decision

/* ---------- helpers ---------- */

const fresh = (node: ChatbotNode, extra: Partial<BotState> = {}): BotState => ({
  ...INITIAL_STATE,
  node,
  ...extra,
})

const send = (body: string, media?: BotMedia | null): BotAction =>
  media ? { kind: 'send', body, media } : { kind: 'send', body }

/** The prompts already spent in the current window (reset once timeUseBotQueues minutes have passed). */
function spent(s: BotState, c: BotContext): number {
  const windowMs = c.connection.timeUseBotQueues * 60_000
  if (windowMs > 0 && s.windowStart != null && c.now - s.windowStart >= windowMs) return 0
  return s.attempts
}

function budgetLeft(s: BotState, c: BotContext): boolean {
  const max = c.connection.maxUseBotQueues
  return max <= 0 || spent(s, c) < max
}

/** `next` after one more prompt of the window. */
function prompted(s: BotState, c: BotContext, next: BotState): BotState {
  const used = spent(s, c)
  return {
    ...next,
    attempts: used + 1,
    windowStart: used === 0 ? c.now : s.windowStart,
    lastPromptAt: c.now,
  }
}

/** Whether today (company time) is inside the connection's collective vacation with a message to send. */
export function onVacation(c: BotContext): boolean {
  const {
    collectiveVacationStart: start,
    collectiveVacationEnd: end,
    collectiveVacationMessage,
  } = c.connection
  if (!start || !end || !collectiveVacationMessage.trim()) return false
  const today = localTime(c.now, c.timeZone).date
  return start <= today && today <= end
}

/** Whether a schedule list is open now (an empty list: no hours configured, always open). */
export function openNow(schedules: readonly ScheduleEntry[], c: BotContext): boolean {
  if (!schedules.length) return true
  const t = localTime(c.now, c.timeZone)
  return isWithinSchedule(schedules, t.weekday, t.minutes)
}

/** Closed by the company's hours (scheduleType 'company') or the connection's ('connection'). */
const closedNow = (c: BotContext) =>
  !!c.connection.outOfHoursMessage.trim() &&
  ((c.scheduleType === 'company' && !openNow(c.companySchedules, c)) ||
    (c.scheduleType === 'connection' && !openNow(c.connection.schedules, c)))

/** Whether the LGPD consent message is due on this ticket (see the file's comment). */
export function consentDue(c: BotContext): boolean {
  if (!c.connection.enableLGPD || c.contact.lgpdConsent != null) return false
  return c.contact.firstConversation || c.connection.lgpdConsent
}

/** The customer's answer to the consent question, or null when it is neither. */
export function consentAnswer(text: string): 'accepted' | 'refused' | null {
  const t = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[.!*\s]+$/g, '')
    .toLowerCase()
  if (['1', 'sim', 's', 'aceito', 'aceitar', 'concordo'].includes(t)) return 'accepted'
  if (['2', 'nao', 'n', 'recuso', 'recusar', 'nao aceito'].includes(t)) return 'refused'
  return null
}

/** The consent message: the connection's text, the privacy-policy link, and (when asking) how to answer. */
export function consentText(c: BotContext, asking: boolean): string {
  const link = c.connection.lgpdLink.trim()
  return join(
    c.connection.lgpdMessage.trim() || DEFAULT_LGPD_MESSAGE,
    link ? `Política de privacidade: ${link}` : '',
    asking ? CONSENT_HINT : '',
  )
}

const join = (...parts: string[]) =>
  parts
    .map((p) => p.trim())
    .filter(Boolean)
    .join('\n\n')

const line = (key: string, title: string) => `*[ ${key} ]* - ${title}`

/** The main menu: the greeting and one numbered line per queue. */
export function mainMenuText(c: BotContext): string {
  return join(
    c.connection.greetingMessage,
    c.queues.map((q, i) => line(String(i + 1), q.name)).join('\n'),
    'Digite *Sair* para falar com um atendente.',
  )
}

const childrenOf = (q: BotQueue, parentId: number | null) =>
  q.options
    .filter((o) => o.parentId === parentId)
    .sort((a, b) => a.option.localeCompare(b.option, undefined, { numeric: true }) || a.id - b.id)

/** An option menu: the header, one line per child option, and the way back. */
export function optionMenuText(q: BotQueue, parentId: number | null, header: string): string {
  return join(
    header,
    childrenOf(q, parentId)
      .map((o) => line(o.option, o.title))
      .join('\n'),
    [line('0', 'Voltar'), line('#', 'Menu inicial')].join('\n'),
  )
}

/* ---------- transitions ---------- */

/** The first message, or the first after a vacation or closed hours ended: the LGPD gate first. */
function open(s: BotState, c: BotContext): Decision {
  if (consentDue(c)) {
    if (c.connection.lgpdConsent) return askConsent(s, c)
    // a notice, once (the first message of the first conversation), before whatever comes next
    if (s.node === 'start') {
      const rest = afterConsent(s, c)
      return { ...rest, actions: [send(consentText(c, false)), ...rest.actions] }
    }
  }
  return afterConsent(s, c)
}

/** The consent question (again, while the budget lasts; then silence until an answer). */
function askConsent(s: BotState, c: BotContext): Decision {
  if (s.node === 'consent' && !budgetLeft(s, c)) return { state: s, actions: [] }
  const base = s.node === 'consent' ? s : fresh('consent')
  return { state: prompted(base, c, { ...base, node: 'consent' }), actions: [send(consentText(c, true))] }
}

const atConsent: Step = (s, text, c) => {
  // answered elsewhere meanwhile, or LGPD switched off: nothing to wait for
  if (!consentDue(c) || !c.connection.lgpdConsent) return afterConsent(fresh('start'), c)
  const answer = consentAnswer(text)
  if (answer === 'accepted') {
    const rest = afterConsent(fresh('start'), c)
    return { ...rest, actions: [{ kind: 'consent', accepted: true }, ...rest.actions] }
  }
  if (answer === 'refused') {
    const actions: BotAction[] = [{ kind: 'consent', accepted: false }, send(CONSENT_REFUSED)]
    if (onVacation(c)) actions.push(send(c.connection.collectiveVacationMessage))
    return { state: fresh('done'), actions }
  }
  return askConsent(s, c)
}

/** Past the LGPD gate: the vacation, closed hours, then the menu (or the external bot). */
function afterConsent(s: BotState, c: BotContext): Decision {
  if (onVacation(c)) {
    if (!budgetLeft(s, c) && s.node === 'vacation') return { state: s, actions: [] }
    const base = s.node === 'vacation' ? s : fresh('vacation')
    return {
      state: prompted(base, c, { ...base, node: 'vacation' }),
      actions: [send(c.connection.collectiveVacationMessage)],
    }
  }
  if (closedNow(c)) {
    if (!budgetLeft(s, c) && s.node === 'outOfHours') return { state: s, actions: [] }
    const base = s.node === 'outOfHours' ? s : fresh('outOfHours')
    return {
      state: prompted(base, c, { ...base, node: 'outOfHours' }),
      actions: [send(c.connection.outOfHoursMessage)],
    }
  }
  if (c.hasBot) return { state: fresh('done'), actions: [], pass: true }
  return mainMenu(fresh('start'), c, true)
}

/** The main menu (or what replaces it when the connection has fewer than two queues, or the ticket a queue). */
function mainMenu(s: BotState, c: BotContext, first: boolean): Decision {
  const own = c.ticket.queueId != null ? c.queues.find((q) => q.id === c.ticket.queueId) : undefined
  if (own) return enterQueue(c, own, first ? c.connection.greetingMessage : '')
  if (c.queues.length === 0) {
    const greeting = c.connection.greetingMessage.trim()
    return { state: fresh('done'), actions: greeting ? [send(greeting)] : [] }
  }
  if (c.queues.length === 1) return enterQueue(c, c.queues[0]!, first ? c.connection.greetingMessage : '')
  return {
    state: prompted(s, c, { ...s, node: 'menu', queueId: null, optionId: null }),
    actions: [send(mainMenuText(c))],
  }
}

/** The queue's file list, one message per file (the option's name as caption), sent after its greeting. */
const queueFiles = (q: BotQueue): BotAction[] => (q.files ?? []).map((f) => send(f.caption, f.media))

/** The customer chose a queue (or the connection has only this one). */
function enterQueue(c: BotContext, q: BotQueue, lead: string): Decision {
  if (c.scheduleType === 'queue' && !openNow(q.schedules, c)) {
    const message = q.outOfHoursMessage.trim() || c.connection.outOfHoursMessage.trim()
    return {
      state: fresh('done'),
      actions: [
        { kind: 'setQueue', queueId: q.id },
        ...(message ? [send(join(lead, message))] : []),
        ...queueFiles(q),
      ],
    }
  }
  if (childrenOf(q, null).length) {
    const next = fresh('queue', { queueId: q.id })
    return {
      state: prompted(next, c, next),
      actions: [send(optionMenuText(q, null, join(lead, q.greetingMessage))), ...queueFiles(q)],
    }
  }
  const greeting = join(lead, q.greetingMessage)
  return {
    state: fresh('done'),
    actions: [{ kind: 'setQueue', queueId: q.id }, ...(greeting ? [send(greeting)] : []), ...queueFiles(q)],
  }
}

/** 'Sair': the bot lets go; the ticket stays pending where it is. */
const leave = (): Decision => ({ state: fresh('done'), actions: [send(EXIT_NOTICE)] })

/** Input the current node does not know: the menu again while the budget lasts, else handed to people. */
function repeat(s: BotState, c: BotContext, menu: string): Decision {
  if (!budgetLeft(s, c)) {
    const actions: BotAction[] = []
    if (s.queueId != null) actions.push({ kind: 'setQueue', queueId: s.queueId })
    actions.push(send(EXIT_NOTICE))
    return { state: fresh('done'), actions }
  }
  return { state: prompted(s, c, s), actions: [send(menu)] }
}

const isSair = (text: string) => text.toLowerCase() === 'sair'

const atMenu: Step = (s, text, c) => {
  if (isSair(text)) return leave()
  if (text === '#' || text === '0') return mainMenu(fresh('start'), c, false)
  if (/^\d{1,3}$/.test(text)) {
    const q = c.queues[Number(text) - 1]
    if (q) return enterQueue(c, q, '')
  }
  return repeat(s, c, mainMenuText(c))
}

/** In a queue's tree: `s.optionId` null is the queue's top level. */
const inTree: Step = (s, text, c) => {
  const q = c.queues.find((x) => x.id === s.queueId)
  const current = s.optionId == null ? null : q?.options.find((o) => o.id === s.optionId)
  if (!q || (s.optionId != null && !current)) return mainMenu(fresh('start'), c, false)
  if (isSair(text)) return leave()
  if (text === '#') return mainMenu(fresh('start'), c, false)
  if (text === '0') {
    if (!current) return mainMenu(fresh('start'), c, false)
    const parent = current.parentId == null ? null : q.options.find((o) => o.id === current.parentId)
    const next = parent
      ? fresh('option', { queueId: q.id, optionId: parent.id })
      : fresh('queue', { queueId: q.id })
    const header = parent ? parent.message : q.greetingMessage
    return { state: prompted(next, c, next), actions: [send(optionMenuText(q, parent?.id ?? null, header))] }
  }
  const chosen = childrenOf(q, current?.id ?? null).find(
    (o) => o.option.trim().toLowerCase() === text.toLowerCase(),
  )
  if (chosen) {
    if (childrenOf(q, chosen.id).length) {
      const next = fresh('option', { queueId: q.id, optionId: chosen.id })
      return {
        state: prompted(next, c, next),
        actions: [send(optionMenuText(q, chosen.id, chosen.message), chosen.media)],
      }
    }
    const actions: BotAction[] = [{ kind: 'setQueue', queueId: q.id }]
    if (chosen.message.trim() || chosen.media) actions.push(send(chosen.message.trim(), chosen.media))
    return { state: fresh('done'), actions }
  }
  return repeat(s, c, optionMenuText(q, current?.id ?? null, current ? current.message : q.greetingMessage))
}

const rating: Step = (s, text, c) => {
  const grade = /^(10|[0-9])$/.exec(text)
  if (grade) {
    const actions: BotAction[] = [{ kind: 'rate', rate: Number(grade[1]) }]
    if (c.connection.complationMessage.trim()) actions.push(send(c.connection.complationMessage))
    return { state: { ...s, node: 'done' }, actions }
  }
  // the question was asked once on close; re-asked while fewer than maxUseBotQueuesNPS questions went out
  if (s.attempts < Math.max(1, c.connection.maxUseBotQueuesNPS))
    return {
      state: { ...s, attempts: s.attempts + 1, lastPromptAt: c.now },
      actions: [send(join(c.connection.ratingMessage, RATING_HINT))],
    }
  return { state: { ...s, node: 'done' }, actions: [] }
}

/** The table: what each node does with a message. */
const TABLE: Record<ChatbotNode, Step> = {
  start: (s, _text, c) => open(s, c),
  consent: atConsent,
  vacation: (s, _text, c) => open(s, c),
  outOfHours: (s, _text, c) => open(s, c),
  menu: atMenu,
  queue: inTree,
  option: inTree,
  done: (s) => ({ state: s, actions: [] }),
  nps: rating,
}

/** The machine: see the file's comment for every state and transition. Pure. */
export function decide(state: BotState, input: BotInput, c: BotContext): Decision {
  if (c.ticket.isGroup) return { state, actions: [] }
  if (state.node === 'nps') return rating(state, input.text.trim(), c)
  if (c.contact.disableBot) return { state: fresh('done'), actions: [] }
  return TABLE[state.node](state, input.text.trim(), c)
}
