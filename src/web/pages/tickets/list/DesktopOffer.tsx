import { useSignals } from '@preact/signals-react/runtime'
import { BellRing, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import {
  askDismissed,
  desktopPermission,
  dismissDesktopOffer,
  requestDesktopPermission,
  shouldOfferDesktop,
} from '../../../components/layout/notifications/desktop'
import { Button } from '../../../components/ui/Button'

/** Offers desktop notifications once, in the list's header: "Ativar" asks the browser, the X says no thanks. */
export function DesktopOffer() {
  useSignals()
  const { t } = useTranslation()
  if (!shouldOfferDesktop(desktopPermission.value, askDismissed.value)) return null
  return (
    <section
      aria-label={t('notifications.offerTitle')}
      className="flex shrink-0 items-center gap-3 border-border border-b bg-info-soft px-3 py-2 text-on-info-soft"
    >
      <BellRing className="size-4 shrink-0" aria-hidden />
      <p className="min-w-0 flex-1 text-[13px] leading-snug">{t('notifications.offerText')}</p>
      <Button size="sm" variant="secondary" onClick={() => void requestDesktopPermission()}>
        {t('notifications.offerEnable')}
      </Button>
      <button
        type="button"
        onClick={dismissDesktopOffer}
        aria-label={t('notifications.offerDismiss')}
        title={t('notifications.offerDismiss')}
        className="-mr-1 inline-flex size-7 shrink-0 items-center justify-center rounded-md hover:bg-black/5 max-sm:size-11 dark:hover:bg-white/10"
      >
        <X className="size-4" />
      </button>
    </section>
  )
}
