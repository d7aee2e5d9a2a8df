/**
 * The inbound chatbot, the connections' timers and the `call` setting (calls.ts) (see machine.ts for the states and transitions, runner.ts for
 * when it runs, catchup.ts for what a stopped server left unanswered, timers.ts for the sweeps, ratings.ts for NPS).
 * `startChatbot` wires them: serve.ts at boot, after the inbound pipeline and before the sessions start (the
 * catch-up runs first, synchronously, so it never races a live message at boot); tests call it on the harness's deps.
 */
import type { Deps } from '../../context'
import { type Inbound, inboundOf } from '../inbound'
import { listenToCalls } from './calls'
import { type CatchUpResult, catchUp } from './catchup'
import { ChatbotRunner } from './runner'
import { ChatbotTimers } from './timers'

export type Chatbot = {
  runner: ChatbotRunner
  timers: ChatbotTimers
  /** What the boot catch-up answered (catchup.ts). */
  caughtUp: CatchUpResult
  /** Resolves once the timers' sweep under way (if any) is over. */
  stop: () => Promise<void>
}

/** Starts the chatbot on these deps (once per registry, until stopped). */
export function startChatbot(
  deps: Deps,
  options: { inbound?: Inbound; sweepIntervalMs?: number } = {},
): Chatbot {
  const existing = chatbotOf(deps)
  if (existing) return existing
  const runner = new ChatbotRunner(deps)
  const caughtUp = catchUp(deps, runner)
  const timers = new ChatbotTimers(deps, options.sweepIntervalMs)
  timers.start()
  const inbound = options.inbound ?? inboundOf(deps)
  const unsubscribe = inbound?.onStored((_conn, event, stored) => {
    if (event.ref.fromMe) return
    runner.enqueue({
      ticketId: stored.ticketId,
      messageId: stored.messageId,
      text: event.body,
      ticketCreated: stored.ticketCreated,
    })
  })
  const stopCalls = listenToCalls(deps)
  const chatbot: Chatbot = {
    runner,
    timers,
    caughtUp,
    stop: () => {
      unsubscribe?.()
      stopCalls()
      deps.jobs.drop('chatbot')
      return timers.stop()
    },
  }
  return deps.jobs.use('chatbot', () => chatbot)
}

export function chatbotOf(deps: Pick<Deps, 'jobs'>): Chatbot | undefined {
  return deps.jobs.peek<Chatbot>('chatbot')
}
