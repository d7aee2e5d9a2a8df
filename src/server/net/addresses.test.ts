import { describe, expect, test } from 'bun:test'
import { classifyAddress, classifyHost, ipBytes, isAllowedKind } from './addresses'

describe('address classifier', () => {
  test('every spelling of loopback the probe used is loopback', () => {
    for (const host of [
      '127.0.0.1',
      '127.1',
      '0x7f000001',
      '0x7f.0.0.1',
      '2130706433',
      '0177.0.0.1',
      '017700000001',
      '127.255.255.254',
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '[0:0:0:0:0:ffff:127.0.0.1]',
      '[::127.0.0.1]',
      '[::7f00:1]',
      '[64:ff9b::127.0.0.1]',
      '[2002:7f00:1::]',
    ])
      expect([host, classifyHost(host)]).toEqual([host, 'loopback'])
  })

  test('private, shared, link-local, unique-local, unspecified, multicast and broadcast addresses', () => {
    const cases: [string, string][] = [
      ['10.0.0.1', 'private'],
      ['10.255.255.255', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['192.168.1.1', 'private'],
      ['[::ffff:192.168.0.1]', 'private'],
      ['[::ffff:a00:1]', 'private'],
      ['100.64.0.1', 'shared'],
      ['100.127.255.255', 'shared'],
      ['169.254.169.254', 'link-local'],
      ['[::ffff:169.254.169.254]', 'link-local'],
      ['[fe80::1]', 'link-local'],
      ['[febf::1]', 'link-local'],
      ['[fc00::1]', 'unique-local'],
      ['[fd12:3456::1]', 'unique-local'],
      ['0.0.0.0', 'unspecified'],
      ['0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['[::]', 'unspecified'],
      ['[::ffff:0.0.0.0]', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['239.255.255.250', 'multicast'],
      ['[ff02::1]', 'multicast'],
      ['255.255.255.255', 'broadcast'],
      ['240.0.0.1', 'reserved'],
      ['192.0.2.10', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['[2001:db8::1]', 'reserved'],
      ['[2001:0:4136:e378::1]', 'reserved'],
      ['[100::1]', 'reserved'],
      ['[fec0::1]', 'reserved'],
    ]
    for (const [host, kind] of cases) expect([host, classifyHost(host)]).toEqual([host, kind])
  })

  test('public addresses stay public, near the edges of the private ranges too', () => {
    for (const host of [
      '8.8.8.8',
      '1.1.1.1',
      '172.15.255.255',
      '172.32.0.1',
      '100.63.255.255',
      '100.128.0.1',
      '169.253.1.1',
      '192.169.0.1',
      '11.0.0.1',
      '[2606:4700:4700::1111]',
      '[::ffff:8.8.8.8]',
      '[2002:808:808::1]',
    ])
      expect([host, classifyHost(host)]).toEqual([host, 'public'])
  })

  test('a name is not classified (it is resolved first); junk is never reached', () => {
    expect(classifyHost('example.com')).toBeNull()
    expect(classifyHost('localhost')).toBeNull()
    expect(classifyHost('[::g]')).toBe('reserved')
    expect(classifyAddress('not an ip')).toBe('reserved')
    expect(classifyAddress('1.2.3')).toBe('reserved')
    expect(classifyAddress('1.2.3.256')).toBe('reserved')
    expect(classifyAddress('1:2:3:4:5:6:7:8:9')).toBe('reserved')
    expect(classifyAddress('1::2::3')).toBe('reserved')
  })

  test('IPv6 text parses to its 16 bytes, with :: and a dotted tail', () => {
    expect(ipBytes('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1])
    expect(ipBytes('1:2:3:4:5:6:7:8')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8])
    expect(ipBytes('fe80::')).toEqual([0xfe, 0x80, ...new Array(14).fill(0)])
  })

  test('the operator flag opens loopback and private networks, never link-local or the rest', () => {
    expect(isAllowedKind('public', false)).toBe(true)
    for (const kind of ['loopback', 'private', 'shared', 'unique-local'] as const) {
      expect(isAllowedKind(kind, false)).toBe(false)
      expect(isAllowedKind(kind, true)).toBe(true)
    }
    for (const kind of ['link-local', 'unspecified', 'multicast', 'broadcast', 'reserved'] as const)
      expect(isAllowedKind(kind, true)).toBe(false)
  })
})
