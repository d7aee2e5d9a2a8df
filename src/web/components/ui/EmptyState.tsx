import { AlertCircle } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn'
import { Button } from './Button'

export function EmptyState({
  icon,
  title,
  children,
  action,
  className,
}: {
  icon?: ReactNode
  title: ReactNode
  children?: ReactNode
  action?: ReactNode
  className?: string
}) {
  return (
    <div className={cn('flex flex-col items-center px-6 py-12 text-center', className)}>
      {icon && (
        <div className="mb-4 flex size-12 items-center justify-center rounded-xl bg-surface-2 text-muted [&>svg]:size-6">
          {icon}
        </div>
      )}
      <h3 className="font-semibold text-[15px] text-fg">{title}</h3>
      {children && <div className="mt-1.5 max-w-md text-muted text-sm">{children}</div>}
      {action && <div className="mt-5 flex flex-wrap justify-center gap-2">{action}</div>}
    </div>
  )
}

/** A load that failed, with its message and a way to try again. */
export function LoadError({ error, onRetry }: { error: ReactNode; onRetry: () => void }) {
  const { t } = useTranslation()
  return (
    <EmptyState
      icon={<AlertCircle />}
      title={t('table.errorTitle')}
      action={
        <Button variant="secondary" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    >
      {error}
    </EmptyState>
  )
}
