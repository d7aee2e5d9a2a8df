import { describe, expect, test } from 'bun:test'
import { clock, dayLabel, fileSize, parseLocation, parseVcards } from './format'
import {
  AUDIO_MIN_BYTES,
  canEdit,
  inputRows,
  keepRecording,
  keyAction,
  normalizeBody,
  quickAnswerSuggestions,
  readSignOption,
  signBody,
  toggleForward,
  writeSignOption,
} from './rules'

describe('message input rules', () => {
  test('the body is trimmed; empty or whitespace-only is ignored', () => {
    expect(normalizeBody('  oi  \n')).toBe('oi')
    expect(normalizeBody('   \n\t ')).toBeNull()
    expect(normalizeBody('')).toBeNull()
    expect(normalizeBody(' a\nb ')).toBe('a\nb')
  })

  test('Enter sends, Shift+Enter and composing write a newline, other keys do nothing', () => {
    expect(keyAction({ key: 'Enter', shiftKey: false })).toBe('send')
    expect(keyAction({ key: 'Enter', shiftKey: true })).toBe('newline')
    expect(keyAction({ key: 'Enter', shiftKey: false, nativeEvent: { isComposing: true } })).toBe('newline')
    expect(keyAction({ key: 'a', shiftKey: false })).toBeNull()
  })

  test('the input grows with the lines up to 5 rows', () => {
    expect(inputRows('')).toBe(1)
    expect(inputRows('a\nb\nc')).toBe(3)
    expect(inputRows('1\n2\n3\n4\n5')).toBe(5)
    expect(inputRows('1\n2\n3\n4\n5\n6\n7\n8')).toBe(5)
  })

  test('sign: the name in bold and a newline before the text', () => {
    expect(signBody('Bom dia', 'Ana Admin')).toBe('*Ana Admin:*\nBom dia')
    expect(signBody('Bom dia', '  ')).toBe('Bom dia')
  })

  test('the sign option is stored as signOption, default true', () => {
    localStorage.removeItem('signOption')
    expect(readSignOption()).toBe(true)
    writeSignOption(false)
    expect(localStorage.getItem('signOption')).toBe('false')
    expect(readSignOption()).toBe(false)
    writeSignOption(true)
    expect(readSignOption()).toBe(true)
  })

  test('recordings under 10000 bytes are discarded', () => {
    expect(AUDIO_MIN_BYTES).toBe(10_000)
    expect(keepRecording(9_999)).toBe(false)
    expect(keepRecording(10_000)).toBe(true)
  })

  test('forward: at most 4 messages; a fifth is refused; selecting again unselects', () => {
    let s = toggleForward([], 1)
    for (const id of [2, 3, 4]) s = toggleForward(s.selected, id)
    expect(s).toEqual({ selected: [1, 2, 3, 4], error: null })
    const fifth = toggleForward(s.selected, 5)
    expect(fifth).toEqual({ selected: [1, 2, 3, 4], error: 'tooMany' })
    expect(toggleForward(s.selected, 2)).toEqual({ selected: [1, 3, 4], error: null })
  })

  test("quick answers only after '/', case-insensitive, labels cut at 35 characters", () => {
    const answers = [
      { id: 1, shortcode: 'Ola', message: 'Olá! Obrigado por falar com a Loja ..., como posso ajudar?' },
      { id: 2, shortcode: 'pix', message: 'Nossa chave pix é 123' },
    ]
    expect(quickAnswerSuggestions(answers, 'ola')).toEqual([])
    expect(quickAnswerSuggestions([], '/')).toEqual([])
    const found = quickAnswerSuggestions(answers, '/OL')
    expect(found.map((f) => f.label)).toEqual(['/Ola - Olá! Obrigado por falar com a Loja ...'])
    expect(quickAnswerSuggestions(answers, '/').map((f) => f.label)).toEqual([
      '/Ola - Olá! Obrigado por falar com a Loja ...',
      '/pix - Nossa chave pix é 123',
    ])
  })

  test('only our own text messages can be edited', () => {
    const base = { fromMe: true, isDeleted: false, mediaType: 'chat', sendState: 'sent' }
    expect(canEdit(base)).toBe(true)
    expect(canEdit({ ...base, fromMe: false })).toBe(false)
    expect(canEdit({ ...base, isDeleted: true })).toBe(false)
    expect(canEdit({ ...base, mediaType: 'image' })).toBe(false)
    expect(canEdit({ ...base, sendState: 'failed' })).toBe(false)
  })
})

describe('conversation formats', () => {
  test('date separators: today, yesterday, else the day in the locale', () => {
    const now = new Date(2026, 2, 10, 15, 0)
    expect(dayLabel(new Date(2026, 2, 10, 8, 0).toISOString(), 'pt-BR', now)).toBe('today')
    expect(dayLabel(new Date(2026, 2, 9, 23, 59).toISOString(), 'pt-BR', now)).toBe('yesterday')
    expect(dayLabel(new Date(2026, 1, 3, 10, 0).toISOString(), 'pt-BR', now)).toBe('03/02/2026')
  })

  test('sizes and the recording clock', () => {
    expect(fileSize(512, 'pt-BR')).toBe('512 B')
    expect(fileSize(1536, 'pt-BR')).toBe('1,5 KB')
    expect(fileSize(1536, 'en')).toBe('1.5 KB')
    expect(fileSize(5 * 1024 * 1024, 'en')).toBe('5 MB')
    expect(clock(0)).toBe('00:00')
    expect(clock(75)).toBe('01:15')
  })

  test('locations from JSON, a map link or "lat,lng"', () => {
    expect(parseLocation('{"latitude":-23.5,"longitude":-46.6,"name":"Loja"}')).toEqual({
      latitude: -23.5,
      longitude: -46.6,
      name: 'Loja',
      address: undefined,
    })
    expect(
      parseLocation('Av. Paulista, 1000\nhttps://maps.google.com/maps?q=-23.5614%2C-46.6559&z=17'),
    ).toEqual({
      latitude: -23.5614,
      longitude: -46.6559,
      name: 'Av. Paulista, 1000',
      address: undefined,
    })
    expect(parseLocation('-22.9, -43.2')).toEqual({
      latitude: -22.9,
      longitude: -43.2,
      name: undefined,
      address: undefined,
    })
    expect(parseLocation('Rua 5, 120')).toBeNull()
    expect(parseLocation('sem coordenadas')).toBeNull()
  })

  test('vCards: one or more people with their numbers', () => {
    const two =
      'BEGIN:VCARD\nFN:Ana\nTEL;waid=5511900000001:+55 11 90000-0001\nEND:VCARD\nBEGIN:VCARD\nN:Lima;João;;;\nitem1.TEL:+55 21 3333-4444\nEND:VCARD'
    expect(parseVcards(two)).toEqual([
      { name: 'Ana', numbers: ['+55 11 90000-0001'] },
      { name: 'Lima João', numbers: ['+55 21 3333-4444'] },
    ])
    expect(
      parseVcards(JSON.stringify([{ displayName: 'Zé', vcard: 'BEGIN:VCARD\nTEL:123\nEND:VCARD' }])),
    ).toEqual([{ name: 'Zé', numbers: ['123'] }])
  })
})
