import { describe, expect, test } from 'bun:test'
import { localTime } from '../../local-time'
import { fillTemplate, greetingOfHour, protocolOf } from './variables'

const ticket = { id: 42, createdAt: Date.parse('2026-11-21T02:30:00Z'), contactName: '  Maria  da Silva ' }

describe('greeting variables', () => {
  test('{{firstName}}, {{name}}, {{protocol}}, spaces in the braces, unknown ones kept', () => {
    const now = Date.parse('2026-11-21T12:00:00Z')
    expect(fillTemplate('{{ms}}, {{firstName}}! ({{ name }}) #{{protocol}} {{other}}', ticket, now)).toBe(
      'Bom dia, Maria! (Maria  da Silva) #2026112042 {{other}}',
    )
  })

  test('{{ms}} by the company local time, at the edges', () => {
    const sp = (hhmm: string) => Date.parse(`2026-11-23T${hhmm}:00-03:00`)
    expect(greetingOfHour(sp('04:59'))).toBe('Boa noite')
    expect(greetingOfHour(sp('05:00'))).toBe('Bom dia')
    expect(greetingOfHour(sp('11:59'))).toBe('Bom dia')
    expect(greetingOfHour(sp('12:00'))).toBe('Boa tarde')
    expect(greetingOfHour(sp('17:59'))).toBe('Boa tarde')
    expect(greetingOfHour(sp('18:00'))).toBe('Boa noite')
    // 12:00 São Paulo is 15:00 UTC
    expect(greetingOfHour(sp('12:00'), 'UTC')).toBe('Boa tarde')
    expect(greetingOfHour(sp('09:00'), 'Asia/Tokyo')).toBe('Boa noite')
  })

  test('the protocol is the local day the ticket was opened', () => {
    // 02:30 UTC on the 21st is still the 20th in São Paulo
    expect(protocolOf(ticket)).toBe('2026112042')
    expect(protocolOf(ticket, 'UTC')).toBe('2026112142')
  })

  test('an empty name leaves the name variables empty; an unknown zone counts as São Paulo', () => {
    expect(fillTemplate('[{{firstName}}|{{name}}]', { ...ticket, contactName: '' }, 0)).toBe('[|]')
    expect(localTime(ticket.createdAt, 'Not/AZone').date).toBe('2026-11-20')
  })
})
