import {
  type CollisionDetection,
  KeyboardCode,
  type KeyboardCoordinateGetter,
  pointerWithin,
  rectIntersection,
} from '@dnd-kit/core'

/** A column of the board: 'Em aberto' (id 0, no colour) or a lane tag. */
export type Column = { id: number; name: string; color: string | null }

export const laneKey = (id: number) => `lane-${id}`
export const cardKey = (id: number) => `ticket-${id}`

/**
 * The keyboard moves a picked-up card a whole lane at a time (left and right arrows), to the middle of the next
 * lane in that direction, instead of dnd-kit's default 25 px steps.
 */
export const laneKeyboardCoordinates: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const dir = event.code === KeyboardCode.Right ? 1 : event.code === KeyboardCode.Left ? -1 : 0
  if (event.code === KeyboardCode.Up || event.code === KeyboardCode.Down) event.preventDefault()
  const rect = context.collisionRect
  if (!dir || !rect) return undefined
  event.preventDefault()
  const lanes = [...context.droppableRects.entries()]
    .map(([id, r]) => ({ id, r }))
    .sort((a, b) => a.r.left - b.r.left)
  const centre = rect.left + rect.width / 2
  let at = lanes.findIndex((l) => l.id === context.over?.id)
  if (at === -1) at = lanes.findIndex((l) => centre >= l.r.left && centre <= l.r.left + l.r.width)
  const next = at === -1 ? (dir > 0 ? lanes.find((l) => l.r.left > centre) : undefined) : lanes[at + dir]
  if (!next) return undefined
  return { x: next.r.left + (next.r.width - rect.width) / 2, y: currentCoordinates.y }
}

/** Pointer drags drop where the pointer is; keyboard drags (no pointer) by the card's overlap. */
export const collision: CollisionDetection = (args) => {
  const hits = pointerWithin(args)
  return hits.length > 0 ? hits : rectIntersection(args)
}
