import { describe, expect, test } from 'bun:test'
import { forwardedAddress, proxyHops } from './request'

describe('BALCAO_TRUST_PROXY', () => {
  test.each([
    [undefined, 0],
    ['', 0],
    ['0', 0],
    ['1', 1],
    ['true', 1],
    ['yes', 1],
    ['2', 2],
    ['no', 0],
    ['-1', 0],
    ['1.5', 0],
  ])('%p trusts %p proxies', (value, hops) => {
    expect(proxyHops(value)).toBe(hops)
  })
})

describe('the address a trusted proxy recorded', () => {
  test('one proxy: the rightmost entry, whatever the client wrote before it', () => {
    expect(forwardedAddress('1.1.1.1, 2.2.2.2, 198.51.100.7', 1)).toBe('198.51.100.7')
    expect(forwardedAddress('198.51.100.7', 1)).toBe('198.51.100.7')
    expect(forwardedAddress(' 198.51.100.7 ', 1)).toBe('198.51.100.7')
  })

  test('N proxies: the Nth entry from the right; fewer entries than proxies: the leftmost', () => {
    expect(forwardedAddress('forged, 198.51.100.7, 10.0.0.2', 2)).toBe('198.51.100.7')
    expect(forwardedAddress('198.51.100.7', 2)).toBe('198.51.100.7')
  })

  test('no header, an empty one, or no trusted proxy: none', () => {
    expect(forwardedAddress(undefined, 1)).toBeUndefined()
    expect(forwardedAddress(' , ', 1)).toBeUndefined()
    expect(forwardedAddress('198.51.100.7', 0)).toBeUndefined()
  })
})
