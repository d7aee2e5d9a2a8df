/**
 * The simulator's own Noise certificate chain: a root key (what Baileys pins as
 * `WA_CERT_DETAILS.PUBLIC_KEY`), an intermediate certificate signed by the root whose details
 * carry the serial Baileys compares with `WA_CERT_DETAILS.SERIAL`, and a leaf for the server's
 * static Noise key signed by the intermediate.
 */
import { Curve, type KeyPair, proto } from '@whiskeysockets/baileys'

export type SimulatorRoot = { publicKey: string; serial: number }

export type CertificateAuthority = {
  root: KeyPair
  serial: number
  /** The server's static Noise key pair. */
  serverStatic: KeyPair
  /** `proto.CertChain` bytes, sent encrypted in the ServerHello payload. */
  certChain: Uint8Array
  describeRoot(): SimulatorRoot
}

export const createCertificateAuthority = (): CertificateAuthority => {
  const root = Curve.generateKeyPair()
  const intermediate = Curve.generateKeyPair()
  const serverStatic = Curve.generateKeyPair()
  // Never 0: Baileys's pinned WhatsApp serial is 0, so a mistaken trust still fails the serial check.
  const serial = 1 + Math.floor(Math.random() * 0x7ffffffe)
  const notAfter = Math.floor(Date.now() / 1000) + 365 * 24 * 3600

  const intermediateDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial,
    issuerSerial: serial,
    key: intermediate.public,
    notBefore: 0,
    notAfter,
  }).finish()
  const leafDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: serial + 1,
    issuerSerial: serial,
    key: serverStatic.public,
    notBefore: 0,
    notAfter,
  }).finish()

  const certChain = proto.CertChain.encode({
    intermediate: { details: intermediateDetails, signature: Curve.sign(root.private, intermediateDetails) },
    leaf: { details: leafDetails, signature: Curve.sign(intermediate.private, leafDetails) },
  }).finish()

  return {
    root,
    serial,
    serverStatic,
    certChain,
    describeRoot: () => ({ publicKey: Buffer.from(root.public).toString('base64'), serial }),
  }
}
