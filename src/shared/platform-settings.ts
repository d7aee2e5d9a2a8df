/**
 * The platform's own settings, kept by the super user (Settings) or given by the environment: mail for
 * password recovery, the Pix receiver of the checkout, the payment provider's webhook secret. A value saved in
 * Settings wins over the environment; secrets are sealed in the database and never sent back to a browser.
 */
export const PLATFORM_SETTINGS = {
  /** `smtp://user:pass@host:587`, or `smtps://` for TLS from the start. */
  smtpUrl: { env: 'BALCAO_SMTP_URL', secret: true, max: 500 },
  /** The sender of the platform's e-mail, e.g. `Balcão <no-reply@example.com>`. */
  smtpFrom: { env: 'BALCAO_SMTP_FROM', secret: false, max: 200 },
  /** The Pix key that receives payments (CPF/CNPJ, e-mail, phone +55…, or a random key). */
  pixKey: { env: 'BALCAO_PIX_KEY', secret: false, max: 77 },
  /** The receiver's name in the BR Code (at most 25 characters, as the Pix rules say). */
  pixMerchantName: { env: 'BALCAO_PIX_MERCHANT_NAME', secret: false, max: 25 },
  /** The receiver's city in the BR Code (at most 15 characters). */
  pixMerchantCity: { env: 'BALCAO_PIX_MERCHANT_CITY', secret: false, max: 15 },
  /** Signs `POST /api/payments/webhook` (HMAC-SHA256 of the raw body). */
  paymentWebhookSecret: { env: 'BALCAO_PAYMENT_WEBHOOK_SECRET', secret: true, max: 200 },
} as const satisfies Record<string, { env: string; secret: boolean; max: number }>

export type PlatformSettingKey = keyof typeof PLATFORM_SETTINGS
export const PLATFORM_SETTING_KEYS = Object.keys(PLATFORM_SETTINGS) as PlatformSettingKey[]

export function isPlatformSettingKey(key: string): key is PlatformSettingKey {
  return Object.hasOwn(PLATFORM_SETTINGS, key)
}

/**
 * A platform setting as the super user's Settings shows it. `value` is null for a secret (only `isSet` says
 * whether one is in force); `source` says where the value in force comes from.
 */
export type PlatformSettingDto = {
  key: PlatformSettingKey
  value: string | null
  secret: boolean
  isSet: boolean
  source: 'settings' | 'environment' | null
  /** The environment variable that gives it when Settings does not. */
  env: string
}
