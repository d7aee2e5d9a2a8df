import { ArrowLeft, Construction } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { AuthLayout } from '../login/AuthLayout'

/** Sign-up arrives with the administration release; this page says so honestly. */
export function ComingSoonAuthPage({ titleKey, textKey }: { titleKey: string; textKey: string }) {
  const { t } = useTranslation()
  return (
    <AuthLayout title={t(titleKey)}>
      <div className="flex flex-col items-center text-center">
        <span className="flex size-11 items-center justify-center rounded-xl bg-surface-2 text-muted">
          <Construction className="size-5" aria-hidden />
        </span>
        <p className="mt-4 text-muted text-sm leading-relaxed">{t(textKey)}</p>
        <Link
          to="/login"
          className="mt-6 inline-flex h-10 items-center gap-2 rounded-lg border border-border-strong px-4 font-medium text-fg text-sm hover:bg-surface-2 max-sm:h-11"
        >
          <ArrowLeft className="size-4" aria-hidden />
          {t('common.backToLogin')}
        </Link>
      </div>
    </AuthLayout>
  )
}

export function SignupPage() {
  return <ComingSoonAuthPage titleKey="comingSoon.signupTitle" textKey="comingSoon.signupText" />
}
