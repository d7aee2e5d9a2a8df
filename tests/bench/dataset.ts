/**
 * The reference dataset (../shared/notes/reference-dataset.md), computed in memory: every row's fields follow from
 * h(tag, i) and T0 alone, so the same numbers come out on every machine. `generate.ts` writes it into a data folder.
 *
 * The definition leaves the 30 first names, the 30 surnames and the 20 phrases to the generator; these lists are
 * fixed here, in this order, so that its expected counts hold: contacts whose name contains "ana" 3,903 and
 * "maria" 1,369 (only Ana, Maria, Mariana, Juliana, Luciana, Adriana and Fabiana contain either, no surname does),
 * and exactly one phrase contains "maria" and one "ana" (5 % each); the phrases are 45 to 66 characters, mean 59.
 */

export const T0 = Date.UTC(2026, 10, 21) // 2026-11-21T00:00:00Z
export const DAY_MS = 86_400_000
/** Rows the definition gives no time (company, users, queues, connection, contacts): before every ticket. */
export const BASE_TIME = T0 - 100 * DAY_MS

export const SIZES = { users: 10, queues: 5, contacts: 20_000, tickets: 50_000, messages: 500_000 } as const
/** Messages 1..FIXED_MESSAGES go 50 each to tickets 100, 200, …, 50,000. */
export const FIXED_MESSAGES = 25_000

/** The first 32 bits of md5(tag + ':' + i), read as an unsigned integer. */
export function h(tag: string, i: number): number {
  const d = Bun.MD5.hash(`${tag}:${i}`) as Uint8Array
  return ((d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!) >>> 0
}

export const FIRST_NAMES = [
  'Ana',
  'Maria',
  'Juliana',
  'Luciana',
  'João',
  'José',
  'Pedro',
  'Mariana',
  'Paulo',
  'Carlos',
  'Lucas',
  'Gabriel',
  'Rafael',
  'Bruno',
  'Felipe',
  'Fernanda',
  'Patrícia',
  'Camila',
  'Beatriz',
  'Larissa',
  'Adriana',
  'Letícia',
  'Rodrigo',
  'Gustavo',
  'Marcos',
  'Renata',
  'Vanessa',
  'Fabiana',
  'Carla',
  'Aline',
] as const

export const LAST_NAMES = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
] as const

export const PHRASES = [
  'Olá, bom dia! Gostaria de saber como está o meu pedido de ontem.',
  'Meu boleto venceu ontem, vocês podem gerar uma segunda via?',
  'A entrega estava prevista para hoje e ainda não chegou aqui.',
  'Boa tarde, preciso alterar o endereço de entrega do pedido.',
  'O produto veio com defeito, como faço para pedir a troca?',
  'Obrigado pelo retorno, fico aguardando o contato de vocês.',
  'Qual é o prazo para o reembolso cair na minha conta corrente?',
  'Não consigo entrar na minha conta, a senha não funciona mais.',
  'Pode me enviar o link para acompanhar a entrega, por favor?',
  'Vocês têm esse modelo em alguma outra cor aí?',
  'A Maria do financeiro disse que iam me ligar ainda hoje à tarde.',
  'Quero cancelar a assinatura a partir do mês que vem, ok?',
  'A cobrança veio duplicada no cartão, podem verificar isso?',
  'Falei com a Ana ontem e ela ficou de me retornar sobre o pedido.',
  'Bom dia, o técnico pode vir amanhã depois das 14 horas, ok?',
  'Recebi a nota fiscal, mas o CNPJ da empresa está errado.',
  'Tudo certo, o problema já foi resolvido. Muito obrigado!',
  'Gostaria de falar com um atendente sobre o meu contrato atual, ok?',
  'Vocês aceitam pagamento por Pix ou só no cartão de crédito?',
  'O aplicativo fecha sozinho toda vez que tento abrir o chat.',
] as const

export const QUEUES = [
  { id: 1, name: 'Suporte', color: '#2563EB' },
  { id: 2, name: 'Vendas', color: '#16A34A' },
  { id: 3, name: 'Financeiro', color: '#CA8A04' },
  { id: 4, name: 'Cobranca', color: '#DC2626' },
  { id: 5, name: 'Pos-venda', color: '#7C3AED' },
] as const

export const ADMIN_EMAIL = 'admin@dataset.test'
export const ADMIN_PASSWORD = 'Dataset-Admin-1'
export const COMPANY_NAME = 'Dataset'
export const CONNECTION_NAME = 'Principal'

/** User 1 is the admin in all 5 queues; attendant u (2..10) is in queues ((u-2)%5)+1 and ((u-1)%5)+1. */
export function userOf(u: number) {
  if (u === 1)
    return {
      id: 1,
      name: 'Admin Dataset',
      email: ADMIN_EMAIL,
      profile: 'admin' as const,
      queueIds: [1, 2, 3, 4, 5],
    }
  return {
    id: u,
    name: `Atendente ${u}`,
    email: `atendente${u}@dataset.test`,
    profile: 'user' as const,
    queueIds: [((u - 2) % 5) + 1, ((u - 1) % 5) + 1],
  }
}

export function contactOf(i: number) {
  const name = `${FIRST_NAMES[h('cf', i) % 30]} ${LAST_NAMES[h('cl', i) % 30]}`
  const number = `55${11 + (h('cn', i) % 89)}9${String(i).padStart(8, '0')}`
  return { id: i, name, number }
}

export type Status = 'open' | 'pending' | 'closed'
export const STATUS_CODES: readonly Status[] = ['open', 'pending', 'closed']
const CLOSED = STATUS_CODES.indexOf('closed')

/** A ticket as the per-row rules give it, before the one-active rule. */
export function ticketOf(t: number) {
  const s = h('ts', t) % 100
  const status: Status = s < 15 ? 'open' : s < 25 ? 'pending' : 'closed'
  const q = h('tq', t) % 100
  const queueId = q < 10 ? null : 1 + (q % 5)
  const userId = status === 'pending' ? null : 1 + (h('tu', t) % 10)
  const updatedAt = T0 - (h('tt', t) % (90 * 86_400)) * 1000
  const createdAt = updatedAt - (h('tc', t) % (3 * 86_400)) * 1000
  return { id: t, contactId: ((t - 1) % SIZES.contacts) + 1, status, queueId, userId, createdAt, updatedAt }
}

/** The ticket a message belongs to. */
export function messageTicket(m: number): number {
  if (m <= FIXED_MESSAGES) return 100 * Math.ceil(m / 50)
  const j = h('mt', m) % 49_500
  return j + Math.floor(j / 99) + 1
}

/** A message's own fields (its time depends on its ticket's other messages: see buildDataset). */
export function messageOf(m: number) {
  const fromMe = h('mf', m) % 100 < 45
  return {
    id: m,
    ticketId: messageTicket(m),
    phrase: h('mb', m) % 20,
    fromMe,
    read: h('mr', m) % 100 < 85,
    ack: fromMe ? 1 + (h('ma', m) % 3) : 0,
  }
}

/**
 * Every ticket's status, queue, user, contact and times after the one-active rule, in typed arrays indexed by id
 * (index 0 unused). Status codes index STATUS_CODES; queue and user 0 mean none.
 */
export function buildTickets() {
  const T = SIZES.tickets
  const tStatus = new Uint8Array(T + 1)
  const tQueue = new Uint8Array(T + 1)
  const tUser = new Uint8Array(T + 1)
  const tContact = new Int32Array(T + 1)
  const tCreated = new Float64Array(T + 1)
  const tUpdated = new Float64Array(T + 1)
  const before = { open: 0, pending: 0, closed: 0 }
  for (let t = 1; t <= T; t++) {
    const row = ticketOf(t)
    tStatus[t] = STATUS_CODES.indexOf(row.status)
    tQueue[t] = row.queueId ?? 0
    tUser[t] = row.userId ?? 0
    tContact[t] = row.contactId
    tCreated[t] = row.createdAt
    tUpdated[t] = row.updatedAt
    before[row.status]++
  }
  // One active ticket per contact (one connection): the most recently updated wins, ties to the highest number.
  const active = new Int32Array(SIZES.contacts + 1)
  for (let t = 1; t <= T; t++) {
    if (tStatus[t] === CLOSED) continue
    const c = tContact[t]!
    const best = active[c]!
    if (best === 0 || tUpdated[t]! >= tUpdated[best]!) active[c] = t
  }
  for (let t = 1; t <= T; t++) if (tStatus[t] !== CLOSED && active[tContact[t]!] !== t) tStatus[t] = CLOSED
  return {
    before,
    status: tStatus,
    queue: tQueue,
    user: tUser,
    contact: tContact,
    created: tCreated,
    updated: tUpdated,
  }
}

/**
 * Every ticket and message, in typed arrays indexed by id (index 0 unused): the tickets of buildTickets with their
 * lastMessage (`lastPhrase`, -1 for a ticket without messages), unread count and number of messages.
 */
export function buildDataset() {
  const T = SIZES.tickets
  const M = SIZES.messages
  const { before, ...tickets } = buildTickets()
  const { status: tStatus, created: tCreated, updated: tUpdated } = tickets
  const mTicket = new Int32Array(M + 1)
  const mPhrase = new Uint8Array(M + 1)
  const mFromMe = new Uint8Array(M + 1)
  const mRead = new Uint8Array(M + 1)
  const mAck = new Uint8Array(M + 1)
  const perTicket = new Int32Array(T + 1)
  for (let m = 1; m <= M; m++) {
    const row = messageOf(m)
    mTicket[m] = row.ticketId
    mPhrase[m] = row.phrase
    mFromMe[m] = row.fromMe ? 1 : 0
    mRead[m] = row.read ? 1 : 0
    mAck[m] = row.ack
    perTicket[row.ticketId]!++
  }
  // A ticket's messages, in id order, are spread evenly over its lifetime: the first when it was created, the
  // last (its newest, whose body is the ticket's lastMessage) when it was last updated.
  const mCreated = new Float64Array(M + 1)
  const seen = new Int32Array(T + 1)
  const lastPhrase = new Int8Array(T + 1).fill(-1)
  const unread = new Int32Array(T + 1)
  for (let m = 1; m <= M; m++) {
    const t = mTicket[m]!
    const n = perTicket[t]!
    const k = seen[t]!++
    const span = tUpdated[t]! - tCreated[t]!
    mCreated[m] = n === 1 ? tUpdated[t]! : tCreated[t]! + Math.floor((span * k) / (n - 1))
    lastPhrase[t] = mPhrase[m]!
    if (tStatus[t] !== CLOSED && !mFromMe[m] && !mRead[m]) unread[t]!++
  }
  return {
    before,
    tickets: {
      ...tickets,
      lastPhrase,
      unread,
      messages: perTicket,
    },
    messages: {
      ticket: mTicket,
      phrase: mPhrase,
      fromMe: mFromMe,
      read: mRead,
      ack: mAck,
      created: mCreated,
    },
  }
}

export type Dataset = ReturnType<typeof buildDataset>

/** A deterministic UUID (version 4 layout) for row i of a kind, so two runs give the same rows. */
export function uuidOf(kind: string, i: number): string {
  const hex = Bun.MD5.hash(`uuid-${kind}:${i}`, 'hex') as string
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((Number.parseInt(hex[16]!, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}
