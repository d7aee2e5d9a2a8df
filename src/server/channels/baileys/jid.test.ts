import { describe, expect, test } from 'bun:test'
import { addressingOf, chatJid } from './jid'

describe('chatJid: replies go where the chat is', () => {
  const both = { jid: '141864656193305@lid', pn: '5511988880701', lid: '141864656193305@lid' }

  test('a person known by number and LID is written to by number unless the chat is LID-addressed', () => {
    expect(chatJid(both)).toBe('5511988880701@s.whatsapp.net')
    expect(chatJid(both, 'pn')).toBe('5511988880701@s.whatsapp.net')
    expect(chatJid(both, 'lid')).toBe('141864656193305@lid')
  })

  test('a LID-only person is written to by LID, a number-only one by number', () => {
    expect(chatJid({ jid: '141864656193305@lid', lid: '141864656193305@lid' })).toBe('141864656193305@lid')
    expect(chatJid({ jid: '5511988880701@s.whatsapp.net' }, 'lid')).toBe('5511988880701@s.whatsapp.net')
  })

  test('a group keeps its id', () => {
    expect(chatJid({ jid: '120363000000000001@g.us' }, 'pn')).toBe('120363000000000001@g.us')
  })

  test('addressingOf reads a chat JID', () => {
    expect(addressingOf('1418:3@lid')).toBe('lid')
    expect(addressingOf('5511988880701@s.whatsapp.net')).toBe('pn')
    expect(addressingOf('120363000000000001@g.us')).toBeUndefined()
  })
})
