/** A Dialogflow service account as the form gives it and the database keeps it (sealed). */
import { isHttpUrl } from '../../../shared/queue-integrations'

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token'

export type ServiceAccount = {
  clientEmail: string
  privateKey: string
  projectId: string
  tokenUri: string
  /** The JSON as given (every field kept, for the masked view). */
  raw: Record<string, unknown>
}

/** A service account JSON with client_email, private_key and project_id, or null. */
export function parseServiceAccount(text: string): ServiceAccount | null {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return null
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null
  const r = raw as Record<string, unknown>
  const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null)
  const clientEmail = str(r.client_email)
  const privateKey = typeof r.private_key === 'string' && r.private_key.trim() ? r.private_key : null
  const projectId = str(r.project_id)
  if (!clientEmail || !privateKey || !projectId) return null
  const tokenUri = str(r.token_uri) ?? GOOGLE_TOKEN_URI
  // The token URI is fetched with the signed assertion: only http(s), never file: or data: (Bun's fetch opens them).
  if (!isHttpUrl(tokenUri)) return null
  return { clientEmail, privateKey, projectId, tokenUri, raw: r }
}
