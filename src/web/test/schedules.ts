/** For web tests only: a scheduled message as the server answers it, one line per test that needs one. */
import type { ScheduleDto } from '../../shared/scheduled-messages'

/** A pending, one-off schedule for Maria (contact 5) at 12:00 in São Paulo; `extra` changes what a test needs. */
export const makeSchedule = (id: number, extra: Partial<ScheduleDto> = {}): ScheduleDto => ({
  id,
  companyId: 7,
  body: 'Lembrete: sua consulta é amanhã às 10 horas',
  contactId: 5,
  contact: { id: 5, name: 'Maria Souza' },
  // 15:00 UTC is 12:00 in São Paulo.
  sendAt: '2026-11-21T15:00:00.000Z',
  sentAt: null,
  status: 'PENDENTE',
  openTicket: 'enabled',
  ticketUserId: null,
  queueId: null,
  statusTicket: 'closed',
  whatsappId: null,
  userId: 1,
  mediaPath: null,
  mediaName: null,
  mediaUrl: null,
  error: null,
  attempts: 0,
  ticketId: null,
  repeat: null,
  seriesId: null,
  createdAt: '',
  updatedAt: '',
  ...extra,
})
