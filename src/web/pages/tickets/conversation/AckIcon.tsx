import { AlertCircle, Check, CheckCheck, Clock3 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { MessageDto } from '../../../../shared/api'
import { cn } from '../../../lib/cn'

/**
 * WhatsApp's ticks for our messages: 0 a clock (waiting), 1 one tick (sent), 2 and 3 two ticks (delivered, to
 * everyone in a group), 4 two blue ticks (read). A failed send shows a red mark instead.
 */
export function AckIcon({
  ack,
  failed,
  className,
}: {
  ack: MessageDto['ack']
  failed?: boolean
  className?: string
}) {
  const { t } = useTranslation()
  const base = cn('inline-block size-[15px] shrink-0', className)
  if (failed) {
    const label = t('conversation.ack.failed')
    return <AlertCircle className={cn(base, 'text-danger')} aria-label={label} role="img" data-ack="failed" />
  }
  const label = t(`conversation.ack.${ack}`)
  const props = { 'aria-label': label, role: 'img', 'data-ack': ack } as const
  switch (ack) {
    case 0:
      return <Clock3 className={cn(base, 'size-[13px] opacity-70')} {...props} />
    case 1:
      return <Check className={cn(base, 'opacity-70')} {...props} />
    case 2:
    case 3:
      return <CheckCheck className={cn(base, 'opacity-70')} {...props} />
    default:
      return <CheckCheck className={cn(base, 'text-[#1d9bd7] dark:text-[#53bdeb]')} {...props} />
  }
}
