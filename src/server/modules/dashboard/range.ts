/** A range of days (day-range.ts) as the dashboard's count tables see it: buckets. */

/** Buckets of the count tables are quarters of an hour (every zone's offset is a multiple of 15 minutes). */
export const BUCKET_MS = 900_000

/** The first and the last bucket of a range (both included). */
export function bucketsOf(range: { from: number; to: number }): [number, number] {
  return [Math.floor(range.from / BUCKET_MS), Math.ceil(range.to / BUCKET_MS) - 1]
}
