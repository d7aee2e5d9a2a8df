/**
 * The messages a ticket's changes send to the customer: the greeting on accept (setting sendGreetingAccepted),
 * the notice on a transfer (sendMsgTransfTicket) and the farewell on close (the user's farewellMessage, else the
 * connection's complationMessage). Never to groups. Texts are Portuguese, as the customers of the spec's
 * companies read them, and may use the spec's variables {{firstName}}, {{name}}, {{ms}} and {{protocol}}. They are
 * written as outbound messages of the acting user in the transaction that changes the ticket (service.ts), and
 * sent by the messages area's OutboundSender after commit.
 */
// One filling of the variables everywhere (the bot, the timers, these notices), in the company's time zone.
export { fillTemplate, greetingOfHour, protocolOf, type TemplateTicket } from './variables'

export function acceptGreeting(userName: string): string {
  return `{{ms}}, {{firstName}}! Meu nome é *${userName}* e vou continuar o seu atendimento.`
}

export function transferNotice(to: { userName: string | null; queueName: string | null }): string {
  if (to.userName) return `Seu atendimento foi transferido para *${to.userName}*. Aguarde só um instante.`
  if (to.queueName)
    return `Seu atendimento foi transferido para o setor *${to.queueName}*. Aguarde, logo alguém vai te atender.`
  return 'Seu atendimento foi transferido. Aguarde, logo alguém vai te atender.'
}
