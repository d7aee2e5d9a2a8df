/** Queues and their chatbot menus. */
import type { ScheduleEntry } from '../schedules'

export type QueueRef = { id: number; name: string; color: string }

export type QueueDto = {
  id: number
  name: string
  color: string
  orderQueue: number
  greetingMessage: string
  outOfHoursMessage: string
  /** Service hours (src/shared/schedules.ts), used when the setting scheduleType is 'queue'. */
  schedules: ScheduleEntry[]
  integrationId: number | null
  promptId: number | null
  /** The file list whose files the chatbot sends when a ticket enters the queue. */
  fileListId: number | null
  companyId: number
  createdAt: string
  updatedAt: string
}

/** A node of a queue's chatbot menu; `children` is its whole subtree, ordered by position. */
export type QueueOptionDto = {
  id: number
  queueId: number
  /** -1 at the top level. */
  parentId: number
  title: string
  message: string
  /** The position the customer types ('1', '2', …), unique among siblings. */
  option: string
  mediaName: string | null
  mediaMime: string | null
  /** A signed, expiring link to the option's file, or null. */
  mediaUrl: string | null
  children: QueueOptionDto[]
  createdAt: string
  updatedAt: string
}
