import { Eye } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Dialog } from '../../../components/ui/Dialog'
import { Conversation } from './Conversation'

/** The admin's read-only view of a conversation ('spy'): nothing can be sent and nothing is marked read. */
export function SpyDialog({
  ticketId,
  open,
  onClose,
}: {
  ticketId: number | string
  open: boolean
  onClose: () => void
}) {
  const { t } = useTranslation()
  return (
    <Dialog
      open={open}
      onClose={onClose}
      size="lg"
      fixedHeight
      title={
        <span className="inline-flex items-center gap-2">
          <Eye className="size-4 text-muted" aria-hidden />
          {t('conversation.spyTitle')}
        </span>
      }
    >
      <div className="-mx-5 -my-4 flex h-[calc(100%+2rem)] min-h-[60dvh] flex-col sm:min-h-0">
        {open && <Conversation ticketId={ticketId} readOnly />}
      </div>
    </Dialog>
  )
}
