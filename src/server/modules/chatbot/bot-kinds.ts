/**
 * The external bots the chatbot hands a ticket to (bots/dispatch.ts), one per kind: the queue integrations
 * (webhook, n8n, Typebot, Dialogflow) and the AI prompts. Registered here, where the chatbot loads, so the
 * dispatcher imports none of them and each bot imports only the dispatcher's types.
 */
import { registerBot } from '../bots/dispatch'
import { promptBot } from '../prompts/bot'
import { dialogflowBot } from '../queue-integrations/dialogflow'
import { typebotBot } from '../queue-integrations/typebot'
import { n8nBot, webhookBot } from '../queue-integrations/webhook'

registerBot('webhook', webhookBot)
registerBot('n8n', n8nBot)
registerBot('typebot', typebotBot)
registerBot('dialogflow', dialogflowBot)
registerBot('prompt', promptBot)
