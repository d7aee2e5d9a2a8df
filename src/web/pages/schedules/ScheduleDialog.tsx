import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Skeleton } from '../../components/ui/Skeleton'
import { ScheduleFields } from './ScheduleFields'
import { type ScheduleEditorProps, useScheduleEditor } from './useScheduleEditor'
import { useScheduleOptions } from './useScheduleOptions'

// The schedules page imports the contact's shape from here; kept so that splitting this dialog leaves it alone.
export type { ContactRef } from './scheduleForm'

/** Add, edit or (once sent) view a scheduled message. */
export function ScheduleDialog(props: ScheduleEditorProps) {
  const { open, timeZone, onClose } = props
  const { t } = useTranslation()
  const { connections, users, queues } = useScheduleOptions(open)
  const {
    creating,
    loaded,
    locked,
    form,
    set,
    errors,
    saving,
    submit,
    currentMedia,
    file,
    pickFile,
    removeFile,
  } = useScheduleEditor(props)

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={
        creating ? t('schedules.addTitle') : locked ? t('schedules.viewTitle') : t('schedules.editTitle')
      }
      size="md"
      onSubmit={locked ? undefined : () => void submit()}
      footer={
        locked ? (
          <Button variant="secondary" onClick={onClose}>
            {t('common.close')}
          </Button>
        ) : (
          <>
            <Button variant="secondary" onClick={onClose} disabled={saving}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={saving} disabled={loaded.status !== 'ready'}>
              {t('common.save')}
            </Button>
          </>
        )
      }
    >
      {loaded.status === 'loading' ? (
        <div className="space-y-4" aria-busy>
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-24 w-full" />
          <Skeleton className="h-10 w-full" />
        </div>
      ) : loaded.status === 'error' ? (
        <p role="alert" className="text-danger text-sm">
          {loaded.message}
        </p>
      ) : (
        <ScheduleFields
          form={form}
          set={set}
          errors={errors}
          locked={locked}
          timeZone={timeZone}
          connections={connections}
          users={users}
          queues={queues}
          attachment={file?.name ?? currentMedia}
          onPickFile={pickFile}
          onRemoveFile={removeFile}
        />
      )}
    </Dialog>
  )
}
