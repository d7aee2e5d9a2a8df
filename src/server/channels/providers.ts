import type { Deps } from '../context'
import { createSandboxProvider, type SandboxNetwork } from './sandbox'
import type { ChannelProvider } from './types'

type Base = Pick<Deps, 'db' | 'sqlite' | 'clock' | 'log'>

/** The providers a server offers: always real WhatsApp; the sandbox when started with --sandbox. */
export function buildProviders(_base: Base, sandboxNetwork: SandboxNetwork | null) {
  const providers: Partial<Record<'beta' | 'sandbox', ChannelProvider>> = {}
  if (sandboxNetwork) providers.sandbox = createSandboxProvider(sandboxNetwork)
  return providers
}
