import type { ReactNode } from 'react'
import { Dialog, type DialogProps } from './Dialog'
import { FormActions } from './FormActions'
import { Skeleton } from './Skeleton'
import type { FormDialogState } from './useFormDialog'

export type FormDialogProps<V extends object> = Pick<
  DialogProps,
  'title' | 'description' | 'size' | 'className' | 'header' | 'fixedHeight'
> & {
  form: FormDialogState<V>
  onClose: () => void
  /** Shown while an edit loads (defaults to a few field placeholders). */
  skeleton?: ReactNode
  children: ReactNode
}

function DefaultSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2" aria-busy>
      {Array.from({ length: 4 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <div key={i} className="space-y-2">
          <Skeleton className="h-3 w-24" />
          <Skeleton className="h-10 w-full" />
        </div>
      ))}
    </div>
  )
}

/**
 * A dialog around a `useFormDialog` form: Enter and Save submit it, Cancel and Escape close it, the body shows
 * a skeleton while the record loads and the error when it cannot be loaded.
 */
export function FormDialog<V extends object>({
  form,
  onClose,
  skeleton,
  children,
  ...dialog
}: FormDialogProps<V>) {
  return (
    <Dialog
      {...dialog}
      open={form.open}
      onClose={onClose}
      onSubmit={form.submit}
      footer={
        <FormActions
          onCancel={onClose}
          saving={form.submitting}
          disabled={form.loading || !!form.loadError}
        />
      }
    >
      {form.loading ? (
        (skeleton ?? <DefaultSkeleton />)
      ) : form.loadError ? (
        <p role="alert" className="text-danger text-sm">
          {form.loadError}
        </p>
      ) : (
        children
      )}
    </Dialog>
  )
}
