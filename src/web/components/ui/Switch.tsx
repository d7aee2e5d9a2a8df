import { Switch as HSwitch } from '@headlessui/react'
import { type ReactNode, useId } from 'react'
import { cn } from '../../lib/cn'

export function Switch({
  checked,
  onChange,
  label,
  description,
  disabled,
}: {
  checked: boolean
  onChange: (checked: boolean) => void
  label: ReactNode
  description?: ReactNode
  disabled?: boolean
}) {
  const id = useId()
  return (
    <div className="flex items-center justify-between gap-4 py-1.5 max-sm:min-h-11">
      <div className="min-w-0">
        <span id={`${id}-label`} className="text-fg text-sm">
          {label}
        </span>
        {description && (
          <p id={`${id}-desc`} className="text-muted text-xs">
            {description}
          </p>
        )}
      </div>
      <HSwitch
        checked={checked}
        onChange={onChange}
        disabled={disabled}
        aria-labelledby={`${id}-label`}
        // headlessui replaces aria-labelledby with its own (empty) label wiring: name it directly too.
        aria-label={typeof label === 'string' ? label : undefined}
        aria-describedby={description ? `${id}-desc` : undefined}
        className={cn(
          'group relative inline-flex h-6 w-10 shrink-0 cursor-pointer rounded-full border-2 border-transparent transition-colors duration-150',
          'bg-surface-3 data-checked:bg-primary disabled:cursor-not-allowed disabled:opacity-50',
          'focus:outline-none data-focus:outline-2 data-focus:outline-offset-2 data-focus:outline-focus',
        )}
      >
        <span
          aria-hidden
          className={cn(
            'pointer-events-none inline-block size-5 rounded-full bg-white shadow-sm ring-1 ring-black/10 transition-transform duration-150',
            'translate-x-0 group-data-checked:translate-x-4 dark:group-data-checked:bg-[#14171a]',
          )}
        />
      </HSwitch>
    </div>
  )
}
