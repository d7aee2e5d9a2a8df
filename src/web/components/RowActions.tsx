import { Pencil, Trash2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { IconButton } from './ui/Button'
import type { Column } from './ui/Table'

export type RowActionsProps = {
  /** The row's name, read after the action in each button's label ('Editar: name'). */
  name: string
  onEdit: () => void
  /** Left out: no delete button (the user may not delete). */
  onDelete?: () => void
  /** Set: the delete button shows but is disabled (a row that may not be deleted, such as the user's own). */
  deleteDisabled?: boolean
  /** Replaces 'Editar' in the edit button's label (e.g. 'Visualizar' for a read-only row). */
  editLabel?: string
  /** Replaces the pencil. */
  editIcon?: ReactNode
  /** Further buttons, before edit and delete. */
  children?: ReactNode
  /** Set: edit and delete are disabled, and this says why (their tooltip). */
  disabledReason?: string
  /** The buttons' row; by default right-aligned, as in a table's last column. */
  className?: string
}

/** A table row's actions: any extra buttons, then edit and delete (the list screens of the spec). */
export function RowActions({
  name,
  onEdit,
  onDelete,
  editLabel,
  editIcon,
  children,
  disabledReason,
  deleteDisabled,
  className = 'flex justify-end gap-0.5',
}: RowActionsProps) {
  const { t } = useTranslation()
  const disabled = disabledReason ? { disabled: true, title: disabledReason } : {}
  return (
    <div className={className}>
      {children}
      <IconButton
        size="sm"
        label={`${editLabel ?? t('common.edit')}: ${name}`}
        icon={editIcon ?? <Pencil className="size-4" />}
        onClick={onEdit}
        {...disabled}
      />
      {onDelete && (
        <IconButton
          size="sm"
          variant="danger-ghost"
          label={`${t('common.delete')}: ${name}`}
          icon={<Trash2 className="size-4" />}
          onClick={onDelete}
          {...disabled}
          {...(deleteDisabled ? { disabled: true } : {})}
        />
      )}
    </div>
  )
}

function ActionsHeader() {
  const { t } = useTranslation()
  return <span className="sr-only">{t('common.actions')}</span>
}

/** A list table's last column: the row's buttons on the right, under a header only screen readers read. */
export function actionsColumn<T>(cell: (row: T) => ReactNode, width?: string): Column<T> {
  return { key: 'actions', header: <ActionsHeader />, cell, align: 'right', ...(width ? { width } : {}) }
}
