/**
 * Baileys 7.0.0-rc14's `Curve.verify` (lib/Utils/crypto.js) answers true for every well-formed signature: it
 * calls libsignal's `verifySignature`, which returns its verdict instead of throwing, and ignores the answer. So
 * nothing Baileys checks with it is checked: WhatsApp's certificate chain in the Noise handshake (only the pinned
 * serial still refuses a foreign server) and the phone's account signature when a device is linked. The
 * provider puts back a check that keeps the verdict, with the same XEdDSA verification libsignal uses. `Curve` is
 * one object shared by every Baileys module, so its handshake and pairing use this one.
 */
import { Curve } from '@whiskeysockets/baileys'
import { verify } from 'curve25519-js'

export function verifySignaturesForReal(): void {
  if (Curve.verify === verifyCurveSignature) return
  Curve.verify = verifyCurveSignature
}

export function verifyCurveSignature(
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean {
  // Signal's public keys may carry their one-byte type prefix (33 bytes).
  const key = publicKey?.length === 33 ? publicKey.subarray(1) : publicKey
  if (key?.length !== 32 || signature?.length !== 64 || !message) return false
  return verify(key, message, signature)
}
