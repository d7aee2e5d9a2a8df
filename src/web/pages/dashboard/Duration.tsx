import { useTranslation } from 'react-i18next'
import { durationParts } from './format'

/** Minutes as HH h mm m, or a dash when nothing was measured. */
export function Duration({ minutes }: { minutes: number | null }) {
  const { t } = useTranslation()
  if (minutes == null) return <span className="text-subtle">{t('dashboard.noTime')}</span>
  return <>{t('dashboard.duration', durationParts(minutes))}</>
}
