import { describe, expect, test } from 'bun:test'
import { Curve } from '@whiskeysockets/baileys'
import { verifySignaturesForReal } from './signatures'

describe('the signatures Baileys checks', () => {
  test('once the provider is made, a signature by another key is refused and a good one accepted', () => {
    verifySignaturesForReal()
    const signer = Curve.generateKeyPair()
    const stranger = Curve.generateKeyPair()
    const message = Buffer.from('certificate details')
    const signature = Curve.sign(signer.private, message)

    expect(Curve.verify(signer.public, message, signature)).toBe(true)
    expect(Curve.verify(stranger.public, message, signature)).toBe(false)
    expect(Curve.verify(signer.public, Buffer.from('other details'), signature)).toBe(false)
    expect(Curve.verify(signer.public, message, signature.subarray(0, 63))).toBe(false)
    // with Signal's type prefix, as Baileys passes identity keys
    expect(Curve.verify(Buffer.concat([Buffer.from([5]), signer.public]), message, signature)).toBe(true)
  })
})
