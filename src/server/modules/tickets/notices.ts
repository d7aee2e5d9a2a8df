/**
 * The messages a ticket's changes send to the customer: the greeting on accept (setting sendGreetingAccepted),
 * the notice on a transfer (sendMsgTransfTicket) and the farewell on close (the user's farewellMessage, else the
 * connection's complationMessage). Never to groups. Texts are Portuguese, as the customers of the spec's
 * companies read them, and may use the spec's variables {{firstName}}, {{name}}, {{ms}} and {{protocol}}. They are
 * written as outbound messages of the acting user in the transaction that changes the ticket (service.ts), and
 * sent by the messages area's OutboundSender after commit.
 */
export type TemplateTicket = { id: number; createdAt: number; contactName: string }

/** 'Bom dia' (5h to noon), 'Boa tarde' (noon to 18h), 'Boa noite' (otherwise), in the server's local time. */
export function greetingOfHour(at: number): string {
  const hour = new Date(at).getHours()
  if (hour >= 5 && hour < 12) return 'Bom dia'
  if (hour >= 12 && hour < 18) return 'Boa tarde'
  return 'Boa noite'
}

/** The ticket's protocol number: the day it was opened (yyyyMMdd) followed by its id. */
export function protocolOf(ticket: { id: number; createdAt: number }): string {
  const d = new Date(ticket.createdAt)
  const day = `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`
  return `${day}${ticket.id}`
}

/** Fills {{firstName}}, {{name}}, {{ms}} and {{protocol}}; other text is left as written. */
export function fillTemplate(text: string, ticket: TemplateTicket, now: number): string {
  const name = ticket.contactName.trim()
  const values: Record<string, string> = {
    firstName: name.split(/\s+/)[0] ?? '',
    name,
    ms: greetingOfHour(now),
    protocol: protocolOf(ticket),
  }
  return text.replace(/\{\{\s*(firstName|name|ms|protocol)\s*\}\}/g, (_, key: string) => values[key] ?? '')
}

export function acceptGreeting(userName: string): string {
  return `{{ms}}, {{firstName}}! Meu nome é *${userName}* e vou continuar o seu atendimento.`
}

export function transferNotice(to: { userName: string | null; queueName: string | null }): string {
  if (to.userName) return `Seu atendimento foi transferido para *${to.userName}*. Aguarde só um instante.`
  if (to.queueName)
    return `Seu atendimento foi transferido para o setor *${to.queueName}*. Aguarde, logo alguém vai te atender.`
  return 'Seu atendimento foi transferido. Aguarde, logo alguém vai te atender.'
}
