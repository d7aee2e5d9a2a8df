/**
 * Makes this process's Baileys trust the simulator's root key instead of WhatsApp's. Only a
 * process that calls this (a test, or `serve --wa-simulator`) accepts the simulator's handshake.
 */
import { WA_CERT_DETAILS } from '@whiskeysockets/baileys/lib/Defaults/index.js'
import type { SimulatorRoot } from './certs'

const original = { PUBLIC_KEY: WA_CERT_DETAILS.PUBLIC_KEY, SERIAL: WA_CERT_DETAILS.SERIAL }

export const trustSimulator = (root: SimulatorRoot): void => {
  WA_CERT_DETAILS.PUBLIC_KEY = Buffer.from(root.publicKey, 'base64')
  WA_CERT_DETAILS.SERIAL = root.serial
}

/** Back to WhatsApp's pinned key (tests that prove the untrusted case). */
export const distrustSimulator = (): void => {
  WA_CERT_DETAILS.PUBLIC_KEY = original.PUBLIC_KEY
  WA_CERT_DETAILS.SERIAL = original.SERIAL
}
