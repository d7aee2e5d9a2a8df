import type { ConnectionStatus } from '../../shared/connection-status'
import type {
  ChannelEvent,
  ChannelProvider,
  ChannelSession,
  ContactRef,
  MsgRef,
  OutboundContent,
} from '../channels/types'

/**
 * A scripted session for API tests of the connection area: it records calls and emits what the test
 * tells it to. Provider behaviour itself is tested against Baileys' shapes and the sandbox.
 */
export class FakeSession implements ChannelSession {
  status: ConnectionStatus = 'DISCONNECTED'
  readonly calls: { method: string; args: unknown[] }[] = []
  private readonly listeners = new Set<(e: ChannelEvent) => void | Promise<void>>()
  private counter = 0

  constructor(readonly connectionId: number) {}

  async emit(event: ChannelEvent) {
    if (event.t === 'status') this.status = event.status
    if (event.t === 'qr') this.status = 'qrcode'
    for (const listener of this.listeners) await listener(event)
  }

  on(listener: (e: ChannelEvent) => void | Promise<void>) {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  private record(method: string, ...args: unknown[]) {
    this.calls.push({ method, args })
  }

  async start(options?: { pairingPhone?: string }) {
    this.record('start', options)
    await this.emit({ t: 'status', status: 'OPENING' })
    if (options?.pairingPhone)
      await this.emit({ t: 'pairingCode', code: 'ABCD1234', expiresAt: Date.now() + 60_000 })
    else
      await this.emit({
        t: 'qr',
        qr: `fake-qr-${this.connectionId}`,
        attempt: 1,
        expiresAt: Date.now() + 60_000,
      })
  }
  async stop() {
    this.record('stop')
    this.status = 'DISCONNECTED'
  }
  async logout() {
    this.record('logout')
    this.status = 'DISCONNECTED'
  }
  async requestPairingCode(phone: string) {
    this.record('requestPairingCode', phone)
    return 'ABCD1234'
  }
  async send(to: ContactRef, content: OutboundContent): Promise<MsgRef> {
    this.record('send', to, content)
    this.counter += 1
    return { id: `FAKE${this.counter}`, chatJid: to.jid, fromMe: true }
  }
  async react(target: MsgRef, emoji: string) {
    this.record('react', target, emoji)
  }
  async edit(target: MsgRef, body: string) {
    this.record('edit', target, body)
  }
  async deleteForEveryone(target: MsgRef) {
    this.record('deleteForEveryone', target)
  }
  async forward(to: ContactRef, source: MsgRef): Promise<MsgRef> {
    this.record('forward', to, source)
    return { id: `FWD${source.id}`, chatJid: to.jid, fromMe: true }
  }
  async markRead(refs: MsgRef[]) {
    this.record('markRead', refs)
  }
  async checkNumbers(phones: string[]) {
    return phones.map((phone) => ({ phone, exists: true, jid: `${phone}@s.whatsapp.net` }))
  }
  async profilePictureUrl() {
    return null
  }
  /** What `downloadMedia` answers (or throws); set by a test. */
  download: (raw: Uint8Array) => Promise<Uint8Array> = async () => new Uint8Array([1, 2, 3])
  async downloadMedia(raw: Uint8Array) {
    this.record('downloadMedia', raw)
    return this.download(raw)
  }
  async reuploadMedia(raw: Uint8Array) {
    this.record('reuploadMedia', raw)
    return raw
  }
}

/** A provider that hands out FakeSessions and keeps them for the test to drive. */
export function fakeProvider() {
  const sessions = new Map<number, FakeSession>()
  const provider: ChannelProvider = (connection) => {
    const session = new FakeSession(connection.id)
    sessions.set(connection.id, session)
    return session
  }
  return { provider, sessions }
}
