import { describe, expect, test } from 'bun:test'
import { BrCodeError, buildBrCode, crc16, normalizePixKey, parseBrCode, pixText, pixTxid } from './pix'

/** The static example of the Banco Central's "Manual de Padrões para Iniciação do Pix" (no amount). */
const MANUAL_STATIC =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR' +
  '5913Fulano de Tal6008BRASILIA62070503***63041D3D'

/** The manual's dynamic example: a payload URL instead of a key, amount 123.45, txid RP12345678-2019. */
const MANUAL_DYNAMIC =
  '00020101021226720014br.gov.bcb.pix2550bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441' +
  '5204000053039865406123.455802BR5913Fulano de Tal6008BRASILIA62190515RP12345678-2019630445C8'

describe('CRC16-CCITT-FALSE', () => {
  test('the catalogue check value of "123456789" is 29B1', () => {
    expect(crc16('123456789')).toBe('29B1')
  })

  test("the manual's examples end with their published CRCs", () => {
    expect(crc16(MANUAL_STATIC.slice(0, -4))).toBe('1D3D')
    expect(crc16(MANUAL_DYNAMIC.slice(0, -4))).toBe('45C8')
  })
})

describe('buildBrCode', () => {
  test("reproduces the manual's static code exactly", () => {
    const code = buildBrCode({
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    })
    expect(code).toBe(MANUAL_STATIC)
  })

  test('round trip: the amount, key, names and txid come back and the CRC checks', () => {
    const code = buildBrCode({
      key: 'financeiro@balcao.example',
      merchantName: 'Balcão Atendimento Ltda',
      merchantCity: 'São Paulo',
      amountCents: 9990,
      txid: 'BLC12F20261201',
      description: 'Fatura 12',
    })
    const parsed = parseBrCode(code)
    expect(parsed).toMatchObject({
      key: 'financeiro@balcao.example',
      amount: '99.90',
      merchantName: 'Balcao Atendimento Ltda',
      merchantCity: 'SAO PAULO',
      txid: 'BLC12F20261201',
      description: 'Fatura 12',
    })
    expect(parsed.fields['52']).toBe('0000')
    expect(parsed.fields['53']).toBe('986')
    expect(parsed.fields['58']).toBe('BR')
    expect(parsed.crc).toBe(crc16(code.slice(0, -4)))
    expect(code).toMatch(/6304[0-9A-F]{4}$/)
  })

  test('amounts have two decimals and zero leaves field 54 out', () => {
    const base = { key: '+5511999990000', merchantName: 'Loja', merchantCity: 'Rio' }
    expect(parseBrCode(buildBrCode({ ...base, amountCents: 100 })).amount).toBe('1.00')
    expect(parseBrCode(buildBrCode({ ...base, amountCents: 123456 })).amount).toBe('1234.56')
    expect(parseBrCode(buildBrCode({ ...base, amountCents: 5 })).amount).toBe('0.05')
    const free = parseBrCode(buildBrCode({ ...base, amountCents: 0 }))
    expect(free.amount).toBeNull()
    expect(free.fields['54']).toBeUndefined()
    expect(free.txid).toBe('***')
  })

  test('names and cities lose accents and are cut to 25 and 15 characters', () => {
    const parsed = parseBrCode(
      buildBrCode({
        key: '12345678909',
        merchantName: 'Associação Beneficente dos Amigos de São João',
        merchantCity: 'São José dos Campos',
      }),
    )
    expect(parsed.merchantName).toBe('Associacao Beneficente do')
    expect(parsed.merchantName.length).toBeLessThanOrEqual(25)
    expect(parsed.merchantCity).toBe('SAO JOSE DOS CA')
    expect(pixText('  Ação — já  ', 25)).toBe('Acao ja')
  })

  test('txids keep letters and digits only, at most 25', () => {
    expect(pixTxid('abc-123_XYZ')).toBe('abc123XYZ')
    expect(pixTxid('x'.repeat(40))).toHaveLength(25)
    expect(pixTxid('')).toBe('***')
    expect(pixTxid(null)).toBe('***')
  })

  test('keys: masked CPF/CNPJ and phones are cleaned, e-mails and random keys lower-cased', () => {
    expect(normalizePixKey('123.456.789-09')).toBe('12345678909')
    expect(normalizePixKey('12.345.678/0001-95')).toBe('12345678000195')
    expect(normalizePixKey('+55 (11) 99999-0000')).toBe('+5511999990000')
    expect(normalizePixKey(' Pix@Example.COM ')).toBe('pix@example.com')
    expect(normalizePixKey('123E4567-E12B-12D1-A456-426655440000')).toBe(
      '123e4567-e12b-12d1-a456-426655440000',
    )
  })

  test('a long description is cut so field 26 stays within 99 characters', () => {
    const code = buildBrCode({
      key: `${'x'.repeat(60)}@example.com`,
      merchantName: 'Loja',
      merchantCity: 'Rio',
      description: 'd'.repeat(80),
    })
    const parsed = parseBrCode(code)
    expect(parsed.fields['26']!.length).toBeLessThanOrEqual(99)
    expect(parsed.description?.length ?? 0).toBeLessThan(80)
  })

  test('refuses what cannot be encoded', () => {
    const base = { key: 'a@b.co', merchantName: 'Loja', merchantCity: 'Rio' }
    expect(() => buildBrCode({ ...base, key: ' ' })).toThrow()
    expect(() => buildBrCode({ ...base, key: 'ação@b.co' })).toThrow()
    expect(() => buildBrCode({ ...base, merchantName: '  ' })).toThrow()
    expect(() => buildBrCode({ ...base, merchantCity: '' })).toThrow()
    expect(() => buildBrCode({ ...base, amountCents: -1 })).toThrow()
    expect(() => buildBrCode({ ...base, amountCents: 1.5 })).toThrow()
  })
})

describe('parseBrCode', () => {
  test("reads the manual's dynamic example (amount, URL, txid)", () => {
    const parsed = parseBrCode(MANUAL_DYNAMIC)
    expect(parsed).toMatchObject({
      key: null,
      url: 'bx.com.br/pix/8b3da2f3-9a41-40d1-a91a-bd93113bd441',
      amount: '123.45',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      txid: 'RP12345678-2019',
      crc: '45C8',
    })
  })

  test('reads the static example', () => {
    expect(parseBrCode(MANUAL_STATIC)).toMatchObject({
      key: '123e4567-e12b-12d1-a456-426655440000',
      amount: null,
      txid: '***',
    })
  })

  test('a tampered code fails its CRC', () => {
    const code = buildBrCode({ key: 'a@b.co', merchantName: 'Loja', merchantCity: 'Rio', amountCents: 9990 })
    expect(() => parseBrCode(code.replace('99.90', '09.90'))).toThrow(BrCodeError)
    expect(() => parseBrCode(MANUAL_STATIC.replace('Fulano', 'Fulana'))).toThrow('CRC mismatch')
    expect(() => parseBrCode(`${MANUAL_STATIC.slice(0, -4)}1D3E`)).toThrow('CRC mismatch')
  })

  test('malformed codes are refused', () => {
    for (const bad of ['', '6304', 'hello world', MANUAL_STATIC.slice(0, -10), `${MANUAL_STATIC}00`]) {
      expect(() => parseBrCode(bad)).toThrow(BrCodeError)
    }
    // A well-formed EMV code with a valid CRC that is not a Pix code.
    const notPix = '000201' + '26080004abcd' + '5802BR5901X6001Y' + '6304'
    expect(() => parseBrCode(notPix + crc16(notPix))).toThrow('Not a Pix code')
    // A field whose length runs past the end, CRC recomputed.
    const short = '0002012699' + '6304'
    expect(() => parseBrCode(short + crc16(short))).toThrow(BrCodeError)
  })
})
