import { describe, expect, test } from 'bun:test'
import { addressingOf, chatJid, whatsappNumberForms } from './jid'

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

describe('whatsappNumberForms: the spellings WhatsApp treats as one account', () => {
  test('Brazilian mobiles with and without the ninth digit, the given form first', () => {
    expect(whatsappNumberForms('5511988880801')).toEqual(['5511988880801', '551188880801'])
    expect(whatsappNumberForms('551188880801')).toEqual(['551188880801', '5511988880801'])
  })
  test('Mexico 52/521 and Argentina 54/549 mobiles', () => {
    expect(whatsappNumberForms('525512345678')).toEqual(['525512345678', '5215512345678'])
    expect(whatsappNumberForms('5215512345678')).toEqual(['5215512345678', '525512345678'])
    expect(whatsappNumberForms('541123456789')).toEqual(['541123456789', '5491123456789'])
    expect(whatsappNumberForms('5491123456789')).toEqual(['5491123456789', '541123456789'])
  })
  test('other numbers have one form', () => {
    expect(whatsappNumberForms('14155550100')).toEqual(['14155550100'])
  })
})
