import { describe, expect, test } from 'bun:test'
import { parseClientFrame } from './frames'

describe('parseClientFrame', () => {
  test('reads the three client frames, ticket ids as numbers or digit strings', () => {
    expect(parseClientFrame('{"event":"userStatus"}')).toEqual({ event: 'userStatus' })
    expect(parseClientFrame('{"event":"userStatus","data":{"x":1}}')).toEqual({ event: 'userStatus' })
    expect(parseClientFrame('{"event":"joinChatBox","data":42}')).toEqual({ event: 'joinChatBox', data: 42 })
    expect(parseClientFrame('{"event":"leaveChatBox","data":"42"}')).toEqual({
      event: 'leaveChatBox',
      data: 42,
    })
  })

  test('anything else is null, never a throw', () => {
    const junk = [
      'null',
      '1',
      '[]',
      '"x"',
      'true',
      '',
      '{',
      '{}',
      '{"event":1}',
      '{"event":"nope"}',
      '{"event":"__proto__"}',
      '{"event":"joinChatBox"}',
      '{"event":"joinChatBox","data":0}',
      '{"event":"joinChatBox","data":1.5}',
      '{"event":"joinChatBox","data":-3}',
      '{"event":"joinChatBox","data":"1e3"}',
      '{"event":"joinChatBox","data":9007199254740993}',
      '{"event":"joinChatBox","data":[1]}',
      JSON.stringify({ event: 'userStatus', pad: 'x'.repeat(2_000) }),
    ]
    for (const text of junk) expect(parseClientFrame(text)).toBeNull()
    expect(parseClientFrame(Buffer.from('{"event":"userStatus"}'))).toBeNull()
  })
})
