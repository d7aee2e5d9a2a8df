import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LogoMark } from '../../components/layout/Logo'
import { changeLanguage, currentLanguage, LANGUAGES } from '../../i18n'
import { cn } from '../../lib/cn'

/** The frame of the public pages: a centred card, the language switch below it. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: ReactNode
  subtitle?: ReactNode
  children: ReactNode
}) {
  const { t } = useTranslation()
  const lang = currentLanguage()
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center bg-bg px-4 py-10">
      <div className="w-full max-w-[400px]">
        <div className="mb-6 flex flex-col items-center text-center">
          <LogoMark className="size-11" />
          <h1 className="mt-4 font-semibold text-2xl text-fg tracking-tight">{title}</h1>
          {subtitle && <p className="mt-1.5 text-muted text-sm">{subtitle}</p>}
        </div>
        <div className="rounded-xl border border-border bg-surface p-6 shadow-sm sm:p-7">{children}</div>
        <nav aria-label={t('shell.language')} className="mt-6 flex justify-center gap-1">
          {LANGUAGES.map((l) => (
            <button
              key={l}
              type="button"
              lang={l}
              onClick={() => changeLanguage(l)}
              aria-pressed={l === lang}
              className={cn(
                'rounded-md px-2.5 py-1.5 text-xs transition-colors duration-150 max-sm:min-h-11 max-sm:px-3',
                l === lang ? 'bg-surface-2 font-medium text-fg' : 'text-muted hover:text-fg',
              )}
            >
              {t(`languages.${l}`)}
            </button>
          ))}
        </nav>
      </div>
    </div>
  )
}
