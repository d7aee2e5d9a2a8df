import type { ButtonHTMLAttributes, ReactNode, Ref } from 'react'
import { cn } from '../../lib/cn'
import { Spinner } from './Spinner'

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger'
export type ButtonSize = 'sm' | 'md' | 'lg'

const variants: Record<ButtonVariant, string> = {
  primary: 'bg-primary text-on-primary hover:bg-primary-hover shadow-sm',
  secondary: 'bg-surface text-fg border border-border-strong hover:bg-surface-2',
  ghost: 'bg-transparent text-fg hover:bg-surface-2',
  danger: 'bg-danger-solid text-white hover:bg-danger-solid-hover shadow-sm',
}

/* Phones get 44 px touch targets (max-sm:), desktop keeps a denser 36 px control. */
const sizes: Record<ButtonSize, string> = {
  sm: 'h-8 px-3 text-[13px] gap-1.5 max-sm:h-11',
  md: 'h-9 px-4 text-sm gap-2 max-sm:h-11',
  lg: 'h-11 px-5 text-[15px] gap-2',
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant
  size?: ButtonSize
  loading?: boolean
  icon?: ReactNode
  ref?: Ref<HTMLButtonElement>
}

export function Button({
  variant = 'primary',
  size = 'md',
  loading = false,
  icon,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={cn(
        'inline-flex shrink-0 select-none items-center justify-center whitespace-nowrap rounded-lg font-medium',
        'transition-colors duration-150 disabled:cursor-not-allowed disabled:opacity-55',
        variants[variant],
        sizes[size],
        className,
      )}
      {...rest}
    >
      {loading ? <Spinner /> : icon}
      {children}
    </button>
  )
}

export type IconButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'children'> & {
  /** Required: read by screen readers and shown as the tooltip. */
  label: string
  icon: ReactNode
  variant?: 'ghost' | 'secondary' | 'danger-ghost'
  size?: 'sm' | 'md'
  ref?: Ref<HTMLButtonElement>
}

const iconVariants = {
  ghost: 'text-muted hover:text-fg hover:bg-surface-2',
  secondary: 'text-fg border border-border-strong bg-surface hover:bg-surface-2',
  'danger-ghost': 'text-muted hover:text-danger hover:bg-danger-soft',
}

/** An icon-only button: always labelled (aria-label + tooltip). */
export function IconButton({
  label,
  icon,
  variant = 'ghost',
  size = 'md',
  className,
  type = 'button',
  ...rest
}: IconButtonProps) {
  return (
    <button
      type={type}
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-lg transition-colors duration-150',
        'disabled:cursor-not-allowed disabled:opacity-50',
        size === 'sm' ? 'size-8 max-sm:size-11' : 'size-9 max-sm:size-11',
        iconVariants[variant],
        className,
      )}
      {...rest}
    >
      {icon}
    </button>
  )
}
