import { describe, expect, test } from 'bun:test'
import { extractDeviceJids } from '@whiskeysockets/baileys'
import type { BinaryNode } from '@whiskeysockets/baileys/lib/WABinary/index.js'
import { USyncQuery, USyncUser } from '@whiskeysockets/baileys/lib/WAUSync/index.js'
import { phoneVariants } from './phone-variants.ts'
import { AccountDirectory, parseUsyncQuery, usyncResultNode } from './usync.ts'
import { throughTheWire } from './wire.ts'

/** The iq Baileys's `executeUSyncQuery` sends (`Socket/socket.js`), built the same way. */
function usyncIq(query: USyncQuery): BinaryNode {
  return {
    tag: 'iq',
    attrs: { to: 's.whatsapp.net', type: 'get', xmlns: 'usync', id: 'q1' },
    content: [
      {
        tag: 'usync',
        attrs: { context: query.context, mode: query.mode, sid: 's1', last: 'true', index: '0' },
        content: [
          { tag: 'query', attrs: {}, content: query.protocols.map((p) => p.getQueryElement()) },
          {
            tag: 'list',
            attrs: {},
            content: query.users.map(
              (user): BinaryNode => ({
                tag: 'user',
                attrs: user.phone ? {} : { jid: user.id as string },
                content: query.protocols
                  .map((p) => p.getUserElement(user))
                  .filter((n): n is BinaryNode => n !== null),
              }),
            ),
          },
        ],
      },
    ],
  }
}

/** Server answer → wire → Baileys's own parser. */
async function baileysReads(query: USyncQuery, directory: AccountDirectory) {
  const asked = await throughTheWire(usyncIq(query))
  const answer = await throughTheWire(usyncResultNode(asked, directory, { t: 1_700_000_000 }))
  return query.parseUSyncQueryResult(answer)
}

function directory() {
  const accounts = new AccountDirectory()
  accounts.add({ phone: '551199990001', lid: '100000000000001', devices: [0] }) // pre-2012 8-digit JID
  accounts.add({ phone: '5511999990002', lid: '100000000000002', devices: [0, 2] })
  accounts.add({ phone: '5215512345678', lid: '100000000000003', devices: [0] })
  accounts.add({ phone: '5491123456789', lid: '100000000000004', devices: [0] })
  return accounts
}

describe('usync answers', () => {
  test('onWhatsApp: contact protocol by phone answers the canonical JID, and not-on-WhatsApp as out', async () => {
    const query = new USyncQuery().withContactProtocol()
    for (const phone of [
      '+5511999990001',
      '+5511999990002',
      '+525512345678',
      '+541123456789',
      '+5511988887777',
    ]) {
      query.withUser(new USyncUser().withPhone(phone))
    }
    const result = await baileysReads(query, directory())
    // onWhatsApp keeps only `contact: true` (Socket/socket.js).
    const onWhatsApp = result?.list.filter((u) => !!u.contact).map((u) => u.id)
    expect(onWhatsApp).toEqual([
      '551199990001@s.whatsapp.net',
      '5511999990002@s.whatsapp.net',
      '5215512345678@s.whatsapp.net',
      '5491123456789@s.whatsapp.net',
    ])
    expect(result?.list.find((u) => u.id === '5511988887777@s.whatsapp.net')?.contact).toBe(false)
  })

  test('devices + lid (the message context): devices with key indexes and the LID, as getUSyncDevices reads them', async () => {
    const query = new USyncQuery().withContext('message').withDeviceProtocol().withLIDProtocol()
    query.withUser(new USyncUser().withId('5511999990002@s.whatsapp.net'))
    query.withUser(new USyncUser().withId('100000000000001@lid'))
    const result = await baileysReads(query, directory())
    expect(result?.list).toHaveLength(2)
    expect(result?.list[0]).toMatchObject({ id: '5511999990002@s.whatsapp.net', lid: '100000000000002@lid' })
    expect(result?.list[1]?.lid).toBeUndefined()
    const devices = extractDeviceJids(
      result?.list ?? [],
      '5511888880000:3@s.whatsapp.net',
      '200000000000001:3@lid',
      false,
    )
    expect(devices.map((d) => `${d.user}:${d.device}@${d.server}`)).toEqual([
      '5511999990002:0@s.whatsapp.net',
      '5511999990002:2@s.whatsapp.net',
      '100000000000001:0@lid',
    ])
  })

  test('lid protocol alone (pnFromLIDUSync)', async () => {
    const query = new USyncQuery().withLIDProtocol().withContext('background')
    query.withUser(new USyncUser().withId('5511999990001@s.whatsapp.net'))
    const result = await baileysReads(query, directory())
    expect(result?.list).toEqual([{ id: '551199990001@s.whatsapp.net', lid: '100000000000001@lid' }])
  })

  test('the query parser sees protocols and users', () => {
    const query = new USyncQuery().withContactProtocol().withUser(new USyncUser().withPhone('+5511999990001'))
    expect(parseUsyncQuery(usyncIq(query))).toMatchObject({
      iqId: 'q1',
      protocols: ['contact'],
      users: [{ phone: '+5511999990001' }],
    })
  })
})

describe('phone variants', () => {
  test('Brazil 8/9 digits, Mexico 52/521, Argentina 54/549', () => {
    expect(phoneVariants('5511999990001')).toEqual(['5511999990001', '551199990001'])
    expect(phoneVariants('551199990001')).toEqual(['551199990001', '5511999990001'])
    expect(phoneVariants('551133334444')).toEqual(['551133334444']) // landline: no ninth digit
    expect(phoneVariants('525512345678')).toEqual(['525512345678', '5215512345678'])
    expect(phoneVariants('5491123456789')).toEqual(['5491123456789', '541123456789'])
    expect(phoneVariants('14155550100')).toEqual(['14155550100'])
  })
})
