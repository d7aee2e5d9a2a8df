import { describe, expect, test } from 'bun:test'
import { normalizeBaileysEvents } from '../../channels/normalize'

const ctx = { download: async () => new Uint8Array(), now: () => 1_000 }
const offer = {
  chatId: '5511977776666@s.whatsapp.net',
  from: '5511977776666@s.whatsapp.net',
  id: 'CALL0001',
  date: new Date(5_000),
  isVideo: true,
  status: 'offer' as const,
  offline: false,
}

describe("WhatsApp's call events", () => {
  test('an offer becomes a call event with the caller; other call updates are ignored', () => {
    const events = normalizeBaileysEvents(
      {
        call: [
          offer,
          { ...offer, id: 'CALL0002', status: 'terminate' },
          { ...offer, id: 'CALL0003', status: 'ringing' },
        ],
      },
      ctx,
    )
    expect(events).toEqual([
      {
        t: 'call',
        id: 'CALL0001',
        from: { jid: '5511977776666@s.whatsapp.net', pn: '5511977776666' },
        isVideo: true,
        isGroup: false,
        timestamp: 5_000,
      },
    ])
  })

  test('a call from a LID carries the phone number when WhatsApp gives it', () => {
    const [event] = normalizeBaileysEvents(
      { call: [{ ...offer, from: '123456789@lid', callerPn: '5511977776666@s.whatsapp.net' }] },
      ctx,
    )
    expect(event).toMatchObject({
      t: 'call',
      from: { jid: '123456789@lid', lid: '123456789@lid', pn: '5511977776666' },
    })
  })
})
