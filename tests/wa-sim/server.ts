/**
 * The simulator: one Bun server on 127.0.0.1 with the control API under `/control/` and the
 * WhatsApp WebSocket on any other path. Each WebSocket is a `CompanionConnection`: Noise
 * handshake, then the ClientPayload decides between registration (QR or code pairing) and login.
 */
import { type BinaryNode, decodeBinaryNode, encodeBinaryNode, proto } from '@whiskeysockets/baileys'
import type { Server, ServerWebSocket } from 'bun'
import { type CertificateAuthority, createCertificateAuthority, type SimulatorRoot } from './certs'
import { RouteTable } from './control'
import { IqError, IqTable } from './iq'
import { encodeFrame, FrameReader, ServerNoise } from './noise'
import { type Companion, type Phone, PhoneBook } from './phones'

export const SERVER_JID = 's.whatsapp.net'

/** A companion that is registering (not yet linked): what it advertised in its ClientPayload. */
export type Registration = {
  refs: string[]
  noiseKey: Uint8Array
  identityKey: Uint8Array
  registrationId: number
  signedPreKey: { keyId: number; publicKey: Uint8Array; signature: Uint8Array }
  platform: string
  /** The adv secrets the server retired with `companion_reg_refresh` (base64). */
  retiredAdvSecrets: Set<string>
  refreshSent: boolean
}

export type StanzaHookContext = { sim: Simulator; connection: CompanionConnection; node: BinaryNode }
/** Return 'acked' when the hook answered the stanza itself (an error ack, say): the server then adds no ack. */
export type StanzaHook = (context: StanzaHookContext) => StanzaHookResult | Promise<StanzaHookResult>
export type StanzaHookResult = undefined | 'acked'
export type StanzaKind =
  | 'message'
  | 'receipt'
  | 'ack'
  | 'notification'
  | 'presence'
  | 'chatstate'
  | 'ib'
  | 'call'

type Socket = ServerWebSocket<{ connection: CompanionConnection }>
type Pending = { resolve: (node: BinaryNode) => void; reject: (error: Error) => void; timer: Timer }

let connectionIds = 0

/**
 * What a deaf socket does not get: the delivery stanzas. Pings and other iqs are still answered, which is what
 * makes such a socket look alive to a client that trusts pongs.
 */
export const WITHHELD_FROM_DEAF = new Set(['message', 'receipt', 'notification', 'call', 'ack'])

export class CompanionConnection {
  readonly id = ++connectionIds
  companion: Companion | undefined
  registration: Registration | undefined
  closed = false
  /** Set through the phone's `deaf` flag (see `WITHHELD_FROM_DEAF`); a new login is never deaf. */
  deaf = false
  private readonly noise = new ServerNoise()
  private readonly reader = new FrameReader()
  private stage: 'hello' | 'finish' | 'transport' = 'hello'
  private chain: Promise<void> = Promise.resolve()
  private readonly pending = new Map<string, Pending>()
  private tagCounter = 0

  constructor(
    private readonly socket: Socket,
    readonly sim: Simulator,
  ) {}

  /** Bytes from the client: frames are handled strictly in order. */
  receive(chunk: Uint8Array): void {
    let frames: Buffer[]
    try {
      frames = this.reader.push(chunk)
    } catch (error) {
      this.sim.log('bad intro', error)
      this.close()
      return
    }
    for (const frame of frames) {
      // Decrypt now (the counters are positional), decode and handle in the chain.
      let plaintext: Buffer | undefined
      if (this.stage === 'transport') {
        try {
          plaintext = this.noise.decrypt(frame)
        } catch (error) {
          this.sim.log('undecryptable frame', error)
          this.close()
          return
        }
      }
      this.chain = this.chain
        .then(() => (plaintext ? this.onNode(plaintext) : this.onHandshake(frame)))
        .catch((error) => {
          this.sim.log(`connection ${this.id} failed`, error)
          this.close()
        })
    }
  }

  private async onHandshake(frame: Buffer): Promise<void> {
    const message = proto.HandshakeMessage.decode(frame)
    if (this.stage === 'hello') {
      const ephemeral = message.clientHello?.ephemeral
      if (!ephemeral) throw new Error('expected ClientHello')
      const ca = this.sim.ca
      const serverHello = this.noise.serverHello(ephemeral, ca.serverStatic, ca.certChain)
      this.sendRaw(proto.HandshakeMessage.encode({ serverHello }).finish())
      this.stage = 'finish'
      return
    }
    const finish = message.clientFinish
    if (!finish?.static || !finish.payload) throw new Error('expected ClientFinish')
    const { clientStatic, payload } = this.noise.clientFinish(finish.static, finish.payload)
    this.stage = 'transport'
    await this.sim.onClientPayload(this, clientStatic, proto.ClientPayload.decode(payload))
  }

  private async onNode(plaintext: Buffer): Promise<void> {
    const node = await decodeBinaryNode(plaintext)
    this.sim.trace('recv', this, node)
    if (node.tag === 'iq' && (node.attrs.type === 'result' || node.attrs.type === 'error')) {
      const pending = this.pending.get(node.attrs.id ?? '')
      if (pending) {
        this.pending.delete(node.attrs.id ?? '')
        clearTimeout(pending.timer)
        pending.resolve(node)
      }
      // An answer nobody waits for (any more) is dropped: answering an answer would loop.
      return
    }
    await this.sim.onStanza(this, node)
  }

  private sendRaw(bytes: Uint8Array): void {
    if (this.closed) return
    const body = this.stage === 'transport' ? this.noise.encrypt(bytes) : bytes
    this.socket.sendBinary(encodeFrame(body))
  }

  send(node: BinaryNode): void {
    if (this.closed) return
    if (this.deaf && WITHHELD_FROM_DEAF.has(node.tag)) {
      this.withhold(node)
      return
    }
    this.sim.trace('send', this, node)
    this.sendRaw(encodeBinaryNode(node))
  }

  /**
   * A deaf socket's deliveries wait in the phone's queue, as while offline: the next login (or lifting the flag)
   * delivers them. Acks answer stanzas of this socket only, so they are lost with it, as WhatsApp's would be.
   */
  private withhold(node: BinaryNode): void {
    this.sim.trace('withheld', this, node)
    if (node.tag === 'ack') return
    const phone = this.companion && this.sim.phones.get(this.companion.phoneNumber)
    phone?.queue.push(node)
  }

  nextId(): string {
    return `sim-${this.id}-${++this.tagCounter}`
  }

  /** Sends an iq (or any stanza with an id) and waits for the companion's iq result/error with that id. */
  query(node: BinaryNode, timeoutMs = 10_000): Promise<BinaryNode> {
    node.attrs.id ??= this.nextId()
    const id = node.attrs.id
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new Error(`companion did not answer ${node.tag} ${id}`))
      }, timeoutMs)
      this.pending.set(id, { resolve, reject, timer })
      this.send(node)
    })
  }

  /** Ends the stream the way WhatsApp does: a `stream:error` stanza, then the socket closes. */
  streamError(attrs: Record<string, string>, children: BinaryNode[] = []): void {
    this.send({ tag: 'stream:error', attrs, content: children })
    this.close()
  }

  failure(reason: number): void {
    this.send({ tag: 'failure', attrs: { reason: String(reason), location: 'sim' } })
    this.close()
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer)
      pending.reject(new Error('connection closed'))
    }
    this.pending.clear()
    this.sim.onClosed(this)
    try {
      this.socket.close()
    } catch {}
  }
}

export type SimulatorOptions = { port?: number; hostname?: string; verbose?: boolean }

export class Simulator {
  readonly ca: CertificateAuthority = createCertificateAuthority()
  readonly phones = new PhoneBook()
  readonly iq = new IqTable()
  readonly routes = new RouteTable()
  /** Per pairing ref, the registering connection that advertises it. */
  readonly registrationsByRef = new Map<string, CompanionConnection>()
  /** Connections of logged-in companions, by companion jid. */
  readonly loggedIn = new Map<string, CompanionConnection>()
  private readonly hooks = new Map<StanzaKind, StanzaHook[]>()
  private readonly connections = new Set<CompanionConnection>()
  private server: Server<{ connection: CompanionConnection }> | undefined
  readonly verbose: boolean
  /** Extension points for the login flow: what a fresh login receives after `<success>`. */
  readonly onLogin: ((connection: CompanionConnection) => void | Promise<void>)[] = []
  /** After the queue and `<ib><offline/>`: what the server sends live once the companion is online. */
  readonly onOnline: ((connection: CompanionConnection) => void | Promise<void>)[] = []

  constructor(private readonly options: SimulatorOptions = {}) {
    this.verbose = options.verbose ?? process.env.WA_SIM_VERBOSE === '1'
  }

  start(): this {
    const sim = this
    this.server = Bun.serve<{ connection: CompanionConnection }>({
      hostname: this.options.hostname ?? '127.0.0.1',
      port: this.options.port ?? 0,
      fetch(request, server) {
        const url = new URL(request.url)
        if (url.pathname.startsWith('/control/')) return sim.routes.handle(sim, request, url)
        if (request.headers.get('upgrade')?.toLowerCase() === 'websocket') {
          if (
            server.upgrade(request, { data: { connection: undefined as unknown as CompanionConnection } })
          ) {
            return undefined
          }
          return new Response('upgrade failed', { status: 400 })
        }
        return sim.onHttp(request, url)
      },
      websocket: {
        open(socket) {
          const connection = new CompanionConnection(socket, sim)
          socket.data.connection = connection
          sim.connections.add(connection)
        },
        message(socket, message) {
          socket.data.connection.receive(typeof message === 'string' ? Buffer.from(message) : message)
        },
        close(socket) {
          socket.data.connection.close()
        },
      },
    })
    return this
  }

  /** HTTP outside `/control/`: the media part mounts its paths through `httpHandlers`. */
  readonly httpHandlers: ((
    request: Request,
    url: URL,
  ) => Response | undefined | Promise<Response | undefined>)[] = []

  private async onHttp(request: Request, url: URL): Promise<Response> {
    for (const handler of this.httpHandlers) {
      const response = await handler(request, url)
      if (response) return response
    }
    return new Response('not found', { status: 404 })
  }

  get port(): number {
    if (!this.server) throw new Error('simulator not started')
    return this.server.port as number
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  get wsUrl(): string {
    return `ws://127.0.0.1:${this.port}/ws/chat`
  }

  get root(): SimulatorRoot {
    return this.ca.describeRoot()
  }

  async stop(): Promise<void> {
    for (const connection of this.connections) connection.close()
    await this.server?.stop(true)
    this.server = undefined
  }

  log(message: string, error?: unknown): void {
    if (this.verbose) console.error(`[wa-sim] ${message}`, error ?? '')
  }

  trace(direction: 'send' | 'recv' | 'withheld', connection: CompanionConnection, node: BinaryNode): void {
    if (this.verbose) {
      const children = Array.isArray(node.content) ? node.content.map((child) => child.tag).join(',') : ''
      console.error(
        `[wa-sim] #${connection.id} ${direction} <${node.tag} ${JSON.stringify(node.attrs)}> ${children}`,
      )
    }
  }

  /** Hooks for stanzas the companion sends that are not iqs (`message`, `receipt`, `ack`, ...). */
  onStanzaKind(kind: StanzaKind, hook: StanzaHook): void {
    const list = this.hooks.get(kind) ?? []
    list.push(hook)
    this.hooks.set(kind, list)
  }

  /** Set by pairing.ts: registration and login handling. */
  clientPayloadHandler:
    | ((connection: CompanionConnection, noiseKey: Uint8Array, payload: proto.ClientPayload) => Promise<void>)
    | undefined

  async onClientPayload(connection: CompanionConnection, noiseKey: Uint8Array, payload: proto.ClientPayload) {
    if (!this.clientPayloadHandler) throw new Error('no client payload handler')
    await this.clientPayloadHandler(connection, noiseKey, payload)
  }

  async onStanza(connection: CompanionConnection, node: BinaryNode): Promise<void> {
    if (node.tag === 'iq') {
      await this.answerIq(connection, node)
      return
    }
    const hooks = this.hooks.get(node.tag as StanzaKind) ?? []
    let acked = false
    for (const hook of hooks) {
      if ((await hook({ sim: this, connection, node })) === 'acked') acked = true
    }
    // Messages and receipts get the server's ack, as WhatsApp acks every stanza it accepts.
    if ((node.tag === 'message' || node.tag === 'receipt') && node.attrs.id && !acked) {
      const ack: BinaryNode = { tag: 'ack', attrs: { id: node.attrs.id, class: node.tag, from: SERVER_JID } }
      if (node.tag === 'message') ack.attrs.t = String(Math.floor(Date.now() / 1000))
      if (node.attrs.to) ack.attrs.from = node.attrs.to
      if (node.attrs.type && node.tag === 'receipt') ack.attrs.type = node.attrs.type
      connection.send(ack)
    }
  }

  private async answerIq(connection: CompanionConnection, node: BinaryNode): Promise<void> {
    const reply = (attrs: Record<string, string>, content?: BinaryNode[]) =>
      connection.send({ tag: 'iq', attrs: { from: SERVER_JID, id: node.attrs.id ?? '', ...attrs }, content })
    const handler = this.iq.find(node)
    if (!handler) {
      this.log(`unmodelled iq ${node.attrs.xmlns} ${node.attrs.type}`)
      reply({ type: 'error' }, [{ tag: 'error', attrs: { code: '501', text: 'feature-not-implemented' } }])
      return
    }
    try {
      const content = await handler({ sim: this, connection, node })
      reply({ type: 'result' }, content)
    } catch (error) {
      const iqError = error instanceof IqError ? error : new IqError(500, 'internal-server-error')
      if (!(error instanceof IqError)) this.log('iq handler failed', error)
      reply({ type: 'error' }, [{ tag: 'error', attrs: { code: String(iqError.code), text: iqError.text } }])
    }
  }

  onClosed(connection: CompanionConnection): void {
    this.connections.delete(connection)
    for (const ref of connection.registration?.refs ?? []) {
      if (this.registrationsByRef.get(ref) === connection) this.registrationsByRef.delete(ref)
    }
    const jid = connection.companion?.jid
    if (jid && this.loggedIn.get(jid) === connection) this.loggedIn.delete(jid)
  }

  /** The live connection of a phone's companion, if it is logged in now. */
  connectionOf(phoneNumber: string): CompanionConnection | undefined {
    const companion = this.phones.latestCompanion(phoneNumber)
    return companion ? this.loggedIn.get(companion.jid) : undefined
  }

  /**
   * Delivers a stanza to the phone's companion, or queues it while the companion is offline or
   * disconnected; the queue is delivered in order on its next login, before `<ib><offline/>`.
   */
  sendToCompanion(phoneNumber: string, node: BinaryNode): void {
    const phone = this.requirePhone(phoneNumber)
    const connection = phone.offline ? undefined : this.connectionOf(phoneNumber)
    if (connection) connection.send(node)
    else phone.queue.push(node)
  }

  requirePhone(number: string): Phone {
    const phone = this.phones.get(number)
    if (!phone) throw new Error(`no simulated phone ${number}`)
    return phone
  }
}
