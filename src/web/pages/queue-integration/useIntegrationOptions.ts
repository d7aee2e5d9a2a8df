import { type OptionRef, usePagedOptions } from '../../state/options'

/**
 * The company's queue integrations for a selector (queues, connections): GET /queueIntegration, a few pages,
 * loaded while `open`; nothing without the plan flag useIntegrations; a failed load is just empty.
 */
export function useIntegrationOptions(open: boolean): OptionRef[] {
  return usePagedOptions(open, '/queueIntegration', 'queueIntegrations', 'useIntegrations')
}
