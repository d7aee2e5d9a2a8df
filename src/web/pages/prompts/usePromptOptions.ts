import { type OptionRef, usePagedOptions } from '../../state/options'

/**
 * The company's AI prompts for a selector (queues, connections): GET /prompt, a few pages, loaded while `open`;
 * nothing without the plan flag useOpenAi; a failed load is just empty.
 */
export function usePromptOptions(open: boolean): OptionRef[] {
  return usePagedOptions(open, '/prompt', 'prompts', 'useOpenAi')
}
