import { describe, expect, test } from 'bun:test'
import { KeyboardCode } from '@dnd-kit/core'
import { makeTicket } from '../tickets/list/fixtures'
import { boardFits, boardQuery, laneOf, movedTicket, OPEN_LANE } from './board'
import { laneKeyboardCoordinates } from './dnd'

const LANE_A = { id: 5, name: 'A fazer', color: '#111111' }
const LANE_B = { id: 6, name: 'Feito', color: '#222222' }
const VIP = { id: 9, name: 'VIP', color: '#333333' }
const lanes = new Set([5, 6])

describe('board rules', () => {
  test('a ticket is in its first lane tag, or in Em aberto (ordinary tags do not count)', () => {
    expect(laneOf(makeTicket({ id: 1 }), lanes)).toBe(OPEN_LANE)
    expect(laneOf(makeTicket({ id: 1, tags: [VIP] }), lanes)).toBe(OPEN_LANE)
    expect(laneOf(makeTicket({ id: 1, tags: [LANE_B, VIP] }), lanes)).toBe(6)
  })

  test('a move replaces the lane tags and keeps the others', () => {
    const t = makeTicket({ id: 1, tags: [LANE_A, VIP] })
    expect(movedTicket(t, LANE_B, lanes).tags).toEqual([LANE_B, VIP])
    expect(movedTicket(t, null, lanes).tags).toEqual([VIP])
  })

  test('what belongs on the board: open (own, or all with show-all) and pending, in the selected queues', () => {
    const me = { id: 3 }
    const all = { queueIds: null, showAll: false }
    expect(boardFits(makeTicket({ id: 1, status: 'pending' }), all, me)).toBe(true)
    expect(boardFits(makeTicket({ id: 1, status: 'closed' }), all, me)).toBe(false)
    expect(boardFits(makeTicket({ id: 1, status: 'open', userId: 3 }), all, me)).toBe(true)
    expect(boardFits(makeTicket({ id: 1, status: 'open', userId: 4 }), all, me)).toBe(false)
    expect(boardFits(makeTicket({ id: 1, status: 'open', userId: 4 }), { ...all, showAll: true }, me)).toBe(
      true,
    )
    const q = { queueIds: [2], showAll: false }
    expect(boardFits(makeTicket({ id: 1, status: 'pending', queueId: 2 }), q, me)).toBe(true)
    expect(boardFits(makeTicket({ id: 1, status: 'pending', queueId: null }), q, me)).toBe(true)
    expect(boardFits(makeTicket({ id: 1, status: 'pending', queueId: 4 }), q, me)).toBe(false)
  })

  test('the query sends the queues as JSON, as the spec does', () => {
    expect(boardQuery({ queueIds: [1, 2], showAll: true }, 2)).toEqual({
      queueIds: '[1,2]',
      showAll: 'true',
      pageNumber: 2,
    })
    expect(boardQuery({ queueIds: null, showAll: false }, 1)).toEqual({
      queueIds: undefined,
      showAll: undefined,
      pageNumber: 1,
    })
  })

  test('the keyboard moves a card a whole lane at a time', () => {
    const rect = (left: number) => ({
      left,
      top: 100,
      width: 280,
      height: 600,
      right: left + 280,
      bottom: 700,
    })
    const droppableRects = new Map([
      ['lane-0', rect(0)],
      ['lane-5', rect(300)],
      ['lane-6', rect(600)],
    ])
    const at = (left: number, over: string | null, code: string) =>
      laneKeyboardCoordinates(
        { code, preventDefault() {} } as unknown as KeyboardEvent,
        {
          active: 'ticket-1',
          currentCoordinates: { x: left, y: 150 },
          context: {
            collisionRect: { left, top: 150, width: 260, height: 120, right: left + 260, bottom: 270 },
            droppableRects,
            over: over ? { id: over } : null,
          },
        } as never,
      )
    expect(at(10, 'lane-0', KeyboardCode.Right)).toEqual({ x: 310, y: 150 })
    expect(at(310, 'lane-5', KeyboardCode.Right)).toEqual({ x: 610, y: 150 })
    expect(at(310, 'lane-5', KeyboardCode.Left)).toEqual({ x: 10, y: 150 })
    expect(at(610, 'lane-6', KeyboardCode.Right)).toBeUndefined()
    expect(at(10, null, KeyboardCode.Down)).toBeUndefined()
  })
})
