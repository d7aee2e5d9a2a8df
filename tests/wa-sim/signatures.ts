/**
 * A Curve25519 (XEdDSA) signature check that actually reports a bad signature. Baileys's
 * `Curve.verify` (lib/Utils/crypto.js) returns true whenever libsignal does not throw, and
 * libsignal's `verifySignature` returns the verdict instead of throwing, so Baileys accepts any
 * well-formed signature. The simulator checks what the companion signs with this instead.
 */
import { verify } from 'curve25519-js'

export const verifyCurveSignature = (
  publicKey: Uint8Array,
  message: Uint8Array,
  signature: Uint8Array,
): boolean => {
  const key = publicKey.length === 33 ? publicKey.subarray(1) : publicKey
  if (key.length !== 32 || signature.length !== 64) return false
  return verify(key, message, signature)
}
