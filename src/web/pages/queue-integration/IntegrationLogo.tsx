import type { IntegrationType } from '../../../shared/queue-integrations'
import { cn } from '../../lib/cn'

/** Each type's mark: a lettermark on its colour (drawn here; no third-party artwork). */
const MARKS: Record<IntegrationType, { bg: string; label: string }> = {
  dialogflow: { bg: '#f97316', label: 'DF' },
  n8n: { bg: '#ea4b71', label: 'n8n' },
  webhook: { bg: '#6366f1', label: '' },
  typebot: { bg: '#0042da', label: 'TB' },
}

/** The logo of an integration type (decorative: the type's name is next to it or in its label). */
export function IntegrationLogo({ type, className }: { type: IntegrationType; className?: string }) {
  const mark = MARKS[type]
  return (
    <svg
      viewBox="0 0 32 32"
      className={cn('size-8 shrink-0', className)}
      aria-hidden="true"
      data-testid={`logo-${type}`}
    >
      <rect width="32" height="32" rx="8" fill={mark.bg} />
      {type === 'webhook' ? (
        // a hook: three linked nodes
        <g fill="none" stroke="#fff" strokeWidth="2.2" strokeLinecap="round">
          <circle cx="16" cy="10" r="3" />
          <circle cx="9.5" cy="21" r="3" />
          <circle cx="22.5" cy="21" r="3" />
          <path d="M14.5 12.6 11 18.4M17.5 12.6 21 18.4M12.5 21h7" />
        </g>
      ) : (
        <text
          x="16"
          y="20.5"
          textAnchor="middle"
          fontFamily="ui-sans-serif, system-ui, sans-serif"
          fontWeight="700"
          fontSize={mark.label.length > 2 ? 10 : 12}
          fill="#fff"
        >
          {mark.label}
        </text>
      )}
    </svg>
  )
}
