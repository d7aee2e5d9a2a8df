import { describe, expect, test } from 'bun:test'
import { defaultSchedules, type ScheduleEntry } from '../../../shared/schedules'
import { ManualClock } from '../../clock'
import {
  type BotAction,
  type BotContext,
  type BotQueue,
  type BotState,
  decide,
  EXIT_NOTICE,
  INITIAL_STATE,
  mainMenuText,
  RATING_HINT,
} from './machine'

/** Monday 2026-11-23, São Paulo (UTC-3, no daylight saving): 10:00 local. */
const MONDAY_10 = Date.parse('2026-11-23T13:00:00Z')
const at = (iso: string) => Date.parse(iso)

const sales: BotQueue = {
  id: 10,
  name: 'Vendas',
  greetingMessage: 'Bem-vindo às vendas',
  outOfHoursMessage: 'Vendas fechadas',
  schedules: defaultSchedules(),
  options: [],
}
const support: BotQueue = {
  id: 20,
  name: 'Suporte',
  greetingMessage: 'Suporte técnico',
  outOfHoursMessage: '',
  schedules: defaultSchedules(),
  options: [
    { id: 1, parentId: null, option: '1', title: 'Internet', message: 'Problemas de internet', media: null },
    {
      id: 2,
      parentId: null,
      option: '2',
      title: 'Boleto',
      message: 'Segue o boleto',
      media: { path: 'b.pdf', name: 'boleto.pdf', mime: 'application/pdf' },
    },
    {
      id: 3,
      parentId: 1,
      option: '1',
      title: 'Lenta',
      message: 'Reinicie o modem',
      media: { path: 'm.png', name: 'modem.png', mime: 'image/png' },
    },
    { id: 4, parentId: 1, option: '2', title: 'Sem sinal', message: 'Mais detalhes:', media: null },
    { id: 5, parentId: 4, option: '1', title: 'Fibra', message: 'Técnico a caminho', media: null },
  ],
}

function context(
  over: Partial<BotContext> = {},
  connection: Partial<BotContext['connection']> = {},
): BotContext {
  return {
    now: MONDAY_10,
    timeZone: 'America/Sao_Paulo',
    scheduleType: 'disabled',
    chatBotType: 'text',
    connection: {
      greetingMessage: 'Olá {{firstName}}! Escolha:',
      outOfHoursMessage: 'Estamos fechados',
      complationMessage: 'Obrigado!',
      ratingMessage: 'Avalie o atendimento',
      maxUseBotQueues: 3,
      timeUseBotQueues: 0,
      maxUseBotQueuesNPS: 2,
      collectiveVacationStart: null,
      collectiveVacationEnd: null,
      collectiveVacationMessage: '',
      enableLGPD: false,
      lgpdMessage: '',
      lgpdLink: '',
      lgpdConsent: false,
      schedules: [],
      ...connection,
    },
    companySchedules: [],
    queues: [sales, support],
    ticket: { queueId: null, isGroup: false },
    contact: { disableBot: false, lgpdConsent: null, firstConversation: true },
    ...over,
  }
}

const state = (over: Partial<BotState>): BotState => ({ ...INITIAL_STATE, ...over })
const texts = (actions: BotAction[]) => actions.flatMap((a) => (a.kind === 'send' ? [a.body] : []))
const queueOf = (actions: BotAction[]) => actions.find((a) => a.kind === 'setQueue')

type Row = {
  name: string
  from: Partial<BotState>
  input: string
  ctx?: Partial<BotContext>
  conn?: Partial<BotContext['connection']>
  node: BotState['node']
  /** Every text sent must contain these, in order (one per message). */
  sends: (string | RegExp)[]
  queue?: number | null
  media?: string
  extra?: (s: BotState, actions: BotAction[]) => void
}

const TABLE: Row[] = [
  {
    name: 'first message: greeting with the numbered queues',
    from: {},
    input: 'oi',
    node: 'menu',
    sends: [/Olá \{\{firstName\}\}! Escolha:\n\n\*\[ 1 \]\* - Vendas\n\*\[ 2 \]\* - Suporte/],
  },
  {
    name: 'no queues: the greeting only, done',
    from: {},
    input: 'oi',
    ctx: { queues: [] },
    node: 'done',
    sends: ['Olá'],
    queue: null,
  },
  {
    name: 'no queues, no greeting: nothing, done',
    from: {},
    input: 'oi',
    ctx: { queues: [] },
    conn: { greetingMessage: '' },
    node: 'done',
    sends: [],
  },
  {
    name: 'one queue without options: lands in it with the greetings',
    from: {},
    input: 'oi',
    ctx: { queues: [sales] },
    node: 'done',
    sends: [/Olá.*\n\nBem-vindo às vendas/s],
    queue: 10,
  },
  {
    name: 'one queue with options: its menu at once',
    from: {},
    input: 'oi',
    ctx: { queues: [support] },
    node: 'queue',
    sends: [/Suporte técnico\n\n\*\[ 1 \]\* - Internet\n\*\[ 2 \]\* - Boleto/],
  },
  {
    name: "a ticket opened in a queue with options: that queue's menu",
    from: {},
    input: 'oi',
    ctx: { ticket: { queueId: 20, isGroup: false } },
    node: 'queue',
    sends: ['Internet'],
  },
  {
    name: 'a number chooses a queue without options: lands there',
    from: { node: 'menu', attempts: 1 },
    input: '1',
    node: 'done',
    sends: ['Bem-vindo às vendas'],
    queue: 10,
  },
  {
    name: 'a number chooses a queue with options: its tree',
    from: { node: 'menu', attempts: 2 },
    input: ' 2 ',
    node: 'queue',
    sends: ['Suporte técnico'],
    extra: (s) => expect(s).toMatchObject({ queueId: 20, attempts: 1 }),
  },
  {
    name: 'a number out of range repeats the menu',
    from: { node: 'menu', attempts: 1, windowStart: MONDAY_10 },
    input: '3',
    node: 'menu',
    sends: ['*[ 2 ]* - Suporte'],
    extra: (s) => expect(s.attempts).toBe(2),
  },
  {
    name: 'free text at the menu repeats it',
    from: { node: 'menu', attempts: 1, windowStart: MONDAY_10 },
    input: 'quero falar com alguém',
    node: 'menu',
    sends: ['*[ 1 ]* - Vendas'],
  },
  {
    name: 'invalid input with the budget spent: handed to people',
    from: { node: 'menu', attempts: 3, windowStart: MONDAY_10 },
    input: 'x',
    node: 'done',
    sends: [EXIT_NOTICE],
    queue: null,
  },
  {
    name: 'the budget window passed: the menu again, counted anew',
    from: { node: 'menu', attempts: 3, windowStart: MONDAY_10 - 11 * 60_000 },
    input: 'x',
    conn: { timeUseBotQueues: 10 },
    node: 'menu',
    sends: ['Vendas'],
    extra: (s) => expect(s).toMatchObject({ attempts: 1, windowStart: MONDAY_10 }),
  },
  {
    name: 'inside the window the budget holds',
    from: { node: 'menu', attempts: 3, windowStart: MONDAY_10 - 9 * 60_000 },
    input: 'x',
    conn: { timeUseBotQueues: 10 },
    node: 'done',
    sends: [EXIT_NOTICE],
  },
  {
    name: 'maxUseBotQueues 0: unlimited',
    from: { node: 'menu', attempts: 50, windowStart: MONDAY_10 },
    input: 'x',
    conn: { maxUseBotQueues: 0 },
    node: 'menu',
    sends: ['Vendas'],
  },
  {
    name: "'Sair' at the menu: done, pending without queue",
    from: { node: 'menu' },
    input: 'Sair',
    node: 'done',
    sends: [EXIT_NOTICE],
    queue: null,
  },
  {
    name: "'SAIR' inside a tree",
    from: { node: 'option', queueId: 20, optionId: 1 },
    input: 'SAIR',
    node: 'done',
    sends: [EXIT_NOTICE],
    queue: null,
  },
  { name: "'#' at the menu: the menu", from: { node: 'menu' }, input: '#', node: 'menu', sends: ['Vendas'] },
  { name: "'0' at the menu: the menu", from: { node: 'menu' }, input: '0', node: 'menu', sends: ['Vendas'] },
  {
    name: 'an option with children: its message and sub-menu',
    from: { node: 'queue', queueId: 20 },
    input: '1',
    node: 'option',
    sends: [
      /Problemas de internet\n\n\*\[ 1 \]\* - Lenta\n\*\[ 2 \]\* - Sem sinal\n\n\*\[ 0 \]\* - Voltar\n\*\[ # \]\* - Menu inicial/,
    ],
    extra: (s) => expect(s).toMatchObject({ queueId: 20, optionId: 1 }),
  },
  {
    name: 'a top-level leaf with a file: message, file, the queue',
    from: { node: 'queue', queueId: 20 },
    input: '2',
    node: 'done',
    sends: ['Segue o boleto'],
    queue: 20,
    media: 'boleto.pdf',
  },
  {
    name: 'a nested leaf with a file',
    from: { node: 'option', queueId: 20, optionId: 1 },
    input: '1',
    node: 'done',
    sends: ['Reinicie o modem'],
    queue: 20,
    media: 'modem.png',
  },
  {
    name: 'two levels down',
    from: { node: 'option', queueId: 20, optionId: 4 },
    input: '1',
    node: 'done',
    sends: ['Técnico a caminho'],
    queue: 20,
  },
  {
    name: "'0' from a second level: up to its parent option",
    from: { node: 'option', queueId: 20, optionId: 4 },
    input: '0',
    node: 'option',
    sends: [/Problemas de internet[\s\S]*Lenta/],
    extra: (s) => expect(s.optionId).toBe(1),
  },
  {
    name: "'0' from a first level: up to the queue's menu",
    from: { node: 'option', queueId: 20, optionId: 1 },
    input: '0',
    node: 'queue',
    sends: [/Suporte técnico[\s\S]*Boleto/],
  },
  {
    name: "'0' from the queue's menu: the main menu",
    from: { node: 'queue', queueId: 20 },
    input: '0',
    node: 'menu',
    sends: ['*[ 1 ]* - Vendas'],
  },
  {
    name: "'#' deep in the tree: the main menu",
    from: { node: 'option', queueId: 20, optionId: 4 },
    input: '#',
    node: 'menu',
    sends: ['*[ 2 ]* - Suporte'],
  },
  {
    name: 'invalid input in the tree repeats the current level',
    from: { node: 'option', queueId: 20, optionId: 1, attempts: 1, windowStart: MONDAY_10 },
    input: '9',
    node: 'option',
    sends: [/Problemas de internet[\s\S]*Sem sinal/],
  },
  {
    name: 'budget spent in the tree: lands in the queue, to people',
    from: { node: 'queue', queueId: 20, attempts: 3, windowStart: MONDAY_10 },
    input: '9',
    node: 'done',
    sends: [EXIT_NOTICE],
    queue: 20,
  },
  {
    name: 'the queue was deleted meanwhile: the main menu',
    from: { node: 'queue', queueId: 99 },
    input: '1',
    node: 'menu',
    sends: ['Vendas'],
  },
  {
    name: 'the option was deleted meanwhile: the main menu',
    from: { node: 'option', queueId: 20, optionId: 77 },
    input: '1',
    node: 'menu',
    sends: ['Vendas'],
  },
  { name: 'done stays done', from: { node: 'done' }, input: '1', node: 'done', sends: [] },
  {
    name: 'disableBot: done, nothing sent',
    from: {},
    input: 'oi',
    ctx: { contact: { disableBot: true, lgpdConsent: null, firstConversation: true } },
    node: 'done',
    sends: [],
  },
  {
    name: 'disableBot in the middle of a menu',
    from: { node: 'menu' },
    input: '1',
    ctx: { contact: { disableBot: true, lgpdConsent: null, firstConversation: true } },
    node: 'done',
    sends: [],
    queue: null,
  },
  {
    name: 'a group: nothing, state unchanged',
    from: { node: 'start' },
    input: 'oi',
    ctx: { ticket: { queueId: null, isGroup: true } },
    node: 'start',
    sends: [],
  },
  // NPS
  {
    name: 'a grade: recorded, complation message',
    from: { node: 'nps', attempts: 1 },
    input: '9',
    node: 'done',
    sends: ['Obrigado!'],
    extra: (_s, a) => expect(a).toContainEqual({ kind: 'rate', rate: 9 }),
  },
  {
    name: 'grade 0 and 10 are grades',
    from: { node: 'nps', attempts: 1 },
    input: '10',
    node: 'done',
    sends: ['Obrigado!'],
    extra: (_s, a) => expect(a).toContainEqual({ kind: 'rate', rate: 10 }),
  },
  {
    name: 'not a grade: asked again',
    from: { node: 'nps', attempts: 1 },
    input: 'ótimo',
    node: 'nps',
    sends: [`Avalie o atendimento\n\n${RATING_HINT}`],
    extra: (s) => expect(s.attempts).toBe(2),
  },
  {
    name: '11 is not a grade',
    from: { node: 'nps', attempts: 1 },
    input: '11',
    node: 'nps',
    sends: ['Avalie'],
  },
  { name: 'asked enough: let go', from: { node: 'nps', attempts: 2 }, input: 'hã?', node: 'done', sends: [] },
  {
    name: 'NPS ignores disableBot (the close asked)',
    from: { node: 'nps', attempts: 1 },
    input: '7',
    ctx: { contact: { disableBot: true, lgpdConsent: null, firstConversation: true } },
    node: 'done',
    sends: ['Obrigado!'],
  },
]

describe('chatbot machine: the transition table', () => {
  for (const row of TABLE) {
    test(row.name, () => {
      const { state: next, actions } = decide(
        state(row.from),
        { text: row.input },
        context(row.ctx, row.conn),
      )
      expect(next.node).toBe(row.node)
      const sent = texts(actions)
      expect(sent).toHaveLength(row.sends.length)
      row.sends.forEach((want, i) => {
        if (typeof want === 'string') expect(sent[i]).toContain(want)
        else expect(sent[i]).toMatch(want)
      })
      if (row.queue !== undefined) expect(queueOf(actions)?.queueId ?? null).toBe(row.queue)
      if (row.media) {
        const media = actions.find((a) => a.kind === 'send' && a.media)
        expect(media?.kind === 'send' && media.media?.name).toBe(row.media)
      }
      row.extra?.(next, actions)
    })
  }
})

/** Weekdays 08:00-18:00 (São Paulo). */
const hours: ScheduleEntry[] = defaultSchedules()

describe('chatbot machine: out of hours, with the clock moved', () => {
  const companyCtx = (now: number, conn: Partial<BotContext['connection']> = {}) =>
    context({ now, scheduleType: 'company', companySchedules: hours }, conn)

  test('company hours at the interval edges, in the company time zone', () => {
    const cases: [string, BotState['node']][] = [
      ['2026-11-23T10:59:59Z', 'outOfHours'], // 07:59:59 local
      ['2026-11-23T11:00:00Z', 'menu'], // 08:00 local: open
      ['2026-11-23T20:59:59Z', 'menu'], // 17:59:59 local
      ['2026-11-23T21:00:00Z', 'outOfHours'], // 18:00 local: closed
      ['2026-11-22T13:00:00Z', 'outOfHours'], // Sunday: closed all day
      ['2026-11-21T14:59:00Z', 'menu'], // Saturday 11:59
      ['2026-11-21T15:00:00Z', 'outOfHours'], // Saturday 12:00
    ]
    for (const [iso, node] of cases) {
      const { state: next, actions } = decide(INITIAL_STATE, { text: 'oi' }, companyCtx(at(iso)))
      expect({ iso, node: next.node }).toEqual({ iso, node })
      if (node === 'outOfHours') expect(texts(actions)).toEqual(['Estamos fechados'])
    }
  })

  test('the same instant in another time zone is another local hour', () => {
    // 11:00Z is 08:00 in São Paulo (open) but 06:00 in New York (closed)
    const open = decide(INITIAL_STATE, { text: 'oi' }, { ...companyCtx(at('2026-11-23T11:00:00Z')) })
    const closed = decide(
      INITIAL_STATE,
      { text: 'oi' },
      {
        ...companyCtx(at('2026-11-23T11:00:00Z')),
        timeZone: 'America/New_York',
      },
    )
    expect(open.state.node).toBe('menu')
    expect(closed.state.node).toBe('outOfHours')
  })

  test('across a daylight-saving change the local hours still hold', () => {
    // New York leaves DST on Sunday 2026-11-01: Monday 2026-11-02 08:00 EST is 13:00Z (it was 12:00Z a week before)
    const ny = (iso: string) => ({ ...companyCtx(at(iso)), timeZone: 'America/New_York' })
    expect(decide(INITIAL_STATE, { text: 'oi' }, ny('2026-10-26T12:00:00Z')).state.node).toBe('menu')
    expect(decide(INITIAL_STATE, { text: 'oi' }, ny('2026-11-02T12:30:00Z')).state.node).toBe('outOfHours')
    expect(decide(INITIAL_STATE, { text: 'oi' }, ny('2026-11-02T13:00:00Z')).state.node).toBe('menu')
  })

  test('re-prompting: at most maxUseBotQueues messages within timeUseBotQueues minutes, then silence, then again', () => {
    const clock = new ManualClock(at('2026-11-23T02:00:00Z')) // Sunday 23:00 local, closed
    const conn = { maxUseBotQueues: 2, timeUseBotQueues: 30 }
    let s = INITIAL_STATE
    const step = () => {
      const d = decide(s, { text: 'alô?' }, companyCtx(clock.now(), conn))
      s = d.state
      return texts(d.actions)
    }
    expect(step()).toEqual(['Estamos fechados'])
    clock.advance(5 * 60_000)
    expect(step()).toEqual(['Estamos fechados'])
    clock.advance(5 * 60_000)
    expect(step()).toEqual([]) // two in the window: silence
    clock.advance(19 * 60_000) // 29 minutes after the first
    expect(step()).toEqual([])
    clock.advance(60_000) // 30 minutes: a new window
    expect(step()).toEqual(['Estamos fechados'])
    expect(s).toMatchObject({ node: 'outOfHours', attempts: 1 })
    clock.set(at('2026-11-23T11:00:00Z')) // Monday 08:00: open
    expect(step()[0]).toContain('*[ 1 ]* - Vendas')
    expect(s.node).toBe('menu')
  })

  test('no company hours configured: always open; scheduleType disabled ignores hours', () => {
    const night = at('2026-11-23T05:00:00Z')
    expect(
      decide(INITIAL_STATE, { text: 'oi' }, context({ now: night, scheduleType: 'company' })).state.node,
    ).toBe('menu')
    expect(
      decide(
        INITIAL_STATE,
        { text: 'oi' },
        context({ now: night, scheduleType: 'disabled', companySchedules: hours }),
      ).state.node,
    ).toBe('menu')
  })

  test("queue hours: a closed queue takes the ticket and sends its out-of-hours message (or the connection's)", () => {
    const night = at('2026-11-23T23:30:00Z') // Monday 20:30 local
    const ctx = context({ now: night, scheduleType: 'queue' })
    const toSales = decide(state({ node: 'menu' }), { text: '1' }, ctx)
    expect(toSales.state.node).toBe('done')
    expect(queueOf(toSales.actions)).toEqual({ kind: 'setQueue', queueId: 10 })
    expect(texts(toSales.actions)).toEqual(['Vendas fechadas'])
    const toSupport = decide(state({ node: 'menu' }), { text: '2' }, ctx)
    expect(texts(toSupport.actions)).toEqual(['Estamos fechados'])
    // at 17:59 local the queue is open and shows its options
    const open = decide(
      state({ node: 'menu' }),
      { text: '2' },
      context({ now: at('2026-11-23T20:59:00Z'), scheduleType: 'queue' }),
    )
    expect(open.state.node).toBe('queue')
  })
})

describe('chatbot machine: collective vacation', () => {
  const vacation = {
    collectiveVacationStart: '2026-12-20',
    collectiveVacationEnd: '2027-01-05',
    collectiveVacationMessage: 'Férias coletivas!',
  }

  test('inside the dates (local days, both ends included) the vacation message; outside, the menu', () => {
    const cases: [string, BotState['node']][] = [
      ['2026-12-20T02:59:00Z', 'menu'], // 19th, 23:59 local
      ['2026-12-20T03:00:00Z', 'vacation'], // 20th, 00:00 local
      ['2027-01-06T02:59:00Z', 'vacation'], // 5th, 23:59 local
      ['2027-01-06T03:00:00Z', 'menu'], // 6th
    ]
    for (const [iso, node] of cases) {
      const d = decide(INITIAL_STATE, { text: 'oi' }, context({ now: at(iso) }, vacation))
      expect({ iso, node: d.state.node }).toEqual({ iso, node })
    }
  })

  test('vacation goes before out of hours, is limited by the same budget, and ends', () => {
    const now = at('2026-12-21T02:00:00Z')
    const ctx = context(
      { now, scheduleType: 'company', companySchedules: hours },
      { ...vacation, maxUseBotQueues: 1 },
    )
    const first = decide(INITIAL_STATE, { text: 'oi' }, ctx)
    expect(texts(first.actions)).toEqual(['Férias coletivas!'])
    const second = decide(first.state, { text: 'oi?' }, ctx)
    expect(second.actions).toEqual([])
    const back = decide(second.state, { text: 'oi' }, context({ now: at('2027-01-11T13:00:00Z') }, vacation))
    expect(back.state.node).toBe('menu')
  })

  test('no message: no vacation', () => {
    const d = decide(
      INITIAL_STATE,
      { text: 'oi' },
      context({ now: at('2026-12-25T13:00:00Z') }, { ...vacation, collectiveVacationMessage: '' }),
    )
    expect(d.state.node).toBe('menu')
  })
})

describe('chatbot machine: menus', () => {
  test('chatBotType list falls back to the numbered text menu', () => {
    const ctx = context({ chatBotType: 'list' })
    const d = decide(INITIAL_STATE, { text: 'oi' }, ctx)
    expect(texts(d.actions)).toEqual([mainMenuText(ctx)])
  })

  test('invalid input never leaves the customer stuck: every message gets an answer until people take over', () => {
    let s = INITIAL_STATE
    const ctx = context()
    const answers: number[] = []
    for (let i = 0; i < 6; i++) {
      const d = decide(s, { text: 'blá' }, ctx)
      s = d.state
      answers.push(d.actions.length)
      if (s.node === 'done') break
    }
    expect(answers).toEqual([1, 1, 1, 1])
    expect(s.node).toBe('done')
  })
})
