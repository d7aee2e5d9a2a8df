/**
 * The core control routes: the simulator's root key, phones, linking (scan, link-code), logout,
 * offline/online and phone flags. Other parts add theirs on `sim.routes`.
 */
import { ControlError, type RouteContext } from './control'
import { enterLinkCode, scanQr } from './pairing'
import type { Phone, PhoneFlags } from './phones'
import type { Simulator } from './server'

const requireNumber = (value: unknown): string => {
  const number =
    typeof value === 'string' ? value.replace(/\D/g, '') : typeof value === 'number' ? String(value) : ''
  if (!number) throw new ControlError(400, 'number is required (digits, country code first)')
  return number
}

const readFlags = (body: Record<string, unknown>): Partial<PhoneFlags> => {
  const flags: Partial<PhoneFlags> = {}
  for (const name of ['refresh', 'passkeyRequired', 'rejectVersion', 'history', 'deaf'] as const) {
    if (typeof body[name] === 'boolean') flags[name] = body[name]
  }
  return flags
}

export const describePhone = (sim: Simulator, phone: Phone) => ({
  number: phone.number,
  jid: `${phone.number}@s.whatsapp.net`,
  lid: `${phone.lidUser}@lid`,
  identityKey: Buffer.from(phone.identity.public).toString('base64'),
  flags: phone.flags,
  offline: phone.offline,
  queued: phone.queue.length,
  companions: [...phone.companions.values()].map((companion) => ({
    jid: companion.jid,
    lid: companion.lid,
    device: companion.device,
    platform: companion.platform,
    online: sim.loggedIn.has(companion.jid),
    preKeys: companion.bundle.preKeys.length,
    registrationId: companion.bundle.registrationId,
  })),
})

const phoneOf = ({ sim, params }: RouteContext): Phone => {
  const phone = sim.phones.get(requireNumber(params.number))
  if (!phone) throw new ControlError(404, 'no such phone')
  return phone
}

/**
 * Makes the phone's live companion sockets deaf, or hears them again: lifting the flag delivers what the deaf
 * socket missed, in order, to the socket itself (no `<ib><offline>`: it never went away).
 */
const setDeaf = (sim: Simulator, phone: Phone, deaf: boolean): void => {
  for (const companion of phone.companions.values()) {
    const connection = sim.loggedIn.get(companion.jid)
    if (!connection) continue
    connection.deaf = deaf
    if (!deaf) for (const node of phone.queue.splice(0)) connection.send(node)
  }
}

export const registerCoreRoutes = (sim: Simulator): void => {
  const { routes } = sim
  routes.on('GET', '/control/root', ({ sim }) => sim.root)
  routes.on('GET', '/control/phones', ({ sim }) => sim.phones.all().map((phone) => describePhone(sim, phone)))
  routes.on('POST', '/control/phones', ({ sim, body }) =>
    describePhone(sim, sim.phones.create(requireNumber(body.number), readFlags(body))),
  )
  routes.on('GET', '/control/phones/:number', (context) => describePhone(context.sim, phoneOf(context)))
  routes.on('POST', '/control/phones/:number/flags', (context) => {
    const phone = phoneOf(context)
    const flags = readFlags(context.body)
    Object.assign(phone.flags, flags)
    if (flags.deaf !== undefined) setDeaf(context.sim, phone, flags.deaf)
    return describePhone(context.sim, phone)
  })
  // A fresh login is never deaf: it gets the queue (pairing.ts) and everything after it.
  sim.onLogin.push((connection) => {
    const phone = connection.companion && sim.phones.get(connection.companion.phoneNumber)
    if (phone) phone.flags.deaf = false
  })
  routes.on('POST', '/control/phones/:number/scan', (context) => {
    if (typeof context.body.qr !== 'string') throw new ControlError(400, 'qr is required')
    return scanQr(context.sim, phoneOf(context), context.body.qr)
  })
  routes.on('POST', '/control/phones/:number/link-code', (context) => {
    const code =
      typeof context.body.code === 'string'
        ? context.body.code.replace(/[^0-9A-Za-z]/g, '').toUpperCase()
        : ''
    if (code.length !== 8) throw new ControlError(400, 'code is 8 characters')
    return enterLinkCode(phoneOf(context), code)
  })
  // The phone removes its linked devices: a connected companion gets the stream error that
  // Baileys maps to 401 loggedOut; a disconnected one is refused (failure 401) on its next login.
  routes.on('POST', '/control/phones/:number/logout', (context) => {
    const phone = phoneOf(context)
    const removed = [...phone.companions.values()]
    for (const companion of removed) {
      context.sim.loggedIn
        .get(companion.jid)
        ?.streamError({ code: '401' }, [{ tag: 'conflict', attrs: { type: 'device_removed' } }])
      context.sim.phones.unlink(companion)
    }
    phone.queue.length = 0
    return { removed: removed.map((companion) => companion.jid) }
  })
  routes.on('POST', '/control/phones/:number/offline', (context) => {
    const phone = phoneOf(context)
    phone.offline = true
    for (const companion of phone.companions.values()) context.sim.loggedIn.get(companion.jid)?.close()
    return describePhone(context.sim, phone)
  })
  routes.on('POST', '/control/phones/:number/online', (context) => {
    const phone = phoneOf(context)
    phone.offline = false
    return describePhone(context.sim, phone)
  })
}
