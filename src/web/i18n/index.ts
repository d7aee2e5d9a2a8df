/**
 * i18next: Portuguese is the default and the fallback; English and Spanish have the same keys.
 * The choice is kept in localStorage `i18nextLng`, as the spec says.
 */
import i18n from 'i18next'
import { initReactI18next } from 'react-i18next'
import { en } from './en'
import { es } from './es'
import { pt } from './pt'

export const LANGUAGES = ['pt', 'en', 'es'] as const
export type Language = (typeof LANGUAGES)[number]
export const LANGUAGE_KEY = 'i18nextLng'

/** 'pt-BR' -> 'pt'; unknown -> 'pt'. */
export function normalizeLanguage(value: string | null | undefined): Language {
  const base = (value ?? '').toLowerCase().split(/[-_]/)[0]
  return (LANGUAGES as readonly string[]).includes(base ?? '') ? (base as Language) : 'pt'
}

function storedLanguage(): Language {
  try {
    return normalizeLanguage(localStorage.getItem(LANGUAGE_KEY))
  } catch {
    return 'pt'
  }
}

i18n.use(initReactI18next).init({
  resources: { pt: { translation: pt }, en: { translation: en }, es: { translation: es } },
  lng: storedLanguage(),
  fallbackLng: 'pt',
  supportedLngs: [...LANGUAGES],
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { transKeepBasicHtmlNodesFor: ['b', 'strong', 'br', 'i'] },
})

function applyLang(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng === 'pt' ? 'pt-BR' : lng
}
applyLang(i18n.language)

export function changeLanguage(lng: Language): void {
  localStorage.setItem(LANGUAGE_KEY, lng)
  void i18n.changeLanguage(lng)
  applyLang(lng)
}

export function currentLanguage(): Language {
  return normalizeLanguage(i18n.resolvedLanguage ?? i18n.language)
}

export default i18n
