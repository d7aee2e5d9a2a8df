import { Search } from 'lucide-react'
import {
  createContext,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type TextareaHTMLAttributes,
  useContext,
  useId,
} from 'react'
import { cn } from '../../lib/cn'
import { Spinner } from './Spinner'

type FieldIds = { id: string; describedBy?: string; invalid: boolean }
const FieldContext = createContext<FieldIds | null>(null)

/** The ids a control inside <Field> should use (label, hint and error are wired to it). */
export function useFieldControl(): FieldIds | null {
  return useContext(FieldContext)
}

export type FieldProps = {
  label: ReactNode
  error?: string | null
  hint?: ReactNode
  required?: boolean
  className?: string
  children: ReactNode
  /** Use a plain <div> label (for groups such as a multi-select button that is not a labelable element). */
  as?: 'label' | 'group'
}

export function Field({ label, error, hint, required, className, children, as = 'label' }: FieldProps) {
  const id = useId()
  const hintId = hint ? `${id}-hint` : undefined
  const errorId = error ? `${id}-error` : undefined
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined
  const labelNode = (
    <>
      {label}
      {required && (
        <span className="ml-0.5 text-danger" aria-hidden>
          *
        </span>
      )}
    </>
  )
  return (
    <FieldContext.Provider value={{ id, describedBy, invalid: !!error }}>
      <div className={cn('flex min-w-0 flex-col gap-1.5', className)}>
        {as === 'label' ? (
          <label htmlFor={id} className="font-medium text-[13px] text-fg">
            {labelNode}
          </label>
        ) : (
          <span id={`${id}-label`} className="font-medium text-[13px] text-fg">
            {labelNode}
          </span>
        )}
        {children}
        {error ? (
          <p id={errorId} className="text-[12.5px] text-danger" role="alert">
            {error}
          </p>
        ) : hint ? (
          <p id={hintId} className="text-[12.5px] text-muted">
            {hint}
          </p>
        ) : null}
      </div>
    </FieldContext.Provider>
  )
}

export const controlClass =
  'w-full rounded-lg border bg-surface px-3 text-sm text-fg placeholder:text-subtle transition-[border-color,box-shadow] duration-150 ' +
  'focus:outline-none focus-visible:outline-none focus:border-focus focus:ring-3 focus:ring-focus/25 ' +
  'disabled:cursor-not-allowed disabled:bg-surface-2 disabled:text-muted'

export function controlBorder(invalid: boolean): string {
  return invalid ? 'border-danger' : 'border-border-strong hover:border-subtle'
}

export type InputProps = InputHTMLAttributes<HTMLInputElement> & {
  ref?: Ref<HTMLInputElement>
  invalid?: boolean
}

export function Input({ className, id, invalid, ...rest }: InputProps) {
  const field = useFieldControl()
  const bad = invalid ?? field?.invalid ?? false
  return (
    <input
      id={id ?? field?.id}
      aria-invalid={bad || undefined}
      aria-describedby={field?.describedBy}
      className={cn(controlClass, controlBorder(bad), 'h-10 max-sm:h-11', className)}
      {...rest}
    />
  )
}

export type TextareaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  ref?: Ref<HTMLTextAreaElement>
  invalid?: boolean
}

export function Textarea({ className, id, invalid, rows = 3, ...rest }: TextareaProps) {
  const field = useFieldControl()
  const bad = invalid ?? field?.invalid ?? false
  return (
    <textarea
      id={id ?? field?.id}
      rows={rows}
      aria-invalid={bad || undefined}
      aria-describedby={field?.describedBy}
      className={cn(controlClass, controlBorder(bad), 'min-h-20 resize-y py-2 leading-relaxed', className)}
      {...rest}
    />
  )
}

/** A search box: the magnifier inside on the left, and a spinner on the right while `busy`. */
export function SearchInput({
  busy,
  wrapperClassName,
  className,
  ...rest
}: InputProps & { busy?: boolean; wrapperClassName?: string }) {
  return (
    <div className={cn('relative', wrapperClassName)}>
      <Search
        className="-translate-y-1/2 pointer-events-none absolute top-1/2 left-3 size-4 text-subtle"
        aria-hidden
      />
      <Input type="search" className={cn('pl-9', busy && 'pr-9', className)} {...rest} />
      {busy && <Spinner className="-translate-y-1/2 absolute top-1/2 right-3 text-muted" />}
    </div>
  )
}
