import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from './Button'

export type FormActionsProps = {
  /** Called by the Cancel button (usually the dialog's onClose). */
  onCancel: () => void
  /** The form is being saved: Save shows a spinner and both buttons are disabled. */
  saving?: boolean
  /** Save cannot be pressed (the form is still loading or failed to load). */
  disabled?: boolean
  /** Defaults to common.cancel. */
  cancelLabel?: ReactNode
  /** Defaults to common.save. */
  saveLabel?: ReactNode
}

/**
 * The Cancel / Save pair at the bottom of a form dialog: pass it as the Dialog's `footer` (with `onSubmit`
 * set, Save submits the form). Returns the two buttons as siblings so the footer's layout applies to each.
 */
export function FormActions({
  onCancel,
  saving = false,
  disabled = false,
  cancelLabel,
  saveLabel,
}: FormActionsProps) {
  const { t } = useTranslation()
  return (
    <>
      <Button variant="secondary" onClick={onCancel} disabled={saving}>
        {cancelLabel ?? t('common.cancel')}
      </Button>
      <Button type="submit" loading={saving} disabled={disabled}>
        {saveLabel ?? t('common.save')}
      </Button>
    </>
  )
}
